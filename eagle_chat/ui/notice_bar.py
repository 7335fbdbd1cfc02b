"""NoticeBar: the one-line (or few-line) message above the chat: information, or an error to act on."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel, QWidget

from eagle_chat.ui import theme


class NoticeBar(QLabel):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("noticeLabel")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setVisible(False)
        self._error = False

    def show_text(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` (an empty text hides the bar)."""
        self._error = error
        self._restyle()
        self.setText(text)
        self.setVisible(bool(text))

    def colours(self) -> tuple[str, str]:
        """(text, background) as drawn now: from the theme, so a dark palette gets a dark notice."""
        c = theme.colours()  # the application's palette: the style sheet below pins this widget's own
        return (c.error_text, c.error_background) if self._error else (c.notice_text, c.notice_background)

    def _restyle(self) -> None:
        text, background = self.colours()
        self.setStyleSheet(f"color: {text}; background: {background}; padding: 6px; border-radius: 4px;")

    def event(self, event: QEvent) -> bool:  # Qt override
        # The application-wide palette change (a theme switch) arrives here, not in changeEvent; the
        # widget's own PaletteChange is left alone, since restyling sends one itself.
        if event.type() == QEvent.Type.ApplicationPaletteChange:
            self._restyle()
        return super().event(event)
