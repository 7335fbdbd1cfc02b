"""ComparePane: one mode's answer in the comparison, its Markdown rendered and its thinking folded as the chat's.

The answer is drawn as the chat draws a reply (:mod:`eagle_chat.ui.chat.markdown_html`): the room saw
``**bold**``, fences and ``#`` headings as source in the panes while the chat beside them showed them rendered.
While a run streams, the blocks that can no longer change are drawn once and only the end is drawn again
(:func:`~eagle_chat.ui.chat.markdown_html.stable_prefix_end`, as the chat view does), uncoloured, and never more
often than the last draw's cost allows; the finished reply is drawn whole, its code coloured. The drafted-token
tint is aligned from the reply's text to what the document shows (:mod:`eagle_chat.ui.chat.draft_tint`), so it
covers the same words of the source as before. The comparison itself ("Answers identical") compares the
replies' text, never what the panes show.

A reasoning model's reply starts with ``<think>…</think>``; shown raw, both panes of a demo filled with tags
and thoughts. Here, as in the chat's thinking block (:mod:`eagle_chat.ui.chat.thinking_block`), the pane says
"Thinking…" with the thoughts streaming under it in the muted colour (as plain text), and once the answer begins
a folded "▸ Thoughts" line above the answer: a click on it shows the thoughts (▾), another hides them. The
drafted-token tint covers the answer only.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtGui import QColor, QFontMetrics, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QWidget

from eagle_chat.core.generation.reasoning import split_reasoning
from eagle_chat.core.generation.steps import DraftedSpan, StepRecord
from eagle_chat.ui.chat.draft_tint import align, document_runs, tint_ranges
from eagle_chat.ui.chat.drafted_text import DraftedPane, u16
from eagle_chat.ui.chat.markdown_html import render_markdown, stable_prefix_end
from eagle_chat.ui.chat.message_parts import insert_blocks
from eagle_chat.ui.chat.thinking_block import thinking_colour
from eagle_chat.ui.words.i18n import translate

RENDER_COST_FACTOR = 8.0  # as the chat view: at most ~1/8 of the time drawing, the GIL the tokens need
MIN_RENDER_INTERVAL_S = 0.05


class ComparePane(DraftedPane):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.raw = ""
        self.expanded = False
        self._header = 0  # characters of the header line (0: the reply has no thinking)
        self._thinking = (0, 0)  # where the thoughts are in the pane's text
        self._foldable = False  # the reply thought and its answer has begun: the header folds the thoughts
        # The answer as Markdown: where it starts in the raw reply and in the document, how much of it is drawn
        # for good (raw characters, and the document position after them), and where the shown words of the
        # settled part and of the rest come from in the raw reply (the tint's alignment).
        self._markdown = False
        self._prefix = ""
        self._answer_at = 0
        self._settled = 0
        self._settled_end = 0
        self._matched: list[tuple[int, int, str]] = []
        self._matched_rest: list[tuple[int, int, str]] = []
        self._spans_key: tuple[int, int] | None = None
        self._all_spans: list[DraftedSpan] = []
        self._math_pending = False  # the last stretch drawn shows formulas as source until their images are made
        self._settled_math = False  # so does the settled part
        self._pending: tuple[str, StepRecord | None] | None = None
        self._next_render = 0.0
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.timeout.connect(self._render_pending)
        self.setBackgroundRole(QPalette.ColorRole.Base)  # the strip under the last whole line: the pane's colour
        self.setAutoFillBackground(True)

    def show_reply(self, text: str, record: StepRecord | None = None, *, typeset: bool = False) -> bool:
        """Show the raw reply ``text``: its thinking folded under a header, its answer rendered as Markdown
        (``typeset``: the reply is complete — drawn whole, code coloured, formulas as images). While it streams
        a draw may wait for the display rate; True if this call drew only what changed at the end."""
        self._render_timer.stop()
        self._pending = None
        if not typeset and self._markdown and self.raw and time.perf_counter() < self._next_render \
                and text.startswith(self.raw):
            self._pending = (text, record)  # drawn when the last draw's cost allows
            self._render_timer.start(max(1, int((self._next_render - time.perf_counter()) * 1000) + 1))
            return True
        started = time.perf_counter()
        appended = self._draw(text, record, typeset)
        cost = time.perf_counter() - started
        self._next_render = time.perf_counter() + max(RENDER_COST_FACTOR * cost, MIN_RENDER_INTERVAL_S)
        return appended

    def toggle_thinking(self) -> None:
        """Show or hide the thoughts of a reply whose answer has begun."""
        self.expanded = not self.expanded
        if self.raw:
            self._markdown = False  # drawn again whole, with the header as it is now
            self.show_reply(self.raw, self.record, typeset=self._typeset)

    def clear_reply(self) -> None:
        self._render_timer.stop()
        self._pending = None
        self._markdown, self._matched, self._matched_rest = False, [], []
        super().clear_reply()
        self.raw, self._header, self._thinking, self._foldable = "", 0, (0, 0), False

    def whole_lines(self) -> int:
        """How many whole lines of the pane's type the viewport shows."""
        inner = self.viewport().height() - 2 * self.document().documentMargin()
        return max(0, int(inner // QFontMetrics(self.font()).lineSpacing()))

    def height_for_lines(self, lines: int) -> int:
        """The pane's height that shows ``lines`` whole lines of its type."""
        return int(lines * QFontMetrics(self.font()).lineSpacing() + 2 * self.document().documentMargin()
                   + 2 * self.frameWidth()) + 1

    # --- drawing ---------------------------------------------------------------------------------------
    def _draw(self, text: str, record: StepRecord | None, typeset: bool) -> bool:
        split = split_reasoning(text)
        thoughts = translate("ThinkingBlocks", "Thoughts")
        if not split.has_thinking:
            header, shown, prefix = "", "", ""
            self._foldable = False
        else:
            self._foldable = split.closed or bool(split.answer)  # the answer has begun
            if not self._foldable:
                header, shown = translate("ThinkingBlocks", "Thinking…"), split.thinking
                prefix = header + "\n" + shown
            elif self.expanded:
                header, shown = "▾ " + thoughts, split.thinking
                prefix = header + "\n" + shown + "\n\n"
            else:
                header, shown = "▸ " + thoughts, ""
                prefix = header + "\n\n"
        self.raw = text
        self._header = len(header)
        self._thinking = (len(header) + 1, len(header) + 1 + len(shown)) if header else (0, 0)
        answer_at = len(text) - len(split.answer)
        if header and not self._foldable:  # still thinking: plain text, the new thoughts appended
            return self._draw_thoughts(prefix, record, typeset)
        append = not typeset and self._markdown and not self._typeset and prefix == self._prefix \
            and answer_at == self._answer_at and text.startswith(self.text[len(prefix):], answer_at)
        self._typeset, self.record = typeset, record
        self.text = prefix + split.answer
        self.shift = (answer_at, len(prefix))
        if not append:
            self._start_document(prefix)
            self._markdown, self._prefix, self._answer_at = True, prefix, answer_at
            self._settled, self._matched, self._settled_math = 0, [], False
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()  # one change for the layout to catch up with
        cursor.setPosition(self._settled_end)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        answer = split.answer
        cut = len(answer) if typeset else stable_prefix_end(answer, self._settled)
        if cut > self._settled:
            self._matched += self._insert(cursor, answer_at, self._settled, cut, highlight=typeset)
            self._settled, self._settled_end = cut, cursor.position()
            self._settled_math |= self._math_pending
        self._math_pending = False
        self._matched_rest = self._insert(cursor, answer_at, self._settled, len(answer), highlight=False) \
            if cut < len(answer) else []
        cursor.endEditBlock()
        self.math.drawn(self, self._settled_math or self._math_pending)
        self._update_ranges()
        return append

    def _draw_thoughts(self, prefix: str, record: StepRecord | None, typeset: bool) -> bool:
        """The thoughts of a reply whose answer has not begun, as plain text (appended while they stream)."""
        if self._markdown:
            self._markdown, self.text, self._matched, self._matched_rest = False, "", [], []
        before = len(self.text)
        appended = DraftedPane.show_reply(self, prefix, record, typeset=typeset)
        if not appended:
            self._decorate((0, self._header), italic=True)
            self._decorate(self._thinking)
        else:
            self._decorate((before, len(self.text)))
        return appended

    def _start_document(self, prefix: str) -> None:
        """An empty document holding ``prefix`` (the thinking header and shown thoughts) as plain text."""
        self.setPlainText(prefix)
        self._formulas = []
        if self._header:
            self._decorate((0, self._header), italic=True)
            self._decorate(self._thinking)
        end = QTextCursor(self.document())
        end.movePosition(QTextCursor.MoveOperation.End)
        end.setCharFormat(QTextCharFormat())
        self._settled_end = end.position()

    def _insert(self, cursor: QTextCursor, base: int, start: int, end: int, *, highlight: bool) -> list:
        """Render ``answer[start:end]`` (the raw reply from ``base``) at ``cursor``; where its shown words come
        from in the raw reply."""
        rendered = render_markdown(self.raw[base + start:base + end], highlight=highlight, math=self.math.style())
        self._math_pending = rendered.math_pending
        at = cursor.position()
        insert_blocks(cursor, rendered.html.rstrip())  # no space at the end of the last block
        if not self.tint:  # aligned only for the tint (switching it on draws the reply again)
            return []
        return align(self.raw, base + start, base + end, document_runs(self.document(), at, cursor.position()))

    def _render_pending(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            self.show_reply(pending[0], pending[1])

    def _show_math(self, *, redraw: bool = True) -> None:
        """Formula images were made (or the theme changed): draw the reply again with them."""
        if redraw and self.raw and self._markdown:
            self._markdown = False
            self.show_reply(self.raw, self.record, typeset=self._typeset)

    def _update_ranges(self) -> None:
        """The tint: the record's drafted spans (raw reply offsets) through the alignment to the document."""
        if not self._markdown:
            super()._update_ranges()
            return
        matched = self._matched + self._matched_rest
        found = tint_ranges(matched, self._drafted_spans()) if self.tint and matched else []
        self.ranges = [(a, b) for a, b, _ in found]
        self._spans = [span for _, _, span in found]
        self.viewport().update()

    def _drafted_spans(self) -> list[DraftedSpan]:
        """The record's drafted spans, worked out once per record length (not at every draw)."""
        record = self.record
        if record is None:
            return []
        key = (id(record), len(record.sizes))
        if key != self._spans_key:
            self._spans_key, self._all_spans = key, list(record.drafted_spans())
        return self._all_spans

    def set_tint(self, on: bool) -> None:
        if on != self.tint and on and self._markdown and not self._matched and self.raw:
            self.tint = on
            self._markdown = False  # drawn again to align the shown words with the reply (skipped while off)
            self.show_reply(self.raw, self.record, typeset=self._typeset)
            return
        super().set_tint(on)

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
        super().changeEvent(event)  # a finished reply is drawn again in the new theme's colours (_show_math)
        if event.type() == QEvent.Type.PaletteChange and not self._typeset and self._markdown and self.raw:
            self._markdown = False  # so is a streaming one
            self.show_reply(self.raw, self.record)
        if event.type() == QEvent.Type.FontChange:
            self._snap_to_lines()

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().mouseReleaseEvent(event)
        if self._foldable and not self.textCursor().hasSelection():
            if self.cursorForPosition(event.position().toPoint()).position() <= self._header:
                self.toggle_thinking()
