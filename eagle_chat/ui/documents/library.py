"""DocumentLibrary: the library's folders indexed in the background (its own index run, apart from a
conversation's attachments), the Library dialog, and whether a conversation uses the library."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from eagle_chat.core import grounding
from eagle_chat.core.documents.indexer import under
from eagle_chat.ui.documents.index_runner import IndexRunner
from eagle_chat.ui.documents.library_dialog import LibraryDialog


class DocumentLibrary(QObject):
    sig_changed = Signal()
    """The library's files changed (a run ended, a folder went): the conversation's row shows it."""

    def __init__(self, documents):
        super().__init__(documents)
        self.documents = documents  # ConversationDocuments: the index, the embedder, notices
        self.runner = IndexRunner(self)
        self.dialog: LibraryDialog | None = None
        self._waiting: list[Path] = []
        self.runner.sig_started.connect(lambda files: self._say(self.tr("Looking at {n} files…").format(n=files)))
        self.runner.sig_file.connect(self._file_done)
        self.runner.sig_finished.connect(self._finished)
        self._total = 0

    # --- the dialog ---------------------------------------------------------------------------------------
    def open_dialog(self) -> LibraryDialog | None:
        if self.documents.open_index() is None:
            return None
        if self.dialog is None:
            self.dialog = LibraryDialog(self.documents.window)
            self.dialog.sig_add.connect(self.add_folder)
            self.dialog.sig_update.connect(self.update_all)
            self.dialog.sig_remove.connect(self.remove_folder)
            self.dialog.sig_stop.connect(self.stop)
        self._refresh()
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    # --- acting ---------------------------------------------------------------------------------------------
    def add_folder(self, folder: str) -> None:
        index = self.documents.open_index()
        if index is None:
            return
        index.set_library_folders([*index.library_folders(), folder])
        self._run([Path(folder)])

    def update_all(self) -> None:
        index = self.documents.open_index()
        if index is not None:
            self._run([Path(f) for f in index.library_folders()])

    def remove_folder(self, folder: str) -> None:
        index = self.documents.open_index()
        if index is not None:
            index.remove_library_folder(folder)
            self._refresh()
            self.sig_changed.emit()

    def stop(self) -> None:
        self._waiting.clear()
        self.runner.stop()

    def close(self) -> None:
        self._waiting.clear()
        self.runner.wait()
        if self.dialog is not None:
            self.dialog.close()

    # --- internals ----------------------------------------------------------------------------------------
    def _run(self, folders: list[Path]) -> None:
        if self.runner.running:
            self._waiting += folders
            return
        index = self.documents.open_index()
        if index is None or not folders:
            return
        self._say(self.tr("Starting to index…"), running=True)
        self.runner.start(index.store.path, grounding.LIBRARY, index.embedder_dir, self.documents.device, folders)

    def _file_done(self, path: str, outcome: str, done: int, message: str) -> None:
        self._say(self.tr("Indexing {done} — {name}").format(done=done, name=os.path.basename(path)), running=True)

    def _finished(self, complete: bool, sentence: str) -> None:
        index = self.documents.grounding
        if index is not None and index.adopt_embedder():  # the run gave the index a pulled embedder's vectors
            index.warm()
        self._say(sentence or self.tr("The library is up to date."))
        self._refresh()
        self.sig_changed.emit()
        if self._waiting:
            folders, self._waiting = self._waiting, []
            self._run(folders)

    def _say(self, text: str, *, running: bool | None = None) -> None:
        if self.dialog is not None:
            self.dialog.show_progress(text, running=self.runner.running if running is None else running)

    def _refresh(self) -> None:
        index = self.documents.grounding
        if self.dialog is None or index is None:
            return
        rows = index.store.files(grounding.LIBRARY)
        counts = {f: sum(1 for r in rows if under(r.path, f)) for f in index.library_folders()}
        self.dialog.show_folders(sorted(counts.items()))
