"""ComparePane: one mode's answer in the comparison, its thinking folded as the chat folds it.

A reasoning model's reply starts with ``<think>…</think>``; shown raw, both panes of a demo filled with tags
and thoughts. Here, as in the chat's thinking block (:mod:`eagle_chat.ui.chat.thinking_block`), the pane says
"Thinking…" with the thoughts streaming under it in the muted colour, and once the answer begins a folded
"▸ Thoughts" line above the answer: a click on it shows the thoughts (▾), another hides them. The drafted-token
tint covers the answer only.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QFontMetrics, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QWidget

from eagle_chat.core.generation.reasoning import split_reasoning
from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.ui.chat.thinking_block import thinking_colour
from eagle_chat.ui.chat.drafted_text import DraftedPane, u16
from eagle_chat.ui.words.i18n import translate


class ComparePane(DraftedPane):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.raw = ""
        self.expanded = False
        self._header = 0  # characters of the header line (0: the reply has no thinking)
        self._thinking = (0, 0)  # where the thoughts are in the pane's text
        self._foldable = False  # the reply thought and its answer has begun: the header folds the thoughts
        self.setBackgroundRole(QPalette.ColorRole.Base)  # the strip under the last whole line: the pane's colour
        self.setAutoFillBackground(True)

    def show_reply(self, text: str, record: StepRecord | None = None, *, typeset: bool = False) -> bool:
        """Show the raw reply ``text``: its thinking folded under a header, its answer as text."""
        self.raw = text
        split = split_reasoning(text)
        if not split.has_thinking:
            self._header, self._thinking, self.shift, self._foldable = 0, (0, 0), (0, 0), False
            return super().show_reply(text, record, typeset=typeset)
        self._foldable = split.closed or bool(split.answer)  # the answer has begun
        thoughts = translate("ThinkingBlocks", "Thoughts")
        if not self._foldable:
            header, shown = translate("ThinkingBlocks", "Thinking…"), split.thinking
            prefix = header + "\n" + shown
        elif self.expanded:
            header, shown = "▾ " + thoughts, split.thinking
            prefix = header + "\n" + shown + "\n\n"
        else:
            header, shown = "▸ " + thoughts, ""
            prefix = header + "\n\n"
        self._header = len(header)
        self._thinking = (len(header) + 1, len(header) + 1 + len(shown))
        self.shift = (len(text) - len(split.answer), len(prefix))
        before = len(self.text)
        appended = super().show_reply(prefix + split.answer, record, typeset=typeset)
        if not appended:
            self._decorate((0, self._header), italic=True)
            self._decorate(self._thinking)
        elif not self._foldable:  # more thoughts
            self._decorate((before, len(self.text)))
        return appended

    def toggle_thinking(self) -> None:
        """Show or hide the thoughts of a reply whose answer has begun."""
        self.expanded = not self.expanded
        if self.raw:
            self.show_reply(self.raw, self.record, typeset=self._typeset)

    def clear_reply(self) -> None:
        super().clear_reply()
        self.raw, self._header, self._thinking, self._foldable = "", 0, (0, 0), False

    def _decorate(self, span: tuple[int, int], *, italic: bool = False) -> None:
        """Thoughts (and the header, in italics) in the muted colour."""
        start, end = span
        if end <= start:
            return
        muted = QTextCharFormat()
        muted.setForeground(QColor(thinking_colour()))
        muted.setFontItalic(italic)
        cursor = QTextCursor(self.document())
        cursor.setPosition(u16(self.text, start))
        cursor.setPosition(u16(self.text, end), QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(muted)

    def whole_lines(self) -> int:
        """How many whole lines of the pane's type the viewport shows."""
        inner = self.viewport().height() - 2 * self.document().documentMargin()
        return max(0, int(inner // QFontMetrics(self.font()).lineSpacing()))

    def height_for_lines(self, lines: int) -> int:
        """The pane's height that shows ``lines`` whole lines of its type."""
        return int(lines * QFontMetrics(self.font()).lineSpacing() + 2 * self.document().documentMargin()
                   + 2 * self.frameWidth()) + 1

    def _snap_to_lines(self) -> None:
        """Make the viewport a whole number of lines high: in the presenter's large type the last line
        showed cut through the middle of its glyphs."""
        line = QFontMetrics(self.font()).lineSpacing()
        inner = self.height() - 2 * self.frameWidth() - 2 * self.document().documentMargin()
        if self.horizontalScrollBar().isVisible():
            inner -= self.horizontalScrollBar().height()
        spare = int(inner) % line if line > 0 and inner > line else 0
        if self.viewportMargins().bottom() != spare:
            self.setViewportMargins(0, 0, 0, spare)

    # --- Qt overrides ---------------------------------------------------------------------------------
    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._snap_to_lines()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._snap_to_lines()

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().mouseReleaseEvent(event)
        if self._foldable and not self.textCursor().hasSelection():
            if self.cursorForPosition(event.position().toPoint()).position() <= self._header:
                self.toggle_thinking()
