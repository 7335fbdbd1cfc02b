"""NoticeBar: the one-line (or few-line) message above the chat: information, or an error to act on, with
at most one button that does what the message offers."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

INFO_BACKGROUND = "#fef3c7"
ERROR_BACKGROUND = "#fee2e2"


class NoticeBar(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("noticeBar")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.label.setObjectName("noticeLabel")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action_button = QPushButton()
        self.action_button.setObjectName("noticeActionButton")
        self.action_button.clicked.connect(self._on_action)
        self.action_button.setVisible(False)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.action_button, 0, Qt.AlignmentFlag.AlignTop)
        self._action: Callable[[], None] | None = None
        self.setVisible(False)

    def show_text(self, text: str, *, error: bool = False,
                  action: tuple[str, Callable[[], None]] | None = None) -> None:
        """Show ``text`` (an empty text hides the bar), with a button ``(label, callback)`` if given; the
        button runs the callback once and then hides the bar."""
        colour = ERROR_BACKGROUND if error else INFO_BACKGROUND
        self.label.setStyleSheet(f"background: {colour}; padding: 6px; border-radius: 4px;")
        self.label.setText(text)
        self._action = action[1] if action else None
        self.action_button.setText(action[0] if action else "")
        self.action_button.setVisible(action is not None)
        self.setVisible(bool(text))

    def text(self) -> str:
        return self.label.text()

    def _on_action(self) -> None:
        action, self._action = self._action, None
        self.show_text("")
        if action is not None:
            action()
