"""The preview of a cited passage: where it is (file, page, the full path), the passage as the model read it,
and Open the file. One preview per chat view, reused; it does not block the window."""

from __future__ import annotations

import os

import shutil
import sys

from PySide6.QtCore import QProcess, QTimer, QUrl
from PySide6.QtGui import QDesktopServices, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from eagle_chat.core.documents.terms import best_sentence
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
        self.highlighted = ""  # the passage's sentence marked as what matched the question

    def show_source(self, source: dict, question: str = "") -> None:
        """Show ``source``; with the ``question`` it answered, the sentence holding most of its words is
        highlighted and scrolled to (a long passage hid what matched)."""
        self._file = source["path"]
        title = f"[{source['n']}] {place(source)}"
        self.setWindowTitle(title)
        self.where.setText(f"<b>{title}</b>")
        gone = "" if os.path.exists(self._file) else "  " + self.tr("(the file is no longer there)")
        self.path.setText(self._file + gone)
        self.passage.setPlainText(source.get("text", "").strip())
        self.highlighted = self._highlight(best_sentence(question, self.passage.toPlainText()) if question else None)
        self.open_button.setEnabled(not gone)
        self.status.setVisible(False)
        self.show()
        self.raise_()
        self.activateWindow()
        if self.highlighted:  # once laid out (a hidden editor has no lines to scroll through yet)
            self.passage.centerCursor()
            QTimer.singleShot(0, self.passage.centerCursor)

    def _highlight(self, span: tuple[int, int] | None) -> str:
        """Mark ``span`` of the passage in the palette's selection colours (both themes) and scroll to it; the
        text marked ("" for none)."""
        if span is None:
            self.passage.setExtraSelections([])
            return ""
        cursor = self.passage.textCursor()
        cursor.setPosition(span[0])
        cursor.setPosition(span[1], QTextCursor.MoveMode.KeepAnchor)
        mark = QTextEdit.ExtraSelection()
        mark.cursor = cursor
        look = QTextCharFormat()
        look.setBackground(self.palette().color(QPalette.ColorRole.Highlight))
        look.setForeground(self.palette().color(QPalette.ColorRole.HighlightedText))
        mark.format = look
        self.passage.setExtraSelections([mark])
        start = self.passage.textCursor()
        start.setPosition(span[0])
        self.passage.setTextCursor(start)
        return cursor.selectedText()

    def open_file(self) -> bool:
        """Open the file in the program the system has for it; where none could be started, say so here. On
        Linux through xdg-open, whose exit code says whether a program took the file: Qt's openUrl reports
        success as soon as xdg-open starts, so a system with no viewer failed silently (only xdg-open's
        message on a terminal)."""
        if not self._file:
            return False
        self.status.setVisible(False)
        if sys.platform.startswith("linux") and shutil.which("xdg-open"):
            process = QProcess(self)
            process.finished.connect(lambda code, _status: self._opened(code == 0, process))
            process.errorOccurred.connect(
                lambda error: self._opened(False, process) if error == QProcess.ProcessError.FailedToStart else None)
            process.start("xdg-open", [self._file])
            return True
        opened = QDesktopServices.openUrl(QUrl.fromLocalFile(self._file))
        self._opened(opened)
        return opened

    def _opened(self, opened: bool, process: QProcess | None = None) -> None:
        if process is not None:
            process.deleteLater()
        self.status.setText("" if opened else self.tr(
            "No program could be started to open this file. Open it from its folder: {folder}").format(
            folder=os.path.dirname(self._file)))
        self.status.setVisible(not opened)


def show_source(view: QWidget, message: Message | None, n: int) -> SourcePreview | None:
    """Open (or reuse) ``view``'s preview on passage ``n`` of ``message``; None if it has no such passage."""
    source = source_of(message, n)
    if source is None:
        return None
    preview = view.findChild(SourcePreview)
    if preview is None:
        preview = SourcePreview(view)
    asked = view.message(message.parent_id) if message is not None and message.parent_id is not None else None
    preview.show_source(source, asked.content if asked is not None and asked.role == "user" else "")
    return preview
