"""The documents library: folders kept indexed for every conversation (the ``library`` collection). Add a
folder, update them all (only changed files are read again, files gone are forgotten), remove one; indexing
runs in the background with progress and Stop, and goes on when the dialog is closed. A conversation uses
the library when its "Library" box above the message box is ticked."""

from __future__ import annotations

from eagle_chat import paths

import os

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class LibraryDialog(QDialog):
    sig_add = Signal(str)
    """Index this folder into the library."""
    sig_update = Signal()
    """Index every library folder again (only what changed)."""
    sig_remove = Signal(str)
    """Forget this folder and its files."""
    sig_stop = Signal()
    """Stop the library's indexing."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("libraryDialog")
        self.setWindowTitle(self.tr("Documents library"))
        self.resize(620, 360)
        intro = QLabel(self.tr("Folders indexed for every conversation. Tick \u201cLibrary\u201d above the message box "
                               "to let a conversation's replies answer from them."))
        intro.setWordWrap(True)
        self.folders = QListWidget()
        self.folders.setObjectName("libraryFolders")
        self.folders.setAccessibleName(self.tr("Library folders"))
        self.add_button = QPushButton(self.tr("Add folder…"))
        self.add_button.setObjectName("addLibraryFolderButton")
        self.update_button = QPushButton(self.tr("Update"))
        self.update_button.setObjectName("updateLibraryButton")
        self.update_button.setToolTip(self.tr("Read changed files again and forget files that are gone"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.setObjectName("removeLibraryFolderButton")
        self.progress = QLabel()
        self.progress.setObjectName("libraryProgress")
        self.progress.setWordWrap(True)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setObjectName("stopLibraryButton")
        self.stop_button.setAccessibleName(self.tr("Stop indexing the library"))
        self.add_button.clicked.connect(self._choose_folder)
        self.update_button.clicked.connect(self.sig_update)
        self.remove_button.clicked.connect(self._remove_current)
        self.stop_button.clicked.connect(self.sig_stop)
        self.folders.currentRowChanged.connect(lambda _row: self._enable())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        row = QHBoxLayout()
        for widget in (self.add_button, self.update_button, self.remove_button):
            row.addWidget(widget)
        row.addStretch(1)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.stop_button)
        layout = QVBoxLayout(self)
        for item in (intro, self.folders, row, progress_row, buttons):
            (layout.addLayout if isinstance(item, QHBoxLayout) else layout.addWidget)(item)
        self._running = False
        self.show_progress("", running=False)

    def show_folders(self, folders: list[tuple[str, int]]) -> None:
        """The library's folders with how many files of each are indexed."""
        current = self.current_folder()
        self.folders.clear()
        for folder, files in folders:
            item = QListWidgetItem(self.tr("{folder} — {n} files").format(folder=folder, n=files))
            item.setData(Qt.ItemDataRole.UserRole, folder)
            self.folders.addItem(item)
            if folder == current:
                self.folders.setCurrentItem(item)
        self._enable()

    def show_progress(self, text: str, *, running: bool) -> None:
        self.progress.setText(text)
        self.stop_button.setVisible(running)
        self._running = running
        self._enable()

    def current_folder(self) -> str | None:
        item = self.folders.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def _enable(self) -> None:
        self.update_button.setEnabled(self.folders.count() > 0 and not self._running)
        self.remove_button.setEnabled(self.current_folder() is not None and not self._running)

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder to the library"), paths.start_folder())
        if folder:
            self.sig_add.emit(os.path.abspath(folder))

    def _remove_current(self) -> None:
        folder = self.current_folder()
        if folder is not None:
            self.sig_remove.emit(folder)
