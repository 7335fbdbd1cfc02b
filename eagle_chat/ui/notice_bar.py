"""NoticeBar: the one-line (or few-line) message above the chat: information, or an error to act on.

A failure's notice also offers "Copy details" (what went wrong, the traceback, versions and the log's
path), for a bug report; the sentence itself is all most users need.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

INFO_BACKGROUND = "#fef3c7"
ERROR_BACKGROUND = "#fee2e2"

log = logging.getLogger(__name__)


class NoticeBar(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.label = QLabel()
        self.label.setObjectName("noticeLabel")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QPushButton("Copy details")
        self.copy_button.setObjectName("noticeCopyDetailsButton")
        self.copy_button.setToolTip("Copy what went wrong, with the log's location, for a bug report")
        self.copy_button.clicked.connect(self.copy_details)
        self.copy_button.setVisible(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        self.details = ""
        self.setVisible(False)

    def show_text(self, text: str, *, error: bool = False, details: str = "") -> None:
        """Show ``text`` (an empty text hides the bar); ``details`` adds a "Copy details" button."""
        if text:
            log.log(logging.WARNING if error else logging.INFO, "notice: %s", text)
        colour = ERROR_BACKGROUND if error else INFO_BACKGROUND
        self.setStyleSheet(f"#noticeBar {{ background: {colour}; border-radius: 4px; }}")
        self.label.setText(text)
        self.details = details
        self.copy_button.setVisible(bool(details))
        self.setVisible(bool(text))

    def show_failure(self, text: str, details: str) -> None:
        self.show_text(text, error=True, details=details)

    def text(self) -> str:
        return self.label.text()

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details or self.text())
