"""Questions, not phrases: what a question becomes as keyword terms (English less stop words, CJK as character
bigrams), that a natural Chinese, Japanese or Korean question finds the passage that answers it in other
words, and that an embedder whose vectors carry no information (random weights) does not move the keyword
order."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from eagle_chat.core.documents.embedder import KeywordOnly
from eagle_chat.core.documents.indexer import Indexer
from eagle_chat.core.documents.store import separates
from eagle_chat.core.documents.terms import fts_query, query_phrases

ZH_FACT = "岛上的记录写道：灯塔看守人的船名叫海燕九号，每逢周四出海。"
ZH_QUESTION = "灯塔看守人的船叫什么名字？"


def test_a_question_becomes_its_content_words_and_cjk_bigrams():
    assert query_phrases("What is the name of the lighthouse keeper's boat?") == [
        ["name"], ["lighthouse"], ["keeper"], ["boat"]]
    assert query_phrases(ZH_QUESTION) == [["灯", "塔"], ["塔", "看"], ["看", "守"], ["守", "人"], ["人", "的"],
                                          ["的", "船"], ["船", "叫"], ["名", "字"]]  # 叫什, 什么, 么名: question words
    assert query_phrases("船") == [["船"]] and query_phrases("什么？") == []
    assert query_phrases("EagleChat的作者") == [["eaglechat"], ["的", "作"], ["作", "者"]]
    assert query_phrases("등대지기의 배") == [["등", "대"], ["대", "지"], ["지", "기"], ["기", "의"], ["배"]]
    assert fts_query([["灯", "塔"], ["boat"]]) == '"灯 塔" OR "boat"'


class KeywordsOnly:
    """An embedder with no vectors worth the name: every text gets the same one."""
    name, dimensions = "flat", 4

    def count_tokens(self, texts):
        return [len(t.split()) + sum(ord(c) > 127 for c in t) for t in texts]

    def embed_documents(self, texts):
        return np.full((len(texts), 4), 0.5, np.float32)

    def embed_query(self, text):
        return np.full(4, 0.5, np.float32)


class RandomVotes(KeywordsOnly):
    """What a transformer with random weights gives: vectors along one shared direction plus a little noise,
    different for every text, so every cosine is ~0.95 and their order is noise."""
    name, dimensions = "random", 64

    def _vectors(self, texts):
        common = np.ones(64, np.float32)
        rows = []
        for text in texts:
            noise = np.random.default_rng(abs(hash(text)) % 2**32).normal(0, 0.03, 64).astype(np.float32)
            v = common / 8 + noise
            rows.append(v / np.linalg.norm(v))
        return np.stack(rows) if rows else np.zeros((0, 64), np.float32)

    def embed_documents(self, texts):
        return self._vectors(texts)

    def embed_query(self, text):
        return self._vectors([text])[0]


def corpus(folder: Path) -> Path:
    folder.mkdir()
    (folder / "fact.md").write_text(ZH_FACT + "\n\nThe lighthouse keeper's boat is called Storm Petrel Nine.",
                                    encoding="utf-8")
    (folder / "dog.md").write_text("岛上的记录写道：灯塔看守人的狗名叫阿黄，每逢周四看家。\n\nThe lighthouse keeper's dog "
                                   "is named Amber.", encoding="utf-8")  # as long as the fact, most words shared
    (folder / "ask.md").write_text("你叫什么名字？我们的船什么时候出发？What is your name?", encoding="utf-8")
    for n in range(12):
        (folder / f"filler{n}.txt").write_text(f"第{n}号会议记录：预算和日程已审查。Minutes {n}: the budget, the "
                                               "schedule and the harbour ferry rota were reviewed.", encoding="utf-8")
    return folder


def test_natural_questions_find_the_passage_that_answers_them_in_other_words(tmp_path, store):
    indexer = Indexer(store, KeywordsOnly())
    indexer.add([corpus(tmp_path / "c")])
    for question in (ZH_QUESTION, "What is the lighthouse keeper's boat named?", "灯塔看守人的船名是什么"):
        hits = indexer.search(question, k=3)
        assert Path(hits[0].path).name == "fact.md", question


def test_japanese_and_korean_questions_match_by_bigrams(tmp_path, store):
    (tmp_path / "ja.md").write_text("灯台守の船の名前は海燕九号です。", encoding="utf-8")
    (tmp_path / "ko.md").write_text("등대지기의 배 이름은 바다제비호입니다.", encoding="utf-8")
    (tmp_path / "a-other.md").write_text("会議の予算は来月に延期されました。회의 예산은 다음 달로 연기되었습니다.",
                                       encoding="utf-8")
    indexer = Indexer(store, KeywordsOnly())
    indexer.add([tmp_path])
    for question, name in (("灯台守の船は何という名前ですか", "ja.md"), ("등대지기 배의 이름이 뭐예요?", "ko.md")):
        top = indexer.search(question, k=1)[0]
        assert (Path(top.path).name, top.bm25_rank) == (name, 1)


def test_an_embedder_with_random_weights_does_not_change_the_keyword_order(tmp_path):
    from eagle_chat.core.documents.store import DocumentStore

    folder = corpus(tmp_path / "c")
    orders = {}
    for embedder in (KeywordOnly(), RandomVotes()):
        store = DocumentStore(tmp_path / f"{embedder.name}.sqlite3")
        indexer = Indexer(store, embedder)
        indexer.add([folder])
        orders[embedder.name] = []
        for question in (ZH_QUESTION, "keeper boat name", "budget schedule", "灯塔看守人的狗叫什么"):
            hits = indexer.search(question, k=20)
            found = [h.bm25_rank is not None for h in hits]
            assert found == sorted(found, reverse=True)  # every keyword hit before any other chunk
            orders[embedder.name].append([(Path(h.path).name, h.bm25_rank) for h in hits if h.bm25_rank])
        voted = store.last_vectors_voted
        store.close()
    assert orders["random"] == orders["keyword-only"]
    assert all(orders["random"]) and not voted


def test_vectors_vote_when_their_best_stands_above_the_rest():
    assert not separates(np.array([0.93, 0.95, 0.94, 0.96, 0.92]))
    assert separates(np.array([0.31, 0.28, 0.74, 0.35, 0.30]))
    assert separates(np.array([0.5]))
    assert not separates(np.array([-np.inf, -np.inf]))
