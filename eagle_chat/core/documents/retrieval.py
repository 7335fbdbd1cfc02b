"""Which embedder and reranker the documents index uses, and :func:`retrieve`, the one call the window needs.

The embedder an index was built with is remembered in the index itself (its meta table: the folder, and the
pooling, length and query instruction it was run with), so that search, the window and the server embed
queries as the passages were; without one, no vectors at all: keyword search (BM25) alone. A reranker chosen once by
name or folder is remembered the same way; ``--rerank`` alone then means that one, else the first
registered reranker, else the bundled tiny one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.documents.embedder import KeywordOnly
from eagle_chat.core.documents.store import DocumentStore, Hit
from eagle_chat.core.models.catalog import load_catalog
from eagle_chat.core.models.document_models import (
    DocumentModel,
    DocumentModelRegistry,
    bundled,
    resolve,
)

EMBEDDER_DIR_KEY = "embedder_dir"  # the folder alone (what older versions wrote and read)
EMBEDDER_MODEL_KEY = "embedder_model"  # the whole DocumentModel, as JSON
RERANKER_MODEL_KEY = "reranker_model"
EMBEDDER_ENV = "EAGLE_CHAT_EMBEDDER"  # the embedder of a new index, when none is named (tests: the tiny one)
SUGGESTED_EMBEDDER = "qwen3-embedding-0.6b"  # multilingual: Chinese and English in one index
KEYWORD_ONLY_ADVICE = ("Searching your documents by their words only: no embedding model is installed. "
                       "`eagle-chat models pull {name}`{size} adds search by meaning.")


def _saved(store: DocumentStore, key: str) -> DocumentModel | None:
    text = store.meta(key)
    if not text:
        return None
    try:
        model = DocumentModel.from_json(json.loads(text))
    except (ValueError, TypeError):
        return None
    return model if model.path.is_dir() else None


def embedder_model(store: DocumentStore, choice: str | os.PathLike | None = None) -> DocumentModel | None:
    """The embedder to use: ``choice`` (a registered name or a folder) if given, else the index's own, else
    a pulled (registered) embedder — the suggested one first — else ``EAGLE_CHAT_EMBEDDER`` (a name or folder:
    the tests name the tiny one), else None: no embedder, keyword search alone. Never the bundled tiny embedder by default: its weights are random, its vectors noise."""
    if choice:
        return resolve(choice, "embedding")
    saved = _saved(store, EMBEDDER_MODEL_KEY)
    if saved is not None:
        return saved
    folder = store.meta(EMBEDDER_DIR_KEY)
    if folder and Path(folder).is_dir():
        return resolve(folder, "embedding")
    pulled = registered_embedder()
    if pulled is not None:
        return pulled  # pulled since a keyword-only index was built: the next indexing run adds its vectors
    if store.keyword_only():
        return None  # a keyword-only index stays one until an embedder is pulled or named
    override = os.environ.get(EMBEDDER_ENV, "").strip()
    return resolve(override, "embedding") if override else None


def registered_embedder() -> DocumentModel | None:
    """The embedding model ``eagle-chat models pull`` registered (the suggested one before any other), if any."""
    pulled = [m for m in DocumentModelRegistry().models("embedding") if m.path.is_dir()]
    return next((m for m in pulled if m.name == SUGGESTED_EMBEDDER), pulled[0] if pulled else None)


def suggested_embedder_size() -> str:
    """The suggested embedder's download, e.g. "0.6 GB" ("" when the catalog does not say)."""
    entry = load_catalog().document_model(SUGGESTED_EMBEDDER, "embedding")
    return f"{entry.model.approx_bytes / 1e9:.1f} GB" if entry is not None and entry.model.approx_bytes else ""


def keyword_only_advice() -> str:
    """The one sentence that says search is by words alone, and how to search by meaning too."""
    size = suggested_embedder_size()
    return KEYWORD_ONLY_ADVICE.format(name=SUGGESTED_EMBEDDER, size=f" ({size})" if size else "")


def remember_embedder(store: DocumentStore, model: DocumentModel | None) -> None:
    if model is None:
        return
    store.set_meta(EMBEDDER_DIR_KEY, os.path.abspath(model.model_dir))
    store.set_meta(EMBEDDER_MODEL_KEY, json.dumps(model.to_json()))


def reranker_model(store: DocumentStore, choice: str | os.PathLike | None = None) -> DocumentModel:
    """The reranker to use: ``choice`` if given, else the one chosen last time, else the first registered one,
    else the bundled tiny reranker."""
    if choice:
        return resolve(choice, "reranker")
    saved = _saved(store, RERANKER_MODEL_KEY)
    if saved is not None:
        return saved
    registered = [m for m in DocumentModelRegistry().models("reranker") if m.path.is_dir()]
    return registered[0] if registered else bundled("reranker")


def pulled_reranker(store: DocumentStore) -> DocumentModel | None:
    """The reranker the window uses: one chosen for this index before, else the first pulled one — never the
    bundled tiny reranker (random weights: its order is noise). None: the passages keep the search's order."""
    saved = _saved(store, RERANKER_MODEL_KEY)
    if saved is not None and saved.source != "bundled":
        return saved
    return next((m for m in DocumentModelRegistry().models("reranker") if m.path.is_dir()), None)


def remember_reranker(store: DocumentStore, model: DocumentModel) -> None:
    store.set_meta(RERANKER_MODEL_KEY, json.dumps(model.to_json()))


def open_embedder(model: DocumentModel | None, device: str = "CPU"):
    from eagle_chat.core.documents.embedder import OpenVinoEmbedder

    if model is None:
        return KeywordOnly()

    return OpenVinoEmbedder(model.path, device, pooling=model.pooling, max_length=model.max_length,
                            query_instruction=model.query_instruction)


def open_reranker(model: DocumentModel, device: str = "CPU"):
    from eagle_chat.core.documents.reranker import OpenVinoReranker

    return OpenVinoReranker(model.path, device, max_length=model.max_length)


def retrieve(query: str, k: int = 5, collection: str | None = None, reranker=None, *,
             store: DocumentStore | None = None, embedder=None, device: str = "CPU") -> list[Hit]:
    """The ``k`` passages that best answer ``query`` (in ``collection``, or all), best first.

    ``reranker``: None (hybrid order), a reranker object, or a name or folder (``""``: the default one, see
    :func:`reranker_model`). ``store`` and ``embedder`` default to the documents index and the embedder it was
    built with; pass them to reuse loaded ones (loading a model takes a while). Raises a UserError
    (DocumentIndexError, EmbedderError, DocumentModelError) with a sentence for the user.
    """
    from eagle_chat.core.documents.indexer import Indexer

    own_store = store is None
    store = store or DocumentStore(paths.documents_database_file())
    try:
        if embedder is None:
            embedder = open_embedder(embedder_model(store), device)
        if isinstance(reranker, (str, os.PathLike)):
            reranker = open_reranker(reranker_model(store, reranker), device)
        return Indexer(store, embedder).search(query, k=k, collection=collection, reranker=reranker)
    finally:
        if own_store:
            store.close()
