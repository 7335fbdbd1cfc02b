"""How the next reply speculates: one method per reply, chosen from what the loaded pair offers.

The methods (:data:`METHODS`) are OpenVINO GenAI's: plain decoding (``off``), EAGLE-3 (a draft head reading
the target's hidden states), prompt lookup (drafts copied from the prompt's own n-grams: no draft model, so
every target has it) and, where a pair provides them, DFlash and MTP (docs/speculative-decoding.md). One
pipeline cannot do two of them: GenAI 2026.4.1 refuses ``prompt_lookup=True`` beside a draft ("Speculative
decoding and prompt lookup decoding are mutually exclusive"), and a prompt-lookup pipeline refuses
``num_assistant_tokens=0``. So prompt lookup runs on a second pipeline over the same target, built the first
time a reply asks for it (``prompt_lookup``), and plain replies keep running on the main pipeline.

``auto`` (the default) picks per request: :func:`choose` classifies the request by what it is made of
(pasted code asked to come back changed, document passages, tool results, Chinese, prose), measures how much
of the earlier replies was copied from their prompts, and prefers the method whose replies of this kind ran
fastest on this machine (the engine's :class:`Record` of the user's own replies); before there are
:data:`MIN_MEASURED` such replies it falls back to :data:`FALLBACK`, measured by benchmarks/kinds_of_work.py.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from eagle_chat.core.files import write_json_atomic

OFF, EAGLE3, PROMPT_LOOKUP, DFLASH, MTP = "off", "eagle3", "prompt_lookup", "dflash", "mtp"
METHODS = (OFF, EAGLE3, PROMPT_LOOKUP, DFLASH, MTP)
AUTO = "auto"
DRAFTED = (EAGLE3, DFLASH)  # the methods a draft model provides (the draft folder's kind says which)

# Kinds of work, as :func:`kind_of` reads them from a request.
PROSE, CODE, CODE_EDIT, DOCUMENT, TOOL, CHINESE = "prose", "code", "code_edit", "document", "tool", "chinese"
KINDS = (PROSE, CODE, CODE_EDIT, DOCUMENT, TOOL, CHINESE)
# What runs before a kind has measured replies: (method preferred, its K). Copy-heavy kinds → prompt lookup
# (benchmarks/kinds_of_work.py: 1.4–2.4 tokens per step on copy-heavy replies, EAGLE-3 ≈ 1 there on the tiny
# pairs); free writing → the draft model when there is one.
FALLBACK: Mapping[str, tuple[str, int]] = {
    CODE_EDIT: (PROMPT_LOOKUP, 5), DOCUMENT: (PROMPT_LOOKUP, 5), TOOL: (PROMPT_LOOKUP, 3),
    PROSE: (EAGLE3, 5), CODE: (EAGLE3, 5), CHINESE: (EAGLE3, 5),
}
COPY_OVERLAP = 0.5  # earlier replies that took this share of their 4-grams from their prompts copy: prompt lookup
NOT_EARNING = 1.3  # tokens per step below which the table's method gives way to trying the other
MIN_MEASURED = 3  # replies of a kind with a method before the record outranks the fallback table
LOOKUP_NGRAM = 3  # GenAI's max_ngram_size for prompt lookup (2 and 3 drafted equally on the tiny pairs)
Message = Mapping[str, str]


@dataclass(frozen=True)
class Choice:
    """What the next reply runs and why. ``basis``: "asked" (the request or a pin named it), "measured"
    (this kind's recent replies here), "overlap" (earlier replies copied their prompts), "table" (the
    fallback), "trying" (the table's method drafted little here: the other gets its replies), "only" (the pair
    offers no speculation), "plain" (K = 0). ``tokens_per_step``/``replies``: the measured figure behind
    "measured" (the winner's) or "trying" (the one given up)."""

    method: str
    k: int
    kind: str = PROSE
    basis: str = "table"
    tokens_per_step: float | None = None  # the measured figure behind a "measured" choice
    replies: int = 0  # how many replies that figure is over
    overlap: float | None = None  # the copied share behind an "overlap" choice


def offered(*, draft_kind: str | None, device: str, target_has_mtp: bool = False) -> tuple[str, ...]:
    """The methods a pair loaded on ``device`` can run: ``off`` always; the draft's own method; prompt lookup
    on CPU and GPU (GenAI builds it on the continuous-batching pipeline only, not the NPU's stateful one)."""
    methods = [OFF]
    if draft_kind in DRAFTED:
        methods.append(draft_kind)
    if target_has_mtp:
        methods.append(MTP)
    if not device.upper().startswith("NPU"):
        methods.append(PROMPT_LOOKUP)
    return tuple(methods)


def kind_of(messages: Sequence[Message], tools: str | None = None, *, grounded: bool = False) -> str:
    """The kind of work a request is, from its last user turn and what came after it. ``grounded``: the last
    user turn will be given document passages that it does not hold yet (the window's preview of a reply to a
    conversation with documents: the passages are searched only once it is sent)."""
    last_role = messages[-1].get("role", "user") if messages else "user"
    if last_role == "tool" or tools and any(m.get("role") == "tool" for m in messages[-2:]):
        return TOOL
    user = next((str(m.get("content", "")) for m in reversed(messages) if m.get("role") == "user"), "")
    if len(_CJK.findall(user)) > 0.3 * max(1, len(user.strip())):
        return CHINESE
    pasted = sum(len(block) for block in _CODE_BLOCK.findall(user))
    if pasted >= 200 or _looks_like_code(user) and len(user) >= 400:
        return CODE_EDIT
    if grounded or any(m.get("role") == "system" and _SOURCES.search(str(m.get("content", ""))) for m in messages) or (
            _SOURCES.search(user) and len(user) >= 400):
        return DOCUMENT
    if _CODE_ASK.search(user):
        return CODE
    return PROSE


def copied_share(messages: Sequence[Message]) -> float | None:
    """Of the earlier assistant replies' word 4-grams, the share found in the text before each reply (None:
    no earlier reply long enough to say). High means this conversation's replies copy their prompts."""
    found = total = 0
    before: list[str] = []
    for message in messages:
        words = str(message.get("content", "")).split()
        if message.get("role") == "assistant" and len(words) >= 8:
            seen = {tuple(before[i:i + 4]) for i in range(len(before) - 3)}
            grams = [tuple(words[i:i + 4]) for i in range(len(words) - 3)]
            found += sum(g in seen for g in grams)
            total += len(grams)
        before.extend(words)
    return found / total if total else None


class Record:
    """Tokens per step and tokens/s of the last replies per (kind, method): the user's own replies, here.

    :meth:`for_pair` keeps it in the data folder per device and pair, so what ``auto`` learned survives the
    engine host's restart and the app's (it was forgotten at every launch); a file that cannot be read is
    started afresh. Tokens/s belong to this machine and device, so they are never shared beyond them."""

    VERSION = 1
    KEEP_PAIRS = 32  # pairs remembered in the file, the most recently used first

    def __init__(self, keep: int = 5, *, path: Path | None = None, key: str = ""):
        self._keep, self._path, self._key = keep, path, key
        self._replies: dict[tuple[str, str], deque[tuple[float, float]]] = defaultdict(lambda: deque(maxlen=keep))
        saved = self._file().get(key) if path is not None else None
        for name, replies in (saved.items() if isinstance(saved, dict) else ()):
            kind, _, method = name.partition("|")
            for reply in replies[-keep:] if isinstance(replies, list) else ():
                if isinstance(reply, list) and len(reply) == 2 and all(isinstance(v, (int, float)) for v in reply):
                    self._replies[(kind, method)].append((float(reply[0]), float(reply[1])))

    @classmethod
    def for_pair(cls, device: str, target_dir, draft_dir) -> Record:
        """The record of this device and pair, read from (and written to) ``paths.speculation_record_file``."""
        from eagle_chat import paths

        key = "|".join((device, str(Path(target_dir).resolve()), str(Path(draft_dir).resolve()) if draft_dir else ""))
        return cls(path=paths.speculation_record_file(), key=key)

    key = property(lambda self: self._key)  # which pair's replies (device, target and draft folders)

    def add(self, kind: str, method: str, tokens_per_step: float | None, tokens_per_s: float) -> None:
        if tokens_per_step is not None and tokens_per_s > 0:
            self._replies[(kind, method)].append((float(tokens_per_step), float(tokens_per_s)))
            self._save()

    def figures(self, kind: str, method: str) -> tuple[int, float, float]:
        """(replies, mean tokens per step, mean tokens/s) of this kind with this method."""
        replies = self._replies.get((kind, method), ())
        if not replies:
            return 0, 0.0, 0.0
        return len(replies), sum(r[0] for r in replies) / len(replies), sum(r[1] for r in replies) / len(replies)

    def _file(self) -> dict:
        try:
            data = json.loads(self._path.read_text(encoding="utf-8")) if self._path is not None else {}
        except (OSError, ValueError):
            return {}
        pairs = data.get("pairs") if isinstance(data, dict) and data.get("version") == self.VERSION else None
        return pairs if isinstance(pairs, dict) else {}

    def _save(self) -> None:
        if self._path is None:
            return
        pairs = {self._key: {f"{kind}|{method}": [list(r) for r in replies]
                             for (kind, method), replies in self._replies.items() if replies}}
        pairs.update((k, v) for k, v in list(self._file().items())[:self.KEEP_PAIRS - 1] if k != self._key)
        try:  # a cheap write after each reply: it survives the process, not a power cut (a record, not data)
            write_json_atomic(self._path, {"version": self.VERSION, "pairs": pairs}, indent=None, durable=False)
        except OSError:
            pass  # a read-only data folder: ``auto`` learns for this session only


def choose(messages: Sequence[Message], methods: Sequence[str], *, asked: str = AUTO, k: int = 5,
           tools: str | None = None, record: Record | None = None, grounded: bool = False) -> Choice:
    """The method and K for a reply to ``messages`` on a pair offering ``methods``.

    ``asked``: a method the request or the user pinned (taken as it is: the caller refuses one the pair
    lacks), or ``auto``; ``k``: the K the user set (0 = plain decoding, whatever else is asked); ``grounded``:
    as :func:`kind_of` takes it."""
    kind = kind_of(messages, tools, grounded=grounded)
    if k <= 0 or asked == OFF:
        return Choice(OFF, 0, kind, "plain" if k <= 0 else "asked")
    if asked != AUTO:
        return Choice(asked, k, kind, "asked")
    candidates = [m for m in methods if m != OFF]
    if not candidates:
        return Choice(OFF, 0, kind, "only")
    share = copied_share(messages)
    if PROMPT_LOOKUP in candidates and share is not None and share >= COPY_OVERLAP:
        table = Choice(PROMPT_LOOKUP, FALLBACK[CODE_EDIT][1], kind, "overlap", overlap=share)
    else:
        method, table_k = FALLBACK[kind]
        if method not in candidates:
            drafted = [m for m in candidates if m != PROMPT_LOOKUP]
            method = drafted[0] if drafted else OFF
        table = Choice(method, 0 if method == OFF else table_k if method == PROMPT_LOOKUP else k, kind, "table")
    if record is None or table.method == OFF or len(candidates) < 2:
        return table
    figures = {m: record.figures(kind, m) for m in candidates}
    measured = {m: f for m, f in figures.items() if f[0] >= MIN_MEASURED}
    if len(measured) == len(candidates):  # every candidate has had its chance here: the fastest wins
        method = max(measured, key=lambda m: measured[m][2])
        replies, per_step, _ = measured[method]
        return Choice(method, table.k if method == table.method else k if method != PROMPT_LOOKUP else
                      FALLBACK[CODE_EDIT][1], kind, "measured", per_step, replies)
    if table.method in measured and measured[table.method][1] < NOT_EARNING:  # the table's pick drafts little
        other = next(m for m in candidates if m not in measured)
        replies, per_step, _ = measured[table.method]
        return Choice(other, FALLBACK[CODE_EDIT][1] if other == PROMPT_LOOKUP else k, kind, "trying", per_step, replies)
    return table


_COPYING = (CODE_EDIT, DOCUMENT, TOOL)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.S)
_SOURCES = re.compile(r"\[\d+\][^\n]{0,200}\n|<document|<source|Sources?:", re.I)
_CODE_ASK = re.compile(r"\b(write|implement|code|function|class|script|def|python|regex)\b", re.I)


def _looks_like_code(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    codey = sum(ln.startswith(("    ", "\t", "def ", "class ", "import ", "from ", "#", "}")) or ln.rstrip().endswith(
        (":", ";", "{", ")")) for ln in lines)
    return len(lines) >= 5 and codey >= 0.5 * len(lines)
