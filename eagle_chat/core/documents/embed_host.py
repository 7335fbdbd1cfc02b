"""The embedder in a child process of its own, for the server: OpenVINO stays out of the serving process's
address space (as the LLM does, see ``core.hosting``), and a crash in the plugin ends the child, not the
server — the next request starts a new one.

The parent sends ``("embed", [texts])`` (or ``("query", [text])``: a question, embedded as the model embeds
queries) on a pipe and reads ``("ok", float32 bytes, rows, tokens)`` or
``("error", template, params)``; one request at a time (a lock), which is also what one CPU device does best.
The child ends when the pipe closes, so a parent that dies takes it along.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from multiprocessing.process import BaseProcess
from pathlib import Path

import numpy as np

from eagle_chat.core.documents.embedder import EmbedderError

# multiprocessing.Pipe()'s ends: a PipeConnection on Windows (named pipes), a Connection elsewhere
if sys.platform == "win32":
    from multiprocessing.connection import PipeConnection as _Pipe
else:
    from multiprocessing.connection import Connection as _Pipe

START_TIMEOUT_S = 120.0


def _serve(conn, model_dir: str, device: str, kind: str, answer) -> None:
    """A document model's child: load the ``kind`` ("embedding" or "reranker") model in ``model_dir``, say
    ``("ready", name, dimensions)``, then answer each request with ``answer(model, request)`` until the pipe
    closes; a user error becomes ``("error", template, params)``."""
    import eagle_chat  # noqa: F401 - the privacy switches (telemetry off) before OpenVINO loads
    from eagle_chat.core.console_signals import ignore_console_interrupts

    ignore_console_interrupts()  # a console's Ctrl+C is for serve, which then closes this child
    from eagle_chat.core.documents import retrieval
    from eagle_chat.core.errors import UserError
    from eagle_chat.core.models.document_models import DocumentModel, DocumentModelRegistry

    try:
        # A pulled model runs with what it was registered with (Qwen3-Embedding: last-token pooling and its
        # query instruction); any other folder with the defaults (mean pooling).
        model = DocumentModelRegistry().find_dir(model_dir, kind) or DocumentModel(
            name=Path(model_dir).name, kind=kind, model_dir=model_dir)
        opened = retrieval.open_embedder(model, device) if kind == "embedding" else retrieval.open_reranker(model, device)
    except UserError as error:
        conn.send(("error", error.template, error.params))
        return
    conn.send(("ready", opened.name, getattr(opened, "dimensions", 0)))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        try:
            conn.send(answer(opened, message))
        except UserError as error:
            conn.send(("error", error.template, error.params))


def _embed(embedder, message: tuple) -> tuple:
    """``("embed", [texts])`` or ``("query", [text])`` → ``("ok", float32 bytes, rows, tokens)``."""
    kind, texts = message
    try:
        vectors = embedder.embed_query(texts[0])[None, :] if kind == "query" else embedder.embed_documents(texts)
        tokens = sum(embedder.count_tokens(texts))
    except Exception as error:  # noqa: BLE001 - the parent turns it into one sentence
        raise EmbedderError("The embedding model failed: {reason}",
                            reason=(str(error).strip().splitlines() or [type(error).__name__])[0]) from None
    return "ok", np.ascontiguousarray(vectors, dtype=np.float32).tobytes(), len(texts), tokens


def _rerank(reranker, message: tuple) -> tuple:
    """``("rerank", [query, texts])`` → ``("ok", [(index, score), …])``, best first."""
    _, (query, texts) = message
    return "ok", reranker.rerank(query, texts)


def _child(conn, model_dir: str, device: str) -> None:
    _serve(conn, model_dir, device, "embedding", _embed)


def _rerank_child(conn, model_dir: str, device: str) -> None:
    """In a process of its own above all for the reranker: batched calls abort the process (see ``reranker.py``)."""
    _serve(conn, model_dir, device, "reranker", _rerank)


class EmbeddingHost:
    TARGET = staticmethod(_child)  # what the child process runs
    WHAT = "embedding"  # in the sentences a failure shows

    def __init__(self, model_dir: Path, device: str = "CPU"):
        self.model_dir = Path(model_dir)
        self.device = device
        self.id = self.model_dir.name
        self.dimensions = 0
        self._lock = threading.Lock()
        self._process: BaseProcess | None = None
        self._conn: _Pipe | None = None

    def start(self) -> None:
        """Start the child and wait until the model is loaded (raises EmbedderError if it cannot be)."""
        with self._lock:
            self._start()

    def _start(self) -> None:
        if not self.model_dir.is_dir():
            raise EmbedderError("There is no embedding model folder {path}.", path=str(self.model_dir))
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(target=self.TARGET, args=(child, str(self.model_dir), self.device), daemon=True,
                                  name=f"eagle-chat-{self.WHAT}")
        process.start()
        child.close()
        if not parent.poll(START_TIMEOUT_S):
            process.kill()
            raise EmbedderError("The embedding model in {path} did not load within {seconds} s.",
                                path=str(self.model_dir), seconds=int(START_TIMEOUT_S))
        try:
            reply = parent.recv()
        except EOFError:
            process.join(5)
            raise EmbedderError("The embedding process for {path} ended while loading.",
                                path=str(self.model_dir)) from None
        if reply[0] != "ready":
            process.join(5)
            raise EmbedderError.restore(reply[1], reply[2])
        _, self.id, self.dimensions = reply
        self._process, self._conn = process, parent

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def embed(self, texts: list[str], *, kind: str = "embed") -> tuple[np.ndarray, int]:
        """Vectors (rows, dimensions) and the tokens they took; restarts a child that died, once."""
        _, data, rows, tokens = self._ask((kind, list(texts)))
        return np.frombuffer(data, dtype=np.float32).reshape(rows, -1), tokens

    def _ask(self, message: tuple) -> tuple:
        """Send ``message`` to the child and return its "ok" reply; restarts a child that died, once."""
        with self._lock:
            for attempt in (1, 2):
                if self._process is None or not self._process.is_alive():
                    self._close()
                    self._start()
                assert self._conn is not None  # _start() connected it or raised
                try:
                    self._conn.send(message)
                    reply = self._conn.recv()
                    break
                except (EOFError, OSError, BrokenPipeError):
                    self._close()
                    if attempt == 2:
                        raise (EmbedderError("The embedding process ended unexpectedly.") if self.WHAT == "embedding"
                               else EmbedderError("The reranker process ended unexpectedly.")) from None
            if reply[0] != "ok":
                raise EmbedderError.restore(reply[1], reply[2])
            return reply

    def embed_query(self, text: str) -> np.ndarray:
        """A question's vector, as the model embeds queries (some models prefix an instruction)."""
        return self.embed([text], kind="query")[0][0]

    @property
    def ready(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def close(self) -> None:
        with self._lock:
            self._close()

    def _close(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            try:
                conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            conn.close()
        if process is not None:
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)


class RerankHost(EmbeddingHost):
    """The reranker in a child process of its own (the window's: a batched call aborts the process, and the
    app must outlive it — the next question starts a new child)."""

    TARGET = staticmethod(_rerank_child)
    WHAT = "reranker"

    def rerank(self, query: str, texts: list[str]) -> list[tuple[int, float]]:
        """(index into ``texts``, score) for every text, best first."""
        return [(int(i), float(score)) for i, score in self._ask(("rerank", [query, list(texts)]))[1]]
