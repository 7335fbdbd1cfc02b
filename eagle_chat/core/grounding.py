"""Answering from a conversation's documents: which passages a reply is given, numbered for citations.

The files attached to a conversation are indexed into the documents database under the collection
:func:`collection` names (``core.documents.index_worker`` does it in a child process). When the user asks,
:meth:`DocumentGrounding.sources_for` picks what the reply is given:

- the **whole documents**, when their text fits in :data:`WHOLE_SHARE` of the model's context (as LM Studio
  does): every section (a PDF page, or the whole file) becomes a numbered passage; or
- the **best passages** for the question: hybrid search (vectors + BM25) over the stored chunks, ``k`` of them.

Numbers run through the conversation: a passage an earlier reply on the path was given keeps its number and
is marked ``repeat`` (see :mod:`eagle_chat.core.storage.sources`), so whole documents go to the model once.
A conversation can also search the **library** (the collection :data:`LIBRARY`: folders the user keeps
indexed for every conversation, listed in the index's meta ``library_folders``); with it on, the reply gets
the best passages from both the conversation's files and the library. The question's vector comes from the embedding model in a child process of its own
(:class:`~eagle_chat.core.documents.embed_host.EmbeddingHost`), started ahead by :meth:`warm`.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from eagle_chat.core.documents import retrieval
from eagle_chat.core.documents.embed_host import EmbeddingHost, RerankHost
from eagle_chat.core.documents.embedder import estimate_tokens
from eagle_chat.core.documents.indexer import RERANK_CANDIDATES, in_rerank_order, under
from eagle_chat.core.documents.readers import DocumentError, read_document
from eagle_chat.core.documents.store import DocumentStore, FileRow
from eagle_chat.core.errors import UserError
from eagle_chat.core.storage.conversation import Conversation

WHOLE_SHARE = 0.5  # of the context, the most whole documents may take (the rest: history, question, answer)
DEFAULT_CONTEXT = 4096  # tokens, when the model does not say
DEFAULT_K = 5
LIBRARY = "library"
LIBRARY_FOLDERS_KEY = "library_folders"
log = logging.getLogger(__name__)


def collection(conversation_id: int) -> str:
    """The documents collection of a conversation's attached files."""
    return f"conversation-{conversation_id}"


class DocumentGrounding:
    def __init__(self, database: Path, embedder_dir: Path | None = None, device: str = "CPU", *, k: int = DEFAULT_K):
        """``embedder_dir``: None for the one the index was built with (``retrieval.embedder_model``); when
        there is none, the passages are found by their words alone (``keyword_only``)."""
        self.store = DocumentStore(database)
        model = None if embedder_dir else retrieval.embedder_model(self.store)
        self.embedder_dir = Path(embedder_dir) if embedder_dir else (model.path if model is not None else None)
        self.embedder = EmbeddingHost(self.embedder_dir, device) if self.embedder_dir is not None else None
        self.device = device
        pulled = retrieval.pulled_reranker(self.store)  # never the bundled tiny one: its weights are random
        self.reranker = RerankHost(pulled.path, device) if pulled is not None else None
        self.last_reranked = False  # whether the last passages were put in the reranker's order
        self.k = k
        self.last_mode: str | None = None  # "whole" or "passages": what the last sources_for gave
        self._warming: threading.Thread | None = None
        self._warm_error: UserError | None = None

    # --- attached files ---------------------------------------------------------------------------------
    def files(self, conversation_id: int | None) -> list[FileRow]:
        return self.store.files(collection(conversation_id)) if conversation_id is not None else []

    def forget(self, conversation_id: int, paths: list[str] | None = None) -> int:
        """Detach ``paths`` (all when None) from the conversation; their chunks leave the index."""
        rows = [r for r in self.files(conversation_id) if paths is None or r.path in paths]
        return self.store.remove_files([r.id for r in rows])

    # --- the library ----------------------------------------------------------------------------------------
    def library_folders(self) -> list[str]:
        try:
            folders = json.loads(self.store.meta(LIBRARY_FOLDERS_KEY) or "[]")
        except ValueError:
            return []
        return [f for f in folders if isinstance(f, str)]

    def set_library_folders(self, folders: list[str]) -> None:
        self.store.set_meta(LIBRARY_FOLDERS_KEY, json.dumps(sorted(set(folders))))

    def remove_library_folder(self, folder: str) -> int:
        """Forget ``folder`` and every library file under it; how many files went."""
        self.set_library_folders([f for f in self.library_folders() if f != folder])
        return self.store.remove_files([r.id for r in self.store.files(LIBRARY) if under(r.path, folder)])

    def uses_library(self, conversation_id: int | None) -> bool:
        return conversation_id is not None and self.store.meta(f"library:{collection(conversation_id)}") == "on"

    def use_library(self, conversation_id: int, on: bool) -> None:
        self.store.set_meta(f"library:{collection(conversation_id)}", "on" if on else "off")

    # --- the question's vector --------------------------------------------------------------------------
    def adopt_embedder(self) -> bool:
        """After an indexing run: take the embedder that run gave the index (one pulled while the window was
        open), so questions are searched by meaning from now on, not after a restart. True when it did."""
        if self.embedder is not None or self.store.keyword_only():
            return False
        model = retrieval.embedder_model(self.store)
        if model is None:
            return False
        self.embedder_dir, self.embedder = model.path, EmbeddingHost(model.path, self.device)
        return True

    def warm(self) -> None:
        """Start the embedding model's (and a pulled reranker's) process in the background, so the first
        question does not wait."""
        cold = [h for h in (self.embedder, self.reranker) if h is not None and not h.ready]
        if not cold or (self._warming is not None and self._warming.is_alive()):
            return
        self._warming = threading.Thread(target=self._start, name="eagle-chat-embedder-start", daemon=True)
        self._warming.start()

    def _start(self) -> None:
        try:
            if self.embedder is not None:
                self.embedder.start()
            self._warm_error = None
        except UserError as error:
            self._warm_error = error
        if self.reranker is not None:
            try:
                self.reranker.start()
            except UserError as error:  # the passages keep the search's order; a question tries it again
                log.warning("the reranker did not start: %s", error.message)

    def _query_vector(self, question: str):
        if self._warming is not None:
            self._warming.join()
            self._warming = None
            if self._warm_error is not None:
                raise self._warm_error
        if self.embedder is None or self.store.keyword_only():  # no vectors yet: the next indexing run adds them
            return None
        return self.embedder.embed_query(question)

    # --- what a reply is given --------------------------------------------------------------------------
    def sources_for(self, conversation: Conversation, context_length: int | None,
                    count_tokens: Callable[[str], int] | None = None) -> list[dict] | None:
        """The numbered passages for the reply to the path's last message (the user's question); None when the
        conversation has no documents. Raises UserError when they cannot be searched. ``count_tokens``: the
        model's own count (``model_tokens.ModelTokens``), for whether whole documents fit; else estimated."""
        if conversation.id is None or not conversation.messages or conversation.messages[-1].role != "user":
            return None
        rows = self.files(conversation.id)
        scopes = [collection(conversation.id)] if rows else []
        if self.uses_library(conversation.id) and self.store.file_count(LIBRARY):
            scopes.append(LIBRARY)
        if not scopes:
            return None
        question = conversation.messages[-1].content
        budget = int((context_length or DEFAULT_CONTEXT) * WHOLE_SHARE)
        passages = self._whole(rows, budget, count_tokens) if scopes == [collection(conversation.id)] else None
        self.last_mode = "whole" if passages is not None else "passages"
        self.last_reranked = False
        if passages is None:
            vector = self._query_vector(question)
            wanted = self.k if self.reranker is None else max(4 * self.k, RERANK_CANDIDATES)
            hits = sorted((h for scope in scopes for h in self.store.search(
                question, vector, k=wanted, collection=scope, candidates=max(50, wanted))), key=lambda h: -h.score)
            hits = self._reranked(question, hits[:wanted])[:self.k]
            passages = [(h.path, h.page, h.text, round(h.score if h.rerank_score is None else h.rerank_score, 6))
                        for h in hits]
        return number(passages, earlier(conversation))

    def _reranked(self, question: str, hits: list) -> list:
        """``hits`` in the pulled reranker's order (scores within its tie keep the hybrid order); when there is
        none, or it fails (its child died, a passage it cannot read), the hybrid order, and the log says why."""
        if self.reranker is None or len(hits) < 2:
            return hits
        try:
            order = self.reranker.rerank(question, [h.text for h in hits])
        except UserError as error:
            log.warning("reranking failed, the passages keep the search's order: %s", error.message)
            return hits
        self.last_reranked = True
        return in_rerank_order(hits, order)

    def _whole(self, rows: list[FileRow], budget: int, count_tokens=None) -> list[tuple] | None:
        """Every section of the files, when they fit ``budget`` tokens and can all be read; else None."""
        if sum(r.size for r in rows) > budget * 8:  # far too big to be worth reading
            return None
        passages: list[tuple] = []
        try:
            for row in rows:
                passages += [(row.path, s.page, s.text, None) for s in read_document(Path(row.path)) if s.text.strip()]
        except (DocumentError, OSError):
            return None  # gone or changed: what was indexed is searched instead
        if sum(estimate_tokens(p[2]) for p in passages) > budget * 4:  # no tokenizer counts under a quarter of it
            return None
        count = count_tokens or estimate_tokens
        used = 0
        for passage in passages:
            used += count(passage[2])
            if used > budget:
                return None
        return passages

    @property
    def keyword_only(self) -> bool:
        """No embedding model: passages are found by their words (BM25) alone."""
        return self.embedder is None

    def close(self) -> None:
        if self.embedder is not None:
            self.embedder.close()
        if self.reranker is not None:
            self.reranker.close()
        self.store.close()


def earlier(conversation: Conversation) -> list[dict]:
    """The passages replies before the last message were given, in order."""
    return [s for m in conversation.messages[:-1] for s in (m.sources or [])]


def number(passages: list[tuple], given: list[dict]) -> list[dict]:
    """``passages`` (path, page, text, score) as numbered sources: one given before keeps its number (marked
    ``repeat``), a new one takes the next."""
    known = {(s["path"], s.get("page"), s.get("text")): s["n"] for s in given}
    next_n = max((s["n"] for s in given), default=0) + 1
    sources: list[dict] = []
    for path, page, text, score in passages:
        n = known.get((path, page, text))
        if n is None:
            n = known[(path, page, text)] = next_n
            next_n += 1
            repeat = False
        else:
            repeat = True
        if any(s["n"] == n for s in sources):
            continue
        sources.append({"n": n, "path": path, "page": page, "text": text, "score": score, "repeat": repeat})
    return sources
