"""The row above the message box that shows a conversation's documents: Attach files…, one chip per attached
file (click to detach), and while files are indexed "Indexing 2 of 5 — report.pdf" with Stop.

Only words and widgets: :class:`~eagle_chat.ui.documents.conversation_documents.ConversationDocuments` says
what to show and acts on the signals.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from eagle_chat.ui.widgets import theme
from eagle_chat.ui.widgets.flow_layout import FlowLayout


class AttachBar(QWidget):
    sig_attach = Signal()
    """Attach files… was clicked."""
    sig_detach = Signal(str)
    """A file's chip was clicked: detach that path."""
    sig_stop = Signal()
    """Stop the indexing under way."""
    sig_use_library = Signal(bool)
    """The Library box was ticked (True) or cleared."""
    sig_open_library = Signal()
    """Library… was clicked."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("attachBar")
        self.attach_button = QPushButton(self.tr("Attach files…"))
        self.attach_button.setObjectName("attachButton")
        self.attach_button.setToolTip(self.tr(
            "Add documents to this conversation (text, Markdown, code, HTML, PDF, DOCX): replies answer from them "
            "and cite them. You can also drop files on the window or paste their paths."))
        self.attach_button.clicked.connect(self.sig_attach)
        self.library_check = QCheckBox(self.tr("Library"))
        self.library_check.setObjectName("useLibraryCheck")
        self.library_check.clicked.connect(self.sig_use_library)
        self.library_button = QPushButton(self.tr("Library…"))
        self.library_button.setObjectName("libraryButton")
        self.library_button.setToolTip(self.tr("Folders indexed for every conversation: add, update, remove"))
        self.library_button.clicked.connect(self.sig_open_library)
        self.progress = QLabel()
        self.progress.setObjectName("indexProgress")
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setObjectName("stopIndexingButton")
        self.stop_button.setAccessibleName(self.tr("Stop indexing"))
        self.stop_button.clicked.connect(self.sig_stop)
        self.chips_box = QWidget()
        self.chips = FlowLayout(self.chips_box, spacing=4)
        self.chips.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget, stretch in ((self.attach_button, 0), (self.library_button, 0), (self.library_check, 0),
                                (self.chips_box, 3), (self.progress, 2), (self.stop_button, 0)):
            row.addWidget(widget, stretch)
        row.addStretch(1)  # with no chips and no progress, the buttons keep their size at the left
        self.show_progress("")
        self.show_library(0, False)

    def show_files(self, files: list[tuple[str, int]]) -> None:
        """One chip per attached file: (path, passages)."""
        while self.chips.count():
            item = self.chips.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        for path, passages in files:
            chip = QToolButton()
            chip.setObjectName("documentChip")
            chip.setProperty("path", path)
            chip.setText(f"{os.path.basename(path)} ×")
            chip.setAutoRaise(True)
            chip.setToolTip(self.tr("{path}\n{n} passages indexed — click to remove it from this conversation")
                            .format(path=path, n=passages))
            chip.setAccessibleName(self.tr("Remove {name}").format(name=os.path.basename(path)))
            chip.clicked.connect(lambda _=False, p=path: self.sig_detach.emit(p))
            self.chips.addWidget(chip)
        self.chips_box.setVisible(bool(files))

    def show_library(self, files: int, using: bool) -> None:
        """The Library box, when the library has ``files``; ticked when the conversation ``using`` it."""
        self.library_check.setVisible(files > 0)
        self.library_check.setChecked(using)
        self.library_check.setToolTip(self.tr("Replies in this conversation also answer from the documents "
                                              "library (%n file(s))", "", files))

    def show_progress(self, text: str, *, running: bool = False, error: bool = False) -> None:
        """The indexing line ("" hides it); ``running`` shows Stop."""
        self.progress.setText(text)
        self.progress.setStyleSheet(f"color: {theme.colours().danger if error else theme.colours().muted};")
        self.progress.setVisible(bool(text))
        self.stop_button.setVisible(running)

    def chip_paths(self) -> list[str]:
        """The paths of the chips shown, in order."""
        return [self.chips.itemAt(i).widget().property("path") for i in range(self.chips.count())]
