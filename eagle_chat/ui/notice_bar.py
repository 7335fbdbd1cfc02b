"""NoticeBar: the one-line (or few-line) message above the chat: information, or an error to act on."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

INFO_BACKGROUND = "#fef3c7"
ERROR_BACKGROUND = "#fee2e2"


class NoticeBar(QLabel):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("noticeLabel")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setVisible(False)

    def show_text(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` (an empty text hides the bar)."""
        colour = ERROR_BACKGROUND if error else INFO_BACKGROUND
        self.setStyleSheet(f"background: {colour}; padding: 6px; border-radius: 4px;")
        self.setText(text)
        self.setVisible(bool(text))
