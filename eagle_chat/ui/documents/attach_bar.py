"""The row above the message box that shows a conversation's documents: Attach files…, one chip per attached
file (click to detach), and while files are indexed "Indexing 2 of 5 — report.pdf" with Stop.

Only words and widgets: :class:`~eagle_chat.ui.documents.conversation_documents.ConversationDocuments` says
what to show and acts on the signals.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from eagle_chat.ui import theme
from eagle_chat.ui.flow_layout import FlowLayout


class AttachBar(QWidget):
    sig_attach = Signal()
    """Attach files… was clicked."""
    sig_detach = Signal(str)
    """A file's chip was clicked: detach that path."""
    sig_stop = Signal()
    """Stop the indexing under way."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("attachBar")
        self.attach_button = QPushButton(self.tr("Attach files…"))
        self.attach_button.setObjectName("attachButton")
        self.attach_button.setToolTip(self.tr(
            "Add documents to this conversation (text, Markdown, code, HTML, PDF, DOCX): replies answer from them "
            "and cite them. You can also drop files on the window or paste their paths."))
        self.attach_button.clicked.connect(self.sig_attach)
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
        row.addWidget(self.attach_button)
        row.addWidget(self.chips_box, 1)
        row.addWidget(self.progress)
        row.addWidget(self.stop_button)
        self.show_progress("")

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

    def show_progress(self, text: str, *, running: bool = False, error: bool = False) -> None:
        """The indexing line ("" hides it); ``running`` shows Stop."""
        self.progress.setText(text)
        self.progress.setStyleSheet(f"color: {theme.colours().danger if error else theme.colours().muted};")
        self.progress.setVisible(bool(text))
        self.stop_button.setVisible(running)

    def chip_paths(self) -> list[str]:
        """The paths of the chips shown, in order."""
        return [self.chips.itemAt(i).widget().property("path") for i in range(self.chips.count())]
