"""The preview of a cited passage: where it is (file, page, the full path), the passage as the model read it,
and Open the file. One preview per chat view, reused; it does not block the window."""

from __future__ import annotations

import os

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from eagle_chat.core.storage.conversation import Message
from eagle_chat.ui.chat.source_links import place, source_of


class SourcePreview(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sourcePreview")
        self.resize(560, 380)
        self.where = QLabel()
        self.where.setObjectName("sourceWhere")
        self.where.setWordWrap(True)
        self.path = QLabel()
        self.path.setObjectName("sourcePath")
        self.path.setWordWrap(True)
        self.path.setTextInteractionFlags(self.path.textInteractionFlags().TextSelectableByMouse)
        self.passage = QPlainTextEdit()
        self.passage.setObjectName("sourcePassage")
        self.passage.setReadOnly(True)
        self.passage.setAccessibleName(self.tr("Passage"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.open_button = buttons.addButton(self.tr("Open the file"), QDialogButtonBox.ButtonRole.ActionRole)
        self.open_button.setObjectName("openSourceButton")
        self.open_button.clicked.connect(self.open_file)
        buttons.rejected.connect(self.close)
        self.status = QLabel()
        self.status.setObjectName("sourceOpenStatus")
        self.status.setWordWrap(True)
        self.status.setVisible(False)
        layout = QVBoxLayout(self)
        for widget in (self.where, self.path, self.passage, self.status, buttons):
            layout.addWidget(widget)
        self._file = ""

    def show_source(self, source: dict) -> None:
        self._file = source["path"]
        title = f"[{source['n']}] {place(source)}"
        self.setWindowTitle(title)
        self.where.setText(f"<b>{title}</b>")
        gone = "" if os.path.exists(self._file) else "  " + self.tr("(the file is no longer there)")
        self.path.setText(self._file + gone)
        self.passage.setPlainText(source.get("text", "").strip())
        self.open_button.setEnabled(not gone)
        self.status.setVisible(False)
        self.show()
        self.raise_()
        self.activateWindow()

    def open_file(self) -> bool:
        """Open the file in the program the system has for it; where none could be started, say so here
        (it failed silently, with only xdg-open's message on a terminal)."""
        if not self._file:
            return False
        opened = QDesktopServices.openUrl(QUrl.fromLocalFile(self._file))
        self.status.setText("" if opened else self.tr(
            "No program could be started to open this file. Open it from its folder: {folder}").format(
            folder=os.path.dirname(self._file)))
        self.status.setVisible(not opened)
        return opened


def show_source(view: QWidget, message: Message | None, n: int) -> SourcePreview | None:
    """Open (or reuse) ``view``'s preview on passage ``n`` of ``message``; None if it has no such passage."""
    source = source_of(message, n)
    if source is None:
        return None
    preview = view.findChild(SourcePreview)
    if preview is None:
        preview = SourcePreview(view)
    preview.show_source(source)
    return preview
