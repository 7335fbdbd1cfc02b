"""A question as full-text search terms, in the spelling the documents index stores its words in.

The index (FTS5, unicode61) holds every CJK character as a word of its own (:func:`fts_text`), so any two
neighbouring characters can be asked for as a phrase. A question becomes its English words less stop words
and its CJK runs' overlapping character bigrams less question words (:func:`query_phrases`), joined by OR
(:func:`fts_query`): a passage matches on any term and BM25 ranks it by how many, and how rare, the terms it
holds are — so a natural question finds the passage that answers it in other words, in Chinese as in English.
"""

from __future__ import annotations

import re
import unicodedata

# English words too common to say anything: in a question they would match most chunks, and BM25 has to score
# every chunk a term matches (the cost grows with the index). Question words and two-letter function words
# too: "what is the name of ..." says nothing about which passage answers.
STOPWORDS = frozenset(
    "the and for are but not you all any can had her was one our out has him his how its may new now old see "
    "two way who did get let put say she too use what when where which while with would there their them they "
    "this that these those then than from have been were will into about does doing your yours what why also "
    "some such only same other more most very just over under again each both few nor off own once here "
    "is am be do of to in on at by an as it or if so no up me my we us he whom whose many much tell please "
    "could should shall might must named called".split())
# Chinese question and function words: a question's 什么 / 哪里 / 多少 would match every passage that asks
# or lists, not the one that answers.
CJK_STOP = frozenset("什么 怎么 怎样 为什 么样 哪里 哪个 哪些 哪儿 多少 如何 是什 是哪 是多 有什 有多 是否 请问 吗 呢 的 了 "
                     "是 在 和 与 吧 啊 么 叫什 么名 谁 "
                     "なに 何で です ます でし まし ですか ますか か の は が を に "
                     "무엇 뭐예 어디 언제 누구 이름 입니 니까 습니".split())

_CJK_CHAR = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK = re.compile(f"([{_CJK_CHAR}])")
_CJK_RUN = re.compile(f"[{_CJK_CHAR}]+")


def fts_text(text: str) -> str:
    """The text as the full-text index sees it: each CJK character a word of its own (unicode61 would make a
    whole run of Chinese one token), so any two neighbouring characters can be asked for as a phrase."""
    return _CJK.sub(r" \1 ", text)


def _fold(word: str) -> str:
    """A word as unicode61 with remove_diacritics stores it: lower case, accents off."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


def cjk_terms(run: str) -> list[list[str]]:
    """A run of CJK characters (Chinese, Japanese kana, Korean hangul) as search engines for these languages
    read it without a dictionary: its overlapping character bigrams (a one-character run: that character),
    less question and function words. ``灯塔看守人的船叫什么名字`` gives 灯塔, 塔看, 看守, 守人, 人的, 的船, 船叫 …,
    so a passage with 灯塔看守人的船名叫… matches most of them."""
    if len(run) == 1:
        return [] if run in CJK_STOP else [[run]]
    return [[a, b] for a, b in zip(run, run[1:]) if a + b not in CJK_STOP]


def query_phrases(text: str) -> list[list[str]]:
    """The query's search terms in the index's own spelling, each a phrase of tokens: an English word (less
    stop words and single letters) is a phrase of one token, a CJK run gives its character bigrams (see
    :func:`cjk_terms`). Any term may match (they are joined by OR) and BM25 ranks the chunks by how many, and
    how rare, the terms they hold are."""
    phrases: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    for word in re.findall(r"\w+", text):
        terms: list[list[str]] = []
        for piece in re.split(f"([{_CJK_CHAR}]+)", word):
            if _CJK_RUN.fullmatch(piece):  # as is: unicode61 keeps kana's marks and hangul syllables whole
                terms += cjk_terms(piece)
            else:
                terms += [[t] for t in re.findall(r"[^\W_]+", _fold(piece)) if len(t) > 1 and t not in STOPWORDS]
        for term in terms:
            if tuple(term) not in seen:
                seen.add(tuple(term))
                phrases.append(term)
    return phrases


def fts_query(phrases: list[list[str]]) -> str | None:
    """Phrases as an FTS5 query: quoted, joined by OR (None: nothing to match)."""
    return " OR ".join('"' + " ".join(p).replace('"', '""') + '"' for p in phrases) or None


def index_tokens(text: str) -> list[str]:
    """``text``'s tokens as the index holds them (a CJK character each, other words folded)."""
    out: list[str] = []
    for word in re.findall(r"\w+", text):
        for piece in re.split(f"([{_CJK_CHAR}]+)", word):
            out += list(piece) if _CJK_RUN.fullmatch(piece) else re.findall(r"[^\W_]+", _fold(piece))
    return out


def matched(phrases: list[list[str]], text: str) -> list[bool]:
    """For each phrase (of one or two tokens, as :func:`query_phrases` makes them), whether ``text`` holds it."""
    tokens = index_tokens(text)
    grams = set(tokens) | set(zip(tokens, tokens[1:]))
    return [(p[0] if len(p) == 1 else tuple(p)) in grams for p in phrases]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])|\n+")


def best_sentence(question: str, passage: str) -> tuple[int, int] | None:
    """The span (start, end) of the passage's sentence that holds the most of the question's terms (the
    earliest of equals), for the preview to highlight what matched; None when no sentence holds any."""
    phrases = query_phrases(question)
    if not phrases:
        return None
    best: tuple[int, int, int] | None = None  # (terms held, start, end)
    start = 0
    for match in [*_SENTENCE_END.finditer(passage), None]:
        end = match.start() if match is not None else len(passage)
        sentence = passage[start:end]
        if sentence.strip():
            held = sum(matched(phrases, sentence))
            lead = len(sentence) - len(sentence.lstrip())
            if held and (best is None or held > best[0]):
                best = (held, start + lead, start + len(sentence.rstrip()))
        if match is not None:
            start = match.end()
    return (best[1], best[2]) if best is not None else None
