"""A conversation's documents in the window: attach (the button, files dropped on the window, file paths
pasted into the message box), index them in the background with progress and Stop, and give each reply the
passages it answers from (:mod:`eagle_chat.core.grounding`), which the chat shows as citations.

The documents index is the one ``eagle-chat docs`` uses (``paths.documents_database_file()``); a
conversation's files are the collection ``conversation-<id>``, forgotten when the conversation is deleted.
It is opened only once the user attaches something (or it exists already): a user who never does gets no
file and no process.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QFileDialog

from eagle_chat import paths
from eagle_chat.core import grounding
from eagle_chat.core.documents import retrieval
from eagle_chat.core.documents.model_tokens import ModelTokens
from eagle_chat.core.documents.readers import is_supported
from eagle_chat.core.errors import UserError
from eagle_chat.core.storage.conversation import Conversation
from eagle_chat.ui.words.core_text import user_error_text
from eagle_chat.ui.documents.attach_bar import AttachBar
from eagle_chat.ui.documents.embedder_pull import EmbedderPull
from eagle_chat.ui.documents.index_runner import IndexRunner
from eagle_chat.ui.documents.library import DocumentLibrary


class ConversationDocuments(QObject):
    sig_grounding_changed = Signal(bool)  # whether the open conversation's next reply is given passages

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.grounding: grounding.DocumentGrounding | None = None
        self.device = "CPU"  # where the embedding model runs (small: the LLM keeps the GPU / NPU to itself)
        self.bar = AttachBar()
        window.composer.layout().insertWidget(0, self.bar)
        self.runner = IndexRunner(self)
        self.library = DocumentLibrary(self)
        self.embedder_pull = EmbedderPull(self)  # the keyword-only notice's "Get qwen3-embedding-0.6b (0.6 GB)"
        self.embedder_pull.sig_ready.connect(self._embedder_ready)
        self._queue: list[tuple[int, list[Path]]] = []  # attach requests waiting for the run under way
        self._run: tuple[int, int] | None = None  # (conversation id, files) of the run under way
        self._failures: list[tuple[str, str]] = []  # (path, reason) of the run under way
        self._said_keyword_only = False
        self.grounded = False  # the open conversation has files, or searches a library that has some
        self.model_tokens = ModelTokens()  # the loaded model's tokenizer, for whether whole documents fit
        self.controller.branches.grounding = self.sources_for
        self.bar.sig_attach.connect(self.choose_files)
        self.bar.sig_detach.connect(self.detach)
        self.bar.sig_stop.connect(self.stop)
        self.bar.sig_use_library.connect(self.use_library)
        self.bar.sig_open_library.connect(self.library.open_dialog)
        self.library.sig_changed.connect(lambda: self._show(self.controller.conversation))
        self.runner.sig_started.connect(self._started)
        self.runner.sig_file.connect(self._file_done)
        self.runner.sig_finished.connect(self._finished)
        self.controller.sig_conversation_opened.connect(self._opened)
        self.controller.sig_conversations_changed.connect(self._forget_deleted)
        window.closer.sig_closed.connect(self.close)
        window.setAcceptDrops(True)
        for widget in (window, window.chat.viewport(), window.prompt.viewport(), window.prompt):
            widget.installEventFilter(self)
        self._show(self.controller.conversation)

    # --- attaching --------------------------------------------------------------------------------------
    def choose_files(self) -> None:
        chosen, _ = QFileDialog.getOpenFileNames(
            self.window, self.tr("Attach documents"), paths.start_folder(),
            self.tr("Documents (*.txt *.md *.pdf *.docx *.html *.htm *.py *.json *.csv);;All files (*)"))
        if chosen:
            self.attach([Path(p) for p in chosen])

    def attach(self, files: list[Path]) -> bool:
        """Index ``files`` (files or folders) into the open conversation (one is started if none is open)."""
        files = [Path(os.path.abspath(p)) for p in files]
        if not files or self.open_index() is None:
            return False
        conversation = self.controller.conversation or self.controller.conversations.new_conversation()
        self._queue.append((conversation.id, files))
        self._next_run()
        return True

    def detach(self, path: str) -> None:
        conversation = self.controller.conversation
        if self.grounding is not None and conversation is not None and conversation.id is not None:
            self.grounding.forget(conversation.id, [path])
            self._show(conversation)

    def use_library(self, on: bool) -> None:
        """Let the open conversation's replies answer from the library too (or not)."""
        if self.open_index() is None:
            return
        conversation = self.controller.conversation or self.controller.conversations.new_conversation()
        self.grounding.use_library(conversation.id, on)

    def stop(self) -> None:
        self._queue.clear()
        self.runner.stop()
        if self.embedder_pull.running:  # the bar's Stop during the embedder's download: it resumes next time
            self.embedder_pull.cancel()

    def _embedder_ready(self, _name: str) -> None:
        """The embedder was pulled: one indexing run gives every chunk its vectors (the open conversation's
        files, else the library's, else any indexed file — nothing in them changed), then questions use it."""
        index = self.open_index()
        if index is None:
            return
        if not index.store.keyword_only():  # nothing indexed yet: new files and questions use it from now on
            if index.adopt_embedder():
                index.warm()
            return
        conversation = self.controller.conversation
        rows = index.files(conversation.id) if conversation is not None and conversation.id is not None else []
        if rows and conversation is not None:
            self._queue.append((conversation.id, [Path(r.path) for r in rows]))
            self._next_run()
        elif index.library_folders():
            self.library.update_all()
        else:
            row = next((r for r in index.store.files() if r.collection.startswith("conversation-")), None)
            if row is not None:
                self._queue.append((int(row.collection.removeprefix("conversation-")), [Path(row.path)]))
                self._next_run()

    def _next_run(self) -> None:
        if self.runner.running or not self._queue or self.grounding is None:
            return
        if self.grounding.keyword_only and not self._said_keyword_only:
            self._said_keyword_only = True  # once a session: the documents still work, by their words
            self.window.show_notice(self.tr("Your documents are searched by their words only: no embedding model "
                                            "is installed. `eagle-chat models pull {name}` ({size}) adds search by "
                                            "meaning.").format(name=retrieval.SUGGESTED_EMBEDDER,
                                                               size=retrieval.suggested_embedder_size()),
                                    action=self.embedder_pull.offer())
        conversation_id, files = self._queue.pop(0)
        self._run, self._failures = (conversation_id, 0), []
        self.bar.show_progress(self.tr("Starting to index…"), running=True)
        self.runner.start(self.grounding.store.path, grounding.collection(conversation_id),
                          self.grounding.embedder_dir, self.device, files)

    def _started(self, files: int) -> None:
        self._run = (self._run[0] if self._run else 0, files)

    def _file_done(self, path: str, outcome: str, done: int, message: str) -> None:
        total = self._run[1] if self._run else done
        self.bar.show_progress(self.tr("Indexing {done} of {total} — {name}").format(
            done=done, total=max(total, done), name=os.path.basename(path)), running=True)
        if outcome == "failed":
            self._failures.append((path, message))

    def _finished(self, complete: bool, sentence: str) -> None:
        failures, self._run = self._failures, None
        if self.grounding is not None and self.grounding.adopt_embedder():
            self.grounding.warm()
        if failures:
            shown = "; ".join(message or os.path.basename(path) for path, message in failures[:3])
            more = len(failures) - 3
            self.window.show_notice(self.tr("{n} file(s) could not be indexed: {reasons}").format(
                n=len(failures), reasons=shown) + (self.tr(" (and {more} more)").format(more=more) if more > 0 else ""),
                error=True)
        self.bar.show_progress(sentence, error=bool(sentence) and not complete)
        self._show(self.controller.conversation)
        self._next_run()

    # --- what a reply is given ----------------------------------------------------------------------------
    def sources_for(self, conversation: Conversation, context_length: int | None) -> list[dict] | None:
        """The passages for the reply about to start (the controller asks); None without documents. A
        failure is said once and the reply goes on without them."""
        if self.grounding is None:
            return None
        loaded = self.controller.loaded  # whole documents are measured in the loaded model's own tokens
        target = getattr(getattr(loaded, "spec", None), "target_dir", None) if loaded is not None else None
        try:
            return self.grounding.sources_for(conversation, context_length, self.model_tokens.counter(target))
        except UserError as error:
            self.window.show_notice(self.tr("Your documents could not be searched, so this reply does not use "
                                            "them: {reason}").format(reason=user_error_text(error)), error=True)
            return None

    # --- internals ----------------------------------------------------------------------------------------
    def open_index(self) -> grounding.DocumentGrounding | None:
        if self.grounding is None:
            try:
                self.grounding = grounding.DocumentGrounding(paths.documents_database_file(), device=self.device)
            except UserError as error:
                self.window.show_notice(user_error_text(error), error=True)
        return self.grounding

    def _opened(self, conversation: Conversation | None) -> None:
        if not self.runner.running:
            self.bar.show_progress("")  # the last run's words were about another conversation
        self._show(conversation)

    def _show(self, conversation: Conversation | None) -> None:
        """The open conversation's files as chips."""
        if self.grounding is None and paths.documents_database_file().exists():
            self.open_index()
        rows = self.grounding.files(conversation.id) if self.grounding is not None and conversation else []
        self.bar.show_files([(r.path, r.chunks) for r in rows])
        library = self.grounding.store.file_count(grounding.LIBRARY) if self.grounding is not None else 0
        using = library > 0 and self.grounding.uses_library(conversation.id if conversation else None)
        self.bar.show_library(library, using)
        grounded = bool(rows or using)
        if grounded != self.grounded:
            self.grounded = grounded
            self.sig_grounding_changed.emit(grounded)
        if grounded:
            self.grounding.warm()  # the first question does not wait for the embedding model to load

    def _forget_deleted(self) -> None:
        if self.grounding is None:
            return
        alive = {grounding.collection(s.id) for s in self.controller.store.list_conversations()}
        for name in self.grounding.store.collections():
            if name.startswith("conversation-") and name not in alive:
                self.grounding.store.remove_files([r.id for r in self.grounding.store.files(name)])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and _local_files(event.mimeData()):
            event.acceptProposedAction()
            return True
        if kind == QEvent.Type.Drop and _local_files(event.mimeData()):
            event.acceptProposedAction()
            self.attach(_local_files(event.mimeData()))
            return True
        if kind == QEvent.Type.KeyPress and watched is self.window.prompt and event.matches(QKeySequence.StandardKey.Paste):
            pasted = _pasted_paths(QGuiApplication.clipboard().text())
            if pasted:  # a path (or a few) to documents: attach them rather than paste the words
                self.attach(pasted)
                return True
        return False

    def close(self) -> None:
        self._queue.clear()
        self.embedder_pull.close()
        self.runner.wait()
        self.library.close()
        if self.grounding is not None:
            self.grounding.close()
            self.grounding = None


def _local_files(mime) -> list[Path]:
    if mime is None or not mime.hasUrls():
        return []
    found = [Path(u.toLocalFile()) for u in mime.urls() if u.isLocalFile()]
    return [p for p in found if p.is_dir() or (p.is_file() and is_supported(p))]


def _pasted_paths(text: str) -> list[Path]:
    """The pasted text as document paths, when every line of it is one (quotes around a path allowed)."""
    lines = [line.strip().strip("'\"") for line in text.strip().splitlines()]
    if not lines or len(lines) > 50:
        return []
    found = [Path(line).expanduser() for line in lines]
    if all(line and (p.is_dir() or (p.is_file() and is_supported(p))) and p.is_absolute() for line, p in zip(lines, found)):
        return found
    return []
