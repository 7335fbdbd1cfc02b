"""Tinting the text that came from accepted draft tokens, and naming its step on hover.

The step record (:mod:`eagle_chat.core.generation.steps`) says which characters of a reply each step's
accepted draft tokens wrote; the target's own token of each step stays plain.

The tint is painted over the text, not written into the document: a background format per drafted run
would split a 1,000-token reply into hundreds of format runs, and laying those out tripled the cost of
drawing the reply (the GUI thread's time, and the GIL the streaming thread needs). Painted, the document
is laid out exactly as without the tint, switching it on or off is a repaint, and the painting touches only
the runs on screen. The step under the mouse is looked up when a tooltip is asked for.

:class:`DraftedPane` is a plain-text pane; the comparison's panes (:mod:`eagle_chat.ui.speed.compare_pane`)
render their answers' Markdown on it, aligned back to the reply's text, as the chat view's is, by
:mod:`eagle_chat.ui.chat.draft_tint`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QTextCharFormat, QTextCursor, QTextImageFormat
from PySide6.QtWidgets import QTextBrowser, QTextEdit, QToolTip, QWidget

from eagle_chat.core.generation.steps import DraftedSpan, StepRecord
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.words import texts
from eagle_chat.ui.math import images as math_images
from eagle_chat.ui.math.markdown_rules import formula_spans
from eagle_chat.ui.math.view_math import ViewMath

# Translucent emerald, the EAGLE-3 colour of the speed chart, a little stronger on dark backgrounds so it
# still shows; text under it keeps ≥ 4.5:1 on both (tests/ui/test_dark_charts.py). DRAFT_TINT is the light one.
DRAFT_TINT = theme.draft_tint(theme.LIGHT)


def tint_colour(widget: QWidget) -> QColor:
    """The tint for ``widget``'s palette (light or dark)."""
    return theme.draft_tint(theme.colours(widget.palette()))
ASTRAL = re.compile("[\U00010000-\U0010ffff]")
StepLookup = Callable[[int], "tuple[int, int, str] | None"]  # document position -> (step, accepted, method)
Ranges = Sequence[tuple[int, int]]  # sorted document ranges


def spans_within(record: StepRecord | None, start: int, end: int) -> list[DraftedSpan]:
    if record is None:
        return []
    return [s for s in record.drafted_spans() if s.end > start and s.start < end]


def u16(text: str, count: int) -> int:
    """Document positions (UTF-16 units) taken by ``text[:count]``."""
    head = text[:count]
    return count + len(ASTRAL.findall(head)) if ASTRAL.search(head) else count


def visible_positions(view: QTextEdit, rect=None) -> tuple[int, int]:
    """The first and last document positions in ``rect`` of ``view``'s viewport (all of it by default)."""
    rect = rect if rect is not None else view.viewport().rect()
    return view.cursorForPosition(rect.topLeft()).position(), view.cursorForPosition(rect.bottomRight()).position()


def range_rects(view: QTextEdit, start: int, end: int, blocks: dict | None = None) -> list[QRectF]:
    """Rectangles in document coordinates covering positions ``start..end``, line by line. ``blocks``
    keeps each block's geometry for ranges measured together (a block holds many ranges)."""
    doc = view.document()
    blocks = {} if blocks is None else blocks
    rects = []
    block = doc.findBlock(start)
    while block.isValid():
        position = block.position()
        if position >= end:
            break
        geometry = blocks.get(position)
        if geometry is None:
            geometry = blocks[position] = _block_geometry(doc, block)
        left, top, length, lines = geometry
        first, last = max(start - position, 0), min(end - position, length - 1)
        for line_start, line_end, y, height, line in lines:
            if line_start >= last:
                break
            a, b = max(first, line_start), min(last, line_end)
            if a < b:
                x1, x2 = line.cursorToX(a)[0], line.cursorToX(b)[0]
                rects.append(QRectF(left + min(x1, x2), top + y, abs(x2 - x1), height))
        block = block.next()
    return rects


def _block_geometry(doc, block) -> tuple[float, float, int, list]:
    box = doc.documentLayout().blockBoundingRect(block)
    layout = block.layout()
    lines = []
    for index in range(layout.lineCount()):
        line = layout.lineAt(index)
        start = line.textStart()
        lines.append((start, start + line.textLength(), line.y(), line.height(), line))
    return box.left(), box.top(), block.length(), lines


class TintPainter:
    """Paints the tint over a text view's viewport. Each range's rectangles are kept until the document
    changes at or before it, or the view's width or font changes: while a reply streams only the ranges
    near its end are measured again, and a repaint for a scroll or a tooltip only fills rectangles."""

    def __init__(self, view: QTextEdit):
        self.view = view
        self._key: tuple | None = None
        self._rects: dict[tuple[int, int], list[QRectF]] = {}
        view.document().contentsChange.connect(self._changed)

    def _changed(self, position: int, _removed: int, _added: int) -> None:
        if self._rects:
            self._rects = {span: rects for span, rects in self._rects.items() if span[1] < position}

    def paint(self, ranges: Ranges, rect=None) -> int:
        """Paint the ``ranges`` (sorted) within ``rect`` of the viewport (all of it by default); returns how
        many ranges were painted."""
        if not ranges:
            return 0
        view = self.view
        key = (view.viewport().width(), view.document().defaultFont().key())
        if key != self._key:
            self._key, self._rects = key, {}
        top, bottom = visible_positions(view, rect)
        first = max(0, bisect_left(ranges, (top, top)) - 1)
        dx, dy = view.horizontalScrollBar().value(), view.verticalScrollBar().value()
        painter = QPainter(view.viewport())
        tint = tint_colour(view)
        painted, blocks = 0, {}
        for span in ranges[first:]:
            if span[0] > bottom:
                break
            if span[1] <= top:
                continue
            rects = self._rects.get(span)
            if rects is None:
                rects = self._rects[span] = range_rects(view, span[0], span[1], blocks)
            for box in rects:
                painter.fillRect(box.translated(-dx, -dy), tint)
            painted += 1
        painter.end()
        return painted


class DraftedHover(QObject):
    """Event filter on a text view's viewport: over tinted text, the tooltip names the step and how many
    drafted tokens it accepted; elsewhere the view's own tooltips are left alone."""

    def __init__(self, view: QTextEdit, lookup: StepLookup):
        super().__init__(view)
        self.view = view
        self.lookup = lookup
        view.viewport().installEventFilter(self)

    def step_at(self, point) -> tuple[int, int, str] | None:
        """(step, accepted, method) of the tinted text at viewport ``point``, if any."""
        offset = QPointF(self.view.horizontalScrollBar().value(), self.view.verticalScrollBar().value())
        position = self.view.document().documentLayout().hitTest(QPointF(point) + offset,
                                                                  Qt.HitTestAccuracy.ExactHit)
        return self.lookup(position) if position >= 0 else None

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.ToolTip:
            found = self.step_at(event.pos())
            if found is not None:
                QToolTip.showText(event.globalPos(), texts.drafted_tooltip(*found), self.view.viewport())
                return True
        return False


class DraftedPane(QTextBrowser):
    """A plain-text pane showing one reply, appended to as it streams, its drafted text tinted when on.
    A finished reply (``show_reply(..., typeset=True)``) shows its formulas as images, as the chat does."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.tint = False
        self.text = ""
        self.record: StepRecord | None = None
        self.method = "eagle3"  # who drafted the tinted text (the hover says): the pane's speculative method
        self.ranges: list[tuple[int, int]] = []  # tinted document ranges
        self._spans: list[DraftedSpan] = []
        self._typeset = False
        self._formulas: list[tuple[int, int]] = []  # document ranges of the text that images replaced
        # (where the record's text starts being shown, where that is in the pane's text): a pane that folds
        # a reply's thinking shows its answer after a header, and only the answer is tinted
        self.shift = (0, 0)
        self.hover = DraftedHover(self, self.step_at)
        self.painter = TintPainter(self)
        self.math = ViewMath(self, lambda _pane: self._show_math())

    def show_reply(self, text: str, record: StepRecord | None = None, *, typeset: bool = False) -> bool:
        """Show ``text``; while it grows with the same record only what was appended is inserted (True).
        ``typeset``: the reply is complete, draw its formulas (and again when the theme changes)."""
        self._typeset = typeset
        append = not typeset and not self._formulas and record is self.record and bool(self.text) \
            and text.startswith(self.text)
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 4
        if append:
            cursor = QTextCursor(self.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(text[len(self.text):])
        else:
            self.setPlainText(text)
            self._formulas = []
        self.text, self.record = text, record
        if typeset:
            self._show_math(redraw=False)
        self._update_ranges()
        if at_end and append:
            bar.setValue(bar.maximum())
        return append

    def _show_math(self, *, redraw: bool = True) -> None:
        """Put an image in place of each formula of the text that has one (the rest stay as written)."""
        if not self._typeset:
            return
        if redraw:
            self.setPlainText(self.text)
        style, pending, self._formulas = self.math.style(), False, []
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        for start, end, tex, display in reversed(formula_spans(self.text)):  # later ones first: earlier stay put
            found = style.images.lookup(style.key(tex, display))
            pending |= found is None
            if found is None or found is math_images.REFUSED:
                continue
            a, b = u16(self.text, start), u16(self.text, end)
            cursor.setPosition(a)
            cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
            image = QTextImageFormat()
            image.setName(found.url)
            image.setWidth(found.width)
            image.setHeight(found.height)
            if found.middle:
                image.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
            cursor.insertImage(image)
            self._formulas.insert(0, (a, b))
        cursor.endEditBlock()
        self.math.drawn(self, pending)
        if redraw:
            self._update_ranges()

    def _document_position(self, position: int) -> int:
        """Where text position ``position`` (UTF-16) is in the document, formulas being one image each."""
        shift = 0
        for a, b in self._formulas:
            if position <= a:
                break
            if position < b:
                return a - shift
            shift += b - a - 1
        return position - shift

    def set_tint(self, on: bool) -> None:
        if on != self.tint:
            self.tint = on
            self._update_ranges()

    def clear_reply(self) -> None:
        self.clear()
        self.text, self.record, self.shift = "", None, (0, 0)
        self._update_ranges()

    def step_at(self, position: int) -> tuple[int, int, str] | None:
        """(step, accepted, method) of the tinted text at document ``position``."""
        index = bisect_left(self.ranges, (position + 1, position + 1)) - 1
        if index >= 0 and self.ranges[index][0] <= position < self.ranges[index][1]:
            span = self._spans[index]
            return span.step, span.accepted, self.method
        return None

    def _update_ranges(self) -> None:
        start, at = self.shift
        end = start + len(self.text) - at
        self._spans = spans_within(self.record, start, end) if self.tint and end > start else []
        astral = bool(ASTRAL.search(self.text))
        spans = [(max(s.start, start) - start + at, min(s.end, end) - start + at) for s in self._spans]
        self.ranges = [(u16(self.text, a), u16(self.text, b)) if astral else (a, b) for a, b in spans]
        if self._formulas:
            self.ranges = [(self._document_position(a), self._document_position(b)) for a, b in self.ranges]
        self.viewport().update()

    # --- Qt overrides ---------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().paintEvent(event)
        if self.tint:
            self.painter.paint(self.ranges, event.rect())

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self._typeset:
            self._show_math()  # formulas in the new theme's text colour

    def loadResource(self, kind: int, url):  # noqa: N802 - Qt override
        """Formula images only: nothing a reply names is loaded."""
        return self.math.resource(url)
