"""What a reply in a conversation with documents is given: files indexed by the child-process worker (its JSON
lines, a failed file's reason, a kill), the best passages numbered for citation when the files are large,
the whole documents when they fit, and passages given before keeping their numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from eagle_chat.core import grounding
from eagle_chat.core.documents.store import DocumentStore
from eagle_chat.core.storage.conversation import Conversation, Message
from tests.documents.test_index import EMBEDDER_DIR, FACT, QUESTION, filler, library


def index(database: Path, conversation_id: int, *paths: Path) -> tuple[int, list[dict]]:
    """Run the index worker as the window does; its exit code and events."""
    done = subprocess.run(
        [sys.executable, "-m", "eagle_chat.core.documents.index_worker", "--database", str(database),
         "--collection", grounding.collection(conversation_id), "--embedder", str(EMBEDDER_DIR), *map(str, paths)],
        capture_output=True, text=True, timeout=300)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def asked(conversation_id: int, *questions_and_replies: Message) -> Conversation:
    c = Conversation(id=conversation_id)
    c.messages = list(questions_and_replies)
    return c


@pytest.fixture
def grounded(tmp_path):
    g = grounding.DocumentGrounding(tmp_path / "documents.sqlite3", EMBEDDER_DIR)
    yield g
    g.close()


def test_the_worker_reports_each_file_and_the_best_passages_are_numbered_with_file_and_page(tmp_path, grounded):
    folder = library(tmp_path / "lib")
    (folder / "binary.txt").write_bytes(b"\x00\x01\x02 not text")
    code, events = index(grounded.store.path, 7, folder)
    assert code == 1 and events[0] == {"event": "start", "files": 7}
    files = {Path(e["path"]).name: e for e in events if e["event"] == "file"}
    assert files["report.pdf"]["outcome"] == "added" and [e["done"] for e in events[1:-1]] == list(range(1, 8))
    assert files["binary.txt"]["outcome"] == "failed" and "binary" in files["binary.txt"]["message"]
    assert events[-1]["event"] == "done" and events[-1]["failed"] == 1
    assert len(grounded.files(7)) == 6 and grounded.files(8) == []

    grounded.warm()
    sources = grounded.sources_for(asked(7, Message("user", QUESTION)), context_length=512)
    assert grounded.last_mode == "passages" and len(sources) == grounding.DEFAULT_K
    top = sources[0]
    assert (top["n"], Path(top["path"]).name, top["page"], top["repeat"]) == (1, "report.pdf", 2, False)
    assert FACT in top["text"] and [s["n"] for s in sources] == [1, 2, 3, 4, 5]
    # Another conversation's question sees none of them; a conversation without files gets None.
    assert grounded.sources_for(asked(8, Message("user", QUESTION)), context_length=512) is None

    # The next question: a passage given before keeps its number, the new ones follow on.
    reply = Message("assistant", "Seventeen [1].", sources=sources)
    again = grounded.sources_for(asked(7, Message("user", QUESTION), reply, Message("user", "And puffins?")), 512)
    by_text = {s["text"]: s for s in sources}
    for s in again:
        if s["text"] in by_text:
            assert s["repeat"] and s["n"] == by_text[s["text"]]["n"]
        else:
            assert not s["repeat"] and s["n"] > 5


def test_documents_that_fit_go_whole_once_and_detaching_forgets_them(tmp_path, grounded):
    (tmp_path / "fact.md").write_text("# Keeper\n\n" + FACT, encoding="utf-8")
    (tmp_path / "other.txt").write_text(filler("garden", 3), encoding="utf-8")
    assert index(grounded.store.path, 3, tmp_path / "fact.md", tmp_path / "other.txt")[0] == 0
    first = grounded.sources_for(asked(3, Message("user", "Who feeds puffins?")), context_length=4096)
    assert grounded.last_mode == "whole"
    assert [(Path(s["path"]).name, s["repeat"]) for s in first] == [("fact.md", False), ("other.txt", False)]
    assert FACT in first[0]["text"]
    second = grounded.sources_for(asked(3, Message("user", "Who?"), Message("assistant", "The keeper [1].",
                                                                           sources=first),
                                        Message("user", "When?")), context_length=4096)
    assert [(s["n"], s["repeat"]) for s in second] == [(1, True), (2, True)]  # named, not sent again
    # A small context: the same files go as passages instead.
    grounded.sources_for(asked(3, Message("user", "Who feeds puffins?")), context_length=64)
    assert grounded.last_mode == "passages"

    assert grounded.forget(3, [str(tmp_path / "other.txt")]) == 1
    assert [Path(r.path).name for r in grounded.files(3)] == ["fact.md"]
    assert grounded.forget(3) == 1 and grounded.sources_for(asked(3, Message("user", "Who?")), 4096) is None


def test_a_killed_worker_leaves_each_file_whole_or_absent_and_the_next_run_completes(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(40):
        (folder / f"note{i:02}.txt").write_text(filler(f"topic{i}", 20), encoding="utf-8")
    database = tmp_path / "documents.sqlite3"
    worker = subprocess.Popen(
        [sys.executable, "-m", "eagle_chat.core.documents.index_worker", "--database", str(database),
         "--collection", "conversation-1", "--embedder", str(EMBEDDER_DIR), str(folder)],
        stdout=subprocess.PIPE, text=True)
    for line in worker.stdout:  # kill it once a few files are in
        if json.loads(line).get("done") == 3:
            worker.kill()
            break
    worker.wait(30)
    store = DocumentStore(database)
    try:
        partial = store.files("conversation-1")
        assert 3 <= len(partial) < 40
        assert all(r.chunks > 0 for r in partial)  # none half-written
    finally:
        store.close()
    code, events = index(database, 1, folder)
    outcomes = [e["outcome"] for e in events if e["event"] == "file"]
    assert code == 0 and outcomes.count("unchanged") == len(partial) and outcomes.count("added") == 40 - len(partial)


def test_a_pulled_reranker_orders_the_passages_a_reply_gets_and_the_bundled_one_never_does(tmp_path):
    import os
    import signal
    from dataclasses import replace

    from eagle_chat.core.documents import retrieval
    from eagle_chat.core.documents.indexer import rerank_key
    from eagle_chat.core.models.document_models import DocumentModelRegistry, bundled

    folder = library(tmp_path / "lib")
    database = tmp_path / "documents.sqlite3"
    assert index(database, 7, folder)[0] == 0
    question = asked(7, Message("user", QUESTION))
    plain = grounding.DocumentGrounding(database, EMBEDDER_DIR)
    try:
        assert plain.reranker is None  # nothing pulled: the tiny reranker's random order is never used
        hybrid = [s["text"] for s in plain.sources_for(question, context_length=512)]
        assert not plain.last_reranked and plain.last_mode == "passages"
    finally:
        plain.close()

    DocumentModelRegistry().add(replace(bundled("reranker"), name="pulled-reranker", source="hf:test/reranker"))
    g = grounding.DocumentGrounding(database, EMBEDDER_DIR)
    try:
        assert g.reranker is not None
        g.warm()
        sources = g.sources_for(question, context_length=512)
        assert g.last_reranked and len(sources) == grounding.DEFAULT_K
        # The reranker's order over the search's 20 best, worked out here with the same model in this process.
        hits = g.store.search(QUESTION, g._query_vector(QUESTION), k=20, collection=grounding.collection(7))
        order = retrieval.open_reranker(bundled("reranker")).rerank(QUESTION, [h.text for h in hits])
        ranked = sorted(order, key=lambda o: rerank_key(o, order))[:grounding.DEFAULT_K]
        expected = [hits[i].text for i, _ in ranked]
        assert [s["text"] for s in sources] == expected
        # The tiny reranker's random scores lie within its tie, so the order is the search's (as in `hybrid`);
        # what the reply is given carries the reranker's scores, not the search's.
        assert expected == hybrid and [s["score"] for s in sources] == [round(score, 6) for _, score in ranked]
        assert [s["score"] for s in sources] != [h.score for h in hits[:grounding.DEFAULT_K]]
        # Its child killed: the next question starts a new one and gets the same order.
        pid = g.reranker.pid
        os.kill(pid, signal.SIGKILL)
        assert [s["text"] for s in g.sources_for(question, context_length=512)] == expected
        assert g.reranker.pid != pid and g.last_reranked
    finally:
        g.close()


def test_whole_documents_are_measured_in_the_models_own_tokens(tmp_path):
    from eagle_chat import paths
    from eagle_chat.core.documents.embedder import estimate_tokens
    from eagle_chat.core.documents.model_tokens import ModelTokens

    counter = ModelTokens().counter(paths.tiny_models_dir() / "tiny-qwen3")
    assert counter is not None and ModelTokens().counter(tmp_path) is None  # no tokenizer there: estimate
    text = "灯塔看守人的船名叫海燕九号。" * 40  # 560 characters: 561 estimated, three times that for the tiny model
    (tmp_path / "记录.txt").write_text(text, encoding="utf-8")
    context = 1400  # half of it, 700 tokens, for whole documents: enough by the estimate, not by the model
    assert estimate_tokens(text) <= context // 2 < counter(text)
    database = tmp_path / "documents.sqlite3"
    assert index(database, 4, tmp_path / "记录.txt")[0] == 0
    g = grounding.DocumentGrounding(database, EMBEDDER_DIR)
    try:
        question = asked(4, Message("user", "船叫什么名字？"))
        g.sources_for(question, context_length=context)
        assert g.last_mode == "whole"  # what the estimate alone decides: the model would get more than it holds
        g.sources_for(question, context_length=context, count_tokens=counter)
        assert g.last_mode == "passages"
        g.sources_for(question, context_length=counter(text) * 2 + 10, count_tokens=counter)
        assert g.last_mode == "whole"
    finally:
        g.close()
