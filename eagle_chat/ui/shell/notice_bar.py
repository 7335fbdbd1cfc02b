"""NoticeBar: the one-line (or few-line) message above the chat: information, or an error to act on, with
at most one button that does what the message offers, and × to dismiss it.

A failure's notice may instead offer "Copy details" (what went wrong, the traceback, versions and the log's
path), for a bug report; the sentence itself is all most users need. Colours come from the theme, so a
dark palette gets a dark notice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from eagle_chat.ui.widgets import theme

log = logging.getLogger(__name__)


class NoticeBar(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.label = QLabel()
        self.label.setObjectName("noticeLabel")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action_button = QPushButton()
        self.action_button.setObjectName("noticeActionButton")
        self.action_button.clicked.connect(self._on_action)
        self.action_button.setVisible(False)
        self.copy_button = QPushButton(self.tr("Copy details"))
        self.copy_button.setObjectName("noticeCopyDetailsButton")
        self.copy_button.setToolTip(self.tr("Copy what went wrong, with the log's location, for a bug report"))
        self.copy_button.clicked.connect(self.copy_details)
        self.copy_button.setVisible(False)
        self.close_button = QToolButton()
        self.close_button.setObjectName("noticeCloseButton")
        self.close_button.setText("×")  # i18n: ok (a symbol)
        self.close_button.setAccessibleName(self.tr("Dismiss this notice"))
        self.close_button.setToolTip(self.close_button.accessibleName())
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(lambda: self.show_text(""))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.action_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self._action: Callable[[], None] | None = None
        self._error = False
        self.details = ""
        self.setVisible(False)

    def show_text(self, text: str, *, error: bool = False, details: str = "",
                  action: tuple[str, Callable[[], None]] | None = None) -> None:
        """Show ``text`` (an empty text hides the bar); ``details`` adds a "Copy details" button, ``action``
        a button ``(label, callback)`` that runs the callback once and then hides the bar."""
        if text:
            log.log(logging.WARNING if error else logging.INFO, "notice: %s", text)
        self._error = error
        self._restyle()
        self.label.setText(text)
        self.details = details
        self.copy_button.setVisible(bool(details))
        self._action = action[1] if action else None
        self.action_button.setText(action[0] if action else "")
        self.action_button.setVisible(action is not None)
        self.setVisible(bool(text))

    def show_failure(self, text: str, details: str) -> None:
        self.show_text(text, error=True, details=details)

    def text(self) -> str:
        return self.label.text()

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details or self.text())

    def colours(self) -> tuple[str, str]:
        """(text, background) as drawn now: from the theme, so a dark palette gets a dark notice."""
        c = theme.colours()  # the application's palette: the style sheet below pins this widget's own
        return (c.error_text, c.error_background) if self._error else (c.notice_text, c.notice_background)

    def _restyle(self) -> None:
        text, background = self.colours()
        sheet = f"#noticeBar {{ background: {background}; border-radius: 4px; }} #noticeLabel {{ color: {text}; }}"
        if sheet != self.styleSheet():  # setting one re-polishes the bar (~0.3 ms), and every send clears the bar
            self.setStyleSheet(sheet)

    def _on_action(self) -> None:
        action, self._action = self._action, None
        self.show_text("")
        if action is not None:
            action()

    def event(self, event: QEvent) -> bool:  # Qt override
        # View → Theme: inside the window a PaletteChange, which restyling sends again (theme.switched
        # compares the colours, so that one is ignored).
        if theme.switched(self, event):
            self._restyle()
        return super().event(event)
