"""Embedders and rerankers from the catalog: pulled from the local hub (tests/fake_hub.py, the real
huggingface_hub client) by the same `eagle-chat models pull` as the chat pairs, registered, then used by name by
`eagle-chat docs add --embedder NAME` and `docs search --rerank NAME`, and remembered by the index."""

from __future__ import annotations

import json

import pytest

from eagle_chat import paths
from eagle_chat.commands import docs
from eagle_chat.commands.models import main as models_main
from eagle_chat.core.acquisition import pulls
from eagle_chat.core.models.catalog import load_catalog
from eagle_chat.core.models.document_models import (
    DocumentModelError,
    DocumentModelRegistry,
    resolve,
)
from tests.documents.test_index import QUESTION, library

EMBEDDER_REPO = "test/tiny-embedder-ov"
RERANKER_REPO = "test/tiny-reranker-ov"


@pytest.fixture
def document_catalog(fake_hub, eagle_home):
    """User catalog entries for the tiny embedder and reranker, served by the hub."""
    embedder = fake_hub.add_repo(EMBEDDER_REPO, paths.tiny_models_dir() / "tiny-embedder")
    reranker = fake_hub.add_repo(RERANKER_REPO, paths.tiny_models_dir() / "tiny-reranker")
    entries = [
        {"name": "tiny-emb", "kind": "embedding", "title": "Tiny embedder (test)", "pooling": "mean",
         "max_length": 128, "model": {"hf": EMBEDDER_REPO, "bytes": sum(f.size for f in embedder.files.values())},
         "evidence": "served by tests/fake_hub.py from tests/models"},
        {"name": "tiny-rr", "kind": "reranker", "title": "Tiny reranker (test)",
         "model": {"hf": RERANKER_REPO, "bytes": sum(f.size for f in reranker.files.values())}},
    ]
    paths.user_catalog_file().write_text(json.dumps({"version": 1, "pairs": entries}), encoding="utf-8")
    return load_catalog()


def docs_run(capsys, *argv):
    code = docs.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_pull_registers_an_embedder_and_a_reranker_that_docs_then_use_by_name(document_catalog, fake_hub,
                                                                              tmp_path, capsys):
    assert models_main(["pull", "tiny-emb", "--endpoint", fake_hub.url]) == 0
    out = capsys.readouterr().out
    assert "tiny-emb is ready" in out and "--embedder tiny-emb" in out
    assert models_main(["pull", "tiny-rr", "--endpoint", fake_hub.url]) == 0
    capsys.readouterr()
    registry = DocumentModelRegistry()
    emb, rr = registry.get("tiny-emb", "embedding"), registry.get("tiny-rr", "reranker")
    assert emb.path == paths.models_dir() / "tiny-emb" and (emb.path / "openvino_model.xml").is_file()
    assert (emb.source, emb.max_length, emb.owned) == (f"hf:{EMBEDDER_REPO}", 128, True)
    assert rr.path == paths.models_dir() / "tiny-rr"
    assert [r.path for r in fake_hub.requests if r.method == "GET" and "openvino_model.bin" in r.path]
    # Not an unfinished download, and listed as installed.
    assert pulls.leftovers() == {}
    assert models_main(["list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {m["name"] for m in listed["document_models"]["installed"]} == {"tiny-emb", "tiny-rr"}
    assert all(e["name"] not in ("tiny-emb", "tiny-rr") for e in listed["available"])
    assert models_main(["list"]) == 0
    text = capsys.readouterr().out.split("Document models")[1]
    assert f"tiny-emb               embedding, installed in {emb.path}" in text
    assert "qwen3-embedding-0.6b   embedding: Qwen3 Embedding 0.6B (int8), about" in text and "(unverified)" in text
    # Pulled twice: refused, as a pair would be.
    assert models_main(["pull", "tiny-emb", "--endpoint", fake_hub.url]) == 2
    assert "already installed" in capsys.readouterr().err

    folder = library(tmp_path / "lib", "pdf")
    code, out, err = docs_run(capsys, "add", str(folder), "--embedder", "tiny-emb")
    assert code == 0, err
    # The index remembers the embedder: search without --embedder embeds the query with the same one.
    code, out, err = docs_run(capsys, "search", QUESTION, "--k", "2", "--json", "--rerank", "tiny-rr")
    assert code == 0, err
    hits = json.loads(out)
    assert hits[0]["file"] == str(folder / "report.pdf") and hits[0]["page"] == 2
    assert all(h["rerank_score"] is not None and h["score"] > 0 for h in hits)
    from eagle_chat.core.documents.store import DocumentStore

    store = DocumentStore(paths.documents_database_file())
    try:
        assert store.meta("embedder") == "tiny-emb:64"  # the stamp names the pulled model, not the bundled one
        assert json.loads(store.meta("embedder_model"))["name"] == "tiny-emb"
        assert json.loads(store.meta("reranker_model"))["name"] == "tiny-rr"
    finally:
        store.close()
    # --rerank alone: the remembered reranker.
    code, out, _ = docs_run(capsys, "search", QUESTION, "--k", "1", "--rerank")
    assert code == 0 and ", rerank 0." in out

    assert models_main(["remove", "tiny-emb"]) == 0
    assert not (paths.models_dir() / "tiny-emb").exists() and registry.get("tiny-emb") is None
    code, _, err = docs_run(capsys, "add", str(folder), "--embedder", "tiny-emb")
    assert code == 1 and "not downloaded yet: `eagle-chat models pull tiny-emb`" in err


def test_a_download_that_does_not_load_is_not_registered(document_catalog, fake_hub, capsys):
    fake_hub.add_repo(EMBEDDER_REPO, paths.tiny_models_dir() / "tiny-embedder", exclude=("openvino_model.xml",))
    assert models_main(["pull", "tiny-emb", "--endpoint", fake_hub.url]) == 1
    err = capsys.readouterr().err
    assert "The test run of the downloaded model" in err and "not registered" in err
    assert DocumentModelRegistry().get("tiny-emb") is None


def test_names_and_folders_resolve_and_unknown_ones_say_what_is_known(document_catalog, tmp_path):
    assert resolve(None, "embedding").name == "tiny-embedder"
    folder = resolve(str(paths.tiny_models_dir() / "tiny-reranker"), "reranker")
    assert folder.source == "bundled" and folder.kind == "reranker"
    with pytest.raises(DocumentModelError, match="tiny-rr is a model of kind reranker; a model of kind embedding is needed"):
        resolve("tiny-rr", "embedding")
    with pytest.raises(DocumentModelError, match="no model of kind embedding or folder called nope. Known: "
                                                 "qwen3-embedding-0.6b, bge-base-en-v1.5, tiny-emb."):
        resolve("nope", "embedding")
    with pytest.raises(DocumentModelError, match="`eagle-chat models pull qwen3-embedding-0.6b` gets it"):
        resolve("qwen3-embedding-0.6b", "embedding")


def test_an_embedder_pulled_after_files_were_indexed_by_their_words_adds_its_vectors_on_the_next_run(
        document_catalog, fake_hub, tmp_path, capsys, monkeypatch):
    import numpy as np

    from eagle_chat.core.documents import retrieval
    from eagle_chat.core.documents.store import KEYWORD_ONLY_STAMP, DocumentStore

    monkeypatch.delenv("EAGLE_CHAT_EMBEDDER")  # a new user: no embedder yet
    folder = library(tmp_path / "lib")
    code, _, err = docs_run(capsys, "add", str(folder))
    assert code == 0 and "by their words only" in err
    store = DocumentStore(paths.documents_database_file())
    try:
        chunks = store.chunk_count()
        assert store.keyword_only() and store.meta("embedder") == KEYWORD_ONLY_STAMP and chunks
    finally:
        store.close()
    assert models_main(["pull", "tiny-emb", "--endpoint", fake_hub.url]) == 0
    capsys.readouterr()
    # Pulled but not yet run over the files: searching still works, by their words.
    code, out, _ = docs_run(capsys, "search", QUESTION)
    assert code == 0 and "puffins" in out
    # The next run over the same files (nothing changed in them) gives every chunk the pulled embedder's vectors.
    code, out, err = docs_run(capsys, "add", str(folder))
    assert code == 0 and f"Search by meaning is on: the {chunks} chunks indexed by their words alone now have the " \
                         "vectors of tiny-emb." in err
    assert "0 added" in out and "by their words only" not in err
    store = DocumentStore(paths.documents_database_file())
    try:
        model = retrieval.embedder_model(store)
        assert model is not None and model.name == "tiny-emb" and not store.keyword_only()
        embedder = retrieval.open_embedder(model)
        assert store.meta("embedder") == f"{embedder.name}:{embedder.dimensions}"
        rows = store._db.execute("SELECT text, vector FROM chunks ORDER BY id").fetchall()
        stored = np.stack([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
        assert stored.shape == (chunks, embedder.dimensions)
        assert np.allclose(stored, embedder.embed_documents([text for text, _ in rows]), atol=1e-4)
    finally:
        store.close()
    code, out, _ = docs_run(capsys, "search", QUESTION)
    assert code == 0 and "puffins" in out
