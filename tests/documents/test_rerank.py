"""Rerank after hybrid search: more candidates go to the reranker, its k best come back, each keeping the
hybrid score; on the committed tiny reranker (OpenVINO GenAI's TextRerankPipeline) and through retrieve()."""

from __future__ import annotations

from pathlib import Path

import pytest

from eagle_chat import paths
from eagle_chat.core.documents.indexer import Indexer
from eagle_chat.core.documents.retrieval import retrieve
from eagle_chat.core.documents.store import DocumentStore
from tests.documents.test_index import QUESTION, library


class ByLength:
    """Scores a passage by its length, shortest best: an order unrelated to the hybrid one."""
    name = "by-length"

    def __init__(self):
        self.seen: list[list[str]] = []

    def rerank(self, query, texts):
        self.seen.append(list(texts))
        # Minus the length: a character apart is far more than the reranker tie (1/length put passages a few
        # characters apart in one tie bucket, where the hybrid order decides).
        return sorted(((i, -float(len(t))) for i, t in enumerate(texts)), key=lambda item: -item[1])


def test_the_reranker_reads_more_candidates_and_its_best_k_come_back_with_both_scores(tmp_path, store, embedder):
    folder = library(tmp_path / "lib")
    indexer = Indexer(store, embedder, max_tokens=24, overlap=4)
    indexer.add([folder])
    plain = {h.chunk_id: h for h in indexer.search(QUESTION, k=store.chunk_count())}
    reranker = ByLength()
    hits = indexer.search(QUESTION, k=3, reranker=reranker)
    assert len(reranker.seen) == 1 and len(reranker.seen[0]) == 20  # max(4 k, 20) candidates
    assert len(hits) == 3
    assert [h.rerank_score for h in hits] == sorted((h.rerank_score for h in hits), reverse=True)
    shortest = sorted(reranker.seen[0], key=len)[:3]
    assert [h.text for h in hits] == shortest
    for hit in hits:
        assert hit.score == pytest.approx(plain[hit.chunk_id].score)  # the hybrid score is kept
        assert hit.rerank_score == -len(hit.text)
    assert indexer.search(QUESTION, k=2, reranker=reranker, rerank_candidates=5) and len(reranker.seen[-1]) == 5
    assert all(h.rerank_score is None for h in indexer.search(QUESTION, k=3))


class Jitter:
    """Scores every passage 0.5 plus noise below a thousandth, the worst for the hybrid order: what random weights
    give on a CPU whose kernels round otherwise (seen on CI: the tiny reranker's order replaced the hybrid one)."""
    name = "jitter"

    def rerank(self, query, texts):
        return sorted(((i, 0.5 + 1e-4 * i / len(texts)) for i in range(len(texts))), key=lambda item: -item[1])


def test_scores_a_thousandth_apart_are_a_tie_and_keep_the_hybrid_order(tmp_path, store, embedder):
    folder = library(tmp_path / "lib")
    indexer = Indexer(store, embedder)
    indexer.add([folder])
    plain = indexer.search(QUESTION, k=4)
    assert [h.chunk_id for h in indexer.search(QUESTION, k=4, reranker=Jitter())] == [h.chunk_id for h in plain]


def test_the_tiny_reranker_scores_through_openvino_and_ties_keep_the_hybrid_order(tmp_path, store, embedder):
    from eagle_chat.core.documents.reranker import OpenVinoReranker

    folder = library(tmp_path / "lib")
    indexer = Indexer(store, embedder)
    indexer.add([folder])
    reranker = OpenVinoReranker(paths.tiny_models_dir() / "tiny-reranker")
    # Batched, these calls fail in the tokenizer (CombineSegments) or abort the process: one passage a call.
    for texts in (["word0"] * 5, [" ".join(f"word{j}" for j in range(n)) for n in (1, 150, 1, 400, 3, 60)] * 3):
        scored = reranker.rerank(QUESTION, texts)
        assert sorted(i for i, _ in scored) == list(range(len(texts)))
    plain = indexer.search(QUESTION, k=3)
    reranked = indexer.search(QUESTION, k=3, reranker=reranker)
    # Random weights: every score is 0.5 give or take ~1e-4 (bf16 or f32 kernels, by CPU), a tie, so the hybrid
    # order must survive untouched.
    assert [h.chunk_id for h in reranked] == [h.chunk_id for h in plain]
    assert Path(reranked[0].path) == folder / "report.pdf" and reranked[0].page == 2
    assert all(h.rerank_score == pytest.approx(0.5, abs=0.05) for h in reranked)
    assert reranked[0].as_json()["rerank_score"] == pytest.approx(0.5, abs=0.05)


def test_retrieve_uses_the_index_and_the_embedder_it_was_built_with(tmp_path, capsys):
    from eagle_chat.commands import docs

    folder = library(tmp_path / "lib")
    assert docs.main(["add", str(folder)]) == 0
    capsys.readouterr()
    hits = retrieve(QUESTION, 2)
    assert len(hits) == 2 and Path(hits[0].path) == folder / "report.pdf" and hits[0].rerank_score is None
    reranked = retrieve(QUESTION, 2, reranker="")  # the default reranker: the bundled tiny one here
    assert [h.chunk_id for h in reranked] == [h.chunk_id for h in hits]
    assert all(h.rerank_score is not None for h in reranked)
    assert retrieve(QUESTION, 2, collection="elsewhere") == []
    kept = DocumentStore(paths.documents_database_file())
    try:
        assert retrieve(QUESTION, 1, store=kept)[0].chunk_id == hits[0].chunk_id  # a store the caller keeps
    finally:
        kept.close()
