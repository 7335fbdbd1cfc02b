"""The documents index on the tiny embedder: readers, chunking, hybrid search, transactions, re-indexing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from eagle_chat.core.documents.chunking import TokenCounter, chunk_sections
from eagle_chat.core.documents.indexer import Indexer
from eagle_chat.core.documents.readers import Section
from eagle_chat.core.documents.store import DocumentIndexError, DocumentStore
from tests.conftest import MODELS_DIR
from tests.documents.files import write_docx, write_pdf

EMBEDDER_DIR = MODELS_DIR / "tiny-embedder"
FACT = "The lighthouse keeper on Skellig Mhor feeds exactly seventeen puffins every Tuesday."
QUESTION = "How many puffins does the lighthouse keeper feed?"


def filler(topic: str, n: int = 30) -> str:
    return " ".join(f"{topic} note {i}: the committee reviewed the quarterly schedule and the budget."
                    for i in range(n))


def library(folder: Path, fact_in: str = "pdf") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notes.txt").write_text(filler("garden"), encoding="utf-8")
    (folder / "readme.md").write_text("# Project\n\n" + filler("project"), encoding="utf-8")
    (folder / "tool.py").write_text("def schedule(budget):\n    return budget * 2\n", encoding="utf-8")
    (folder / "page.html").write_text("<html><head><script>var x = 'puffins';</script></head><body><p>"
                                      + filler("harbour") + "</p></body></html>", encoding="utf-8")
    write_pdf(folder / "report.pdf", [filler("weather", 3), FACT if fact_in == "pdf" else filler("tides", 3),
                                      filler("fishing", 3)])
    write_docx(folder / "minutes.docx", [[filler("meeting", 3)], [FACT if fact_in == "docx" else filler("vote", 3)]])
    return folder


@pytest.mark.parametrize("fact_in, name, page", [("pdf", "report.pdf", 2), ("docx", "minutes.docx", 2)])
def test_a_planted_fact_is_the_top_hit_with_its_file_and_page(tmp_path, store, embedder, fact_in, name, page):
    folder = library(tmp_path / "lib", fact_in)
    report = Indexer(store, embedder).add([folder])
    assert not report.failed
    assert len(report.added) == 6
    hits = Indexer(store, embedder).search(QUESTION, k=3)
    assert Path(hits[0].path) == folder / name
    assert hits[0].page == page
    assert "seventeen puffins" in hits[0].text
    # The script's "puffins" in page.html is not text of the page.
    assert all("var x" not in h.text for h in hits)


def test_each_bad_input_gets_one_sentence_and_leaves_nothing_behind(tmp_path, store, embedder):
    folder = tmp_path / "bad"
    folder.mkdir()
    write_pdf(folder / "locked.pdf", ["secret"], encrypted=True)
    good = write_pdf(tmp_path / "good.pdf", ["fine"])
    (folder / "broken.pdf").write_bytes(good.read_bytes()[:150])
    (folder / "photo.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    (folder / "broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    (folder / "big.md").write_text("x " * 6000, encoding="utf-8")
    (folder / "empty.txt").write_text("   \n", encoding="utf-8")
    write_pdf(folder / "scanned.pdf", [""])  # a page without a text layer
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n")
    report = Indexer(store, embedder, max_bytes=10_000).add([folder, tmp_path / "missing.txt",
                                                              tmp_path / "image.png"])
    reasons = {Path(path).name: message for path, message in report.failed}
    assert "encrypted PDF" in reasons["locked.pdf"]
    assert "not a readable PDF" in reasons["broken.pdf"]
    assert "binary file" in reasons["photo.txt"]
    assert "not a readable DOCX" in reasons["broken.docx"]
    assert "too large" in reasons["big.md"]
    assert "no text to index (a scanned PDF" in reasons["scanned.pdf"]
    assert "empty.txt" not in reasons and report.empty == [str(folder / "empty.txt")]  # nothing to say, no failure
    assert "does not exist" in reasons["missing.txt"]
    assert "not a kind of file" in reasons["image.png"]
    assert all(str(folder) in m or "missing" in m or "image" in m for m in reasons.values())
    assert [Path(r.path).name for r in store.files()] == ["empty.txt"] and store.chunk_count() == 0


def test_a_failure_while_writing_a_file_leaves_the_old_version_whole(tmp_path, store, embedder, monkeypatch):
    path = tmp_path / "a.md"
    path.write_text(filler("alpha"), encoding="utf-8")
    indexer = Indexer(store, embedder, max_tokens=32, overlap=4)
    indexer.add([path])
    before = [(r.path, r.sha256, r.chunks) for r in store.files()]
    before_chunks = store.chunk_count()
    assert before_chunks > 2

    real = DocumentStore._insert_chunks

    def half_then_fail(self, file_id, chunks, blobs):
        real(self, file_id, chunks[:1], blobs[:1])  # some rows are in…
        raise sqlite3.OperationalError("disk I/O error")  # …then the write dies

    monkeypatch.setattr(DocumentStore, "_insert_chunks", half_then_fail)
    path.write_text(filler("beta", 60), encoding="utf-8")
    with pytest.raises(sqlite3.OperationalError):
        indexer.add([path])
    assert [(r.path, r.sha256, r.chunks) for r in store.files()] == before
    assert store.chunk_count() == before_chunks
    db = sqlite3.connect(store.path)
    assert db.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH 'beta'").fetchone()[0] == 0
    db.close()


def test_only_changed_files_are_read_again_and_deleted_ones_are_forgotten(tmp_path, store, embedder):
    folder = tmp_path / "lib"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text(filler(name), encoding="utf-8")
    indexer = Indexer(store, embedder)
    assert len(indexer.add([folder]).added) == 3

    (folder / "a.txt").write_text(filler("changed"), encoding="utf-8")
    stat = (folder / "b.txt").stat()
    os.utime(folder / "b.txt", ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))  # touched, same bytes
    (folder / "c.txt").unlink()
    report = indexer.add([folder])
    assert [Path(p).name for p in report.updated] == ["a.txt"]
    assert [Path(p).name for p in report.unchanged] == ["b.txt"]
    assert [Path(p).name for p in report.removed] == ["c.txt"]
    assert report.added == []
    assert sorted(Path(r.path).name for r in store.files()) == ["a.txt", "b.txt"]
    assert indexer.search("changed note", k=1)[0].path.endswith("a.txt")
    # The touch was remembered: a third run does not even hash b.txt.
    assert sorted(Path(p).name for p in indexer.add([folder]).unchanged) == ["a.txt", "b.txt"]


def test_chunks_respect_the_token_budget_overlap_and_pages(embedder):
    counter = TokenCounter(embedder.count_tokens)
    text = " ".join(f"word{i}" for i in range(400))
    chunks = chunk_sections([Section(text, 1), Section("short page", 2)], counter, max_tokens=50, overlap=10)
    assert all(c.tokens <= 50 for c in chunks)
    assert [embedder.count_tokens([c.text])[0] for c in chunks[:-1]] == [c.tokens for c in chunks[:-1]]
    assert chunks[-1].page == 2 and chunks[-1].text == "short page"
    first, second = chunks[0].text.split(), chunks[1].text.split()
    assert second[0] in first and first[-1] in second  # they overlap
    assert {w for c in chunks if c.page == 1 for w in c.text.split()} == set(text.split())


def test_a_chunk_that_must_be_cut_ends_at_a_sentence_so_a_fact_stays_whole():
    """Cut by the budget alone, '…藏在第三' ended one chunk and '块石头下。' began the next: the benchmark's
    question found neither half with its answer."""
    counter = TokenCounter(lambda words: [1] * len(words))  # a token a word (a CJK character is a word)
    filler = "".join("海边有很多石头和草" for _ in range(2)) + "。"  # 19 characters, one sentence
    fact = "灯塔看守人把钥匙藏在第三块石头下。"  # 17
    chunks = chunk_sections([Section(filler + fact + filler, 1)], counter, max_tokens=30, overlap=4)
    assert any(fact in c.text for c in chunks), [c.text for c in chunks]
    assert chunks[0].text == filler  # ended after its sentence, not 11 characters into the fact
    english = " ".join(["The harbour is quiet in winter."] * 3) + " The keeper named her boat Petrel Nine."
    cut = chunk_sections([Section(english, 1)], counter, max_tokens=20, overlap=2)
    assert all(c.text.endswith(".") for c in cut), [c.text for c in cut]
    # No sentence end in the chunk's second half: cut by the budget as before.
    words = chunk_sections([Section(" ".join(f"w{i}" for i in range(50)), 1)], counter, max_tokens=20, overlap=2)
    assert [c.tokens for c in words][:2] == [20, 20]


def test_another_embedder_is_refused_on_a_filled_index(tmp_path, store, embedder):
    (tmp_path / "a.txt").write_text("hello there", encoding="utf-8")
    Indexer(store, embedder).add([tmp_path / "a.txt"])
    with pytest.raises(DocumentIndexError, match="docs remove --all"):
        store.check_embedder("another-model", 384)


KILL_SCRIPT = r"""
import sys, time
from pathlib import Path
import numpy as np
from eagle_chat.core.documents.store import DocumentStore
from eagle_chat.core.documents.indexer import Indexer

class Slow:
    name, dimensions = "slow", 8
    def count_tokens(self, texts): return [1] * len(texts)
    def embed_documents(self, texts):
        time.sleep(0.01)
        return np.ones((len(texts), 8), np.float32)
    def embed_query(self, text): return np.ones(8, np.float32)

real = DocumentStore._insert_chunks
def slow_insert(self, *args):  # the file's row is in, its chunks not yet: the kill lands here
    print("writing", flush=True)
    time.sleep(5 if len(self.files()) >= 7 else 0)
    real(self, *args)
DocumentStore._insert_chunks = slow_insert

Indexer(DocumentStore(Path(sys.argv[1])), Slow(), max_tokens=8, overlap=0).add(
    [Path(sys.argv[2])], progress=lambda p, o: print(p, o, flush=True))
"""


def test_a_kill_during_indexing_leaves_every_file_whole_or_absent(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(200):
        (folder / f"f{i:03}.txt").write_text(" ".join(f"w{j}" for j in range(80)), encoding="utf-8")
    db_path = tmp_path / "documents.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(db_path), str(folder)],
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.getcwd()})
    lines = []
    while lines.count("writing\n") < 7:  # six files written, the seventh being written
        lines.append(proc.stdout.readline())
        assert lines[-1], "the indexer ended early"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = db.execute("SELECT f.chunks, (SELECT COUNT(*) FROM chunks c WHERE c.file_id = f.id) FROM files f").fetchall()
    assert len(rows) == 6
    assert all(declared == stored == 10 for declared, stored in rows)
    assert db.execute("SELECT COUNT(*) FROM chunks WHERE file_id NOT IN (SELECT id FROM files)").fetchone()[0] == 0
    db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")
    db.close()
    # And the next run finishes the job.
    store = DocumentStore(db_path)
    assert len(store.files()) == len(rows)
    store.close()


def test_vectors_are_stored_as_float32_and_search_filters_by_collection(tmp_path, store, embedder):
    (tmp_path / "a.txt").write_text("apples and oranges", encoding="utf-8")
    (tmp_path / "b.txt").write_text("apples and pears", encoding="utf-8")
    indexer = Indexer(store, embedder)
    indexer.add([tmp_path / "a.txt"], collection="one")
    indexer.add([tmp_path / "b.txt"], collection="two")
    blob = sqlite3.connect(store.path).execute("SELECT vector FROM chunks LIMIT 1").fetchone()[0]
    assert len(blob) == 4 * embedder.dimensions
    assert np.isclose(np.linalg.norm(np.frombuffer(blob, np.float32)), 1.0, atol=1e-3)
    hits = indexer.search("apples", k=5, collection="two")
    assert [Path(h.path).name for h in hits] == ["b.txt"]


def test_chinese_text_is_found_by_its_words_and_by_a_question_in_other_words(tmp_path, store, embedder):
    (tmp_path / "zh.md").write_text("会议纪要：灯塔看守人每周二喂十七只海鹦。", encoding="utf-8")
    (tmp_path / "other.md").write_text("会议纪要：预算审查推迟到下个月。", encoding="utf-8")
    indexer = Indexer(store, embedder)
    indexer.add([tmp_path])
    for query in ("海鹦", "灯塔看守人每周喂多少只海鹦？"):
        hits = indexer.search(query, k=2)
        # The tiny embedder's cosines do not separate the two files, so they do not vote: BM25 decides, and
        # the chunks it did not find follow.
        assert [(Path(h.path).name, h.bm25_rank) for h in hits] == [("zh.md", 1), ("other.md", None)]


def test_removing_a_file_takes_its_words_out_of_the_full_text_index(tmp_path, store, embedder):
    (tmp_path / "a.md").write_text("zanzibar archipelago", encoding="utf-8")
    indexer = Indexer(store, embedder)
    indexer.add([tmp_path])
    assert indexer.search("zanzibar", k=1)[0].bm25_rank == 1
    store.remove_files([r.id for r in store.files()])
    db = sqlite3.connect(store.path)
    assert db.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH 'zanzibar'").fetchone()[0] == 0
    db.close()


class _Flat:
    """Every text the same vector: only BM25 can tell chunks apart."""
    name, dimensions = "flat", 4

    def count_tokens(self, texts):
        return [len(t.split()) for t in texts]

    def embed_documents(self, texts):
        return np.full((len(texts), 4), 0.5, np.float32)

    def embed_query(self, text):
        return np.full(4, 0.5, np.float32)


def test_a_word_in_most_chunks_is_left_out_of_bm25_and_rare_words_still_count(tmp_path, store):
    for n in range(120):
        (tmp_path / f"n{n:03}.txt").write_text(f"widget report number {n}", encoding="utf-8")
    (tmp_path / "special.txt").write_text("widget report about the zanzibar flange", encoding="utf-8")
    indexer = Indexer(store, _Flat())
    indexer.add([tmp_path])
    assert store._informative([["widget"], ["zanzibar"], ["flange"]]) == [["zanzibar"], ["flange"]]
    hits = store.search("widget zanzibar", None, k=3)  # BM25 alone
    assert [Path(h.path).name for h in hits] == ["special.txt"]  # "widget" alone matched nothing
    assert [Path(h.path).name for h in store.search("zanzibar flange", None, k=3)] == ["special.txt"]


def test_a_bm25_query_past_its_budget_is_dropped_and_the_vectors_still_answer(tmp_path, store, embedder,
                                                                               monkeypatch):
    (tmp_path / "a.md").write_text("zanzibar archipelago", encoding="utf-8")
    indexer = Indexer(store, embedder)
    indexer.add([tmp_path])
    monkeypatch.setattr("eagle_chat.core.documents.store.FTS_BUDGET_S", -1.0)
    monkeypatch.setattr("eagle_chat.core.documents.store.FTS_CHECK_EVERY", 1)
    hits = indexer.search("zanzibar", k=1)
    assert hits and hits[0].bm25_rank is None
