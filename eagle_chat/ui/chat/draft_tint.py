"""The chat view's drafted-token tint: Markdown on screen, aligned back to the reply's text.

The chat view renders Markdown, so a character of the reply is not a position in the document. After the
view draws a stretch of a message it calls :meth:`ChatTint.covered`, which aligns what the document now
shows there with the source text it came from: what Markdown shows appears in its source in the same order,
with markup (``**``, list markers, link targets, fences) in between, so each shown word is looked up a
little ahead of the last. The blocks the renderer adds (a code block's label and copy link, the footer)
are skipped. Only the stretch just drawn is aligned, so a streaming reply costs the same per update
however long it grows. The tint is painted over the text (:class:`eagle_chat.ui.chat.drafted_text.TintPainter`),
never written into the document.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter, QTextDocument

from eagle_chat.core.generation.steps import DraftedSpan, StepRecord
from eagle_chat.ui.chat.markdown_html import copy_code_label
from eagle_chat.ui.chat.message_links import copy_label
from eagle_chat.ui.chat.drafted_text import (
    ASTRAL,
    DRAFT_TINT,
    DraftedHover,
    TintPainter,
    range_rects,
    u16,
    visible_positions,
)

SKIPPED_LINKS = ("copy-code:", "copy-message:")
WINDOW = 240  # how far past the last match a shown word may lie in the source (link targets, fences)
_PIECES = re.compile(r"\w+|\s+|[^\w\s]")
_SPACE = re.compile(r"\s")


def document_runs(doc: QTextDocument, start: int, end: int) -> list[tuple[int, str]]:
    """The text the document shows between ``start`` and ``end``: one (position, text) run per block,
    leaving out the blocks that hold copy links (a code block's label line, the message footer)."""
    runs: list[tuple[int, str]] = []
    labels = (copy_label(), copy_code_label())  # the links' text, in the UI's language
    block = doc.findBlock(start)
    while block.isValid() and block.position() < end:
        position, text = block.position(), block.text()
        it, skip = block.begin(), False
        while any(label in text for label in labels) and not it.atEnd() and not skip:
            fmt = it.fragment().charFormat()
            skip = fmt.isAnchor() and fmt.anchorHref().startswith(SKIPPED_LINKS)
            it += 1
        if not skip and text:
            if position < start:  # the stretch starts inside this block
                cut = start - position
                if ASTRAL.search(text):
                    cut = next((i for i in range(len(text) + 1) if u16(text, i) >= start - position), len(text))
                position, text = position + u16(text, cut), text[cut:]
            runs.append((position, text))
        block = block.next()
    return runs


def align(source: str, start: int, end: int, shown: Sequence[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """Where the shown runs come from in ``source[start:end]``: (document position, source offset, text)
    for every stretch found; text not found (added by the renderer) is left out."""
    matched: list[list] = []  # [document position, source offset, text, document length]
    i = start
    for position, text in shown:
        astral = bool(ASTRAL.search(text))
        whole = source.find(text, i, min(end, i + len(text) + WINDOW)) if len(text) > 3 else -1
        if whole >= 0:  # most blocks (code lines, plain paragraphs) are shown exactly as written
            i = whole + len(text)
            matched.append([position, whole, text, u16(text, len(text)) if astral else len(text)])
            continue
        for m in _PIECES.finditer(text):
            piece, at = m.group(), m.start()
            for shown_at, k, found in _locate(source, i, end, piece, at):
                doc = position + (u16(text, shown_at) if astral else shown_at)
                width = u16(found, len(found)) if astral else len(found)
                i = k + len(found)
                last = matched[-1] if matched else None
                if last is not None and last[1] + len(last[2]) == k and last[0] + last[3] == doc:
                    last[2] += found
                    last[3] += width
                else:
                    matched.append([doc, k, found, width])
    return [(doc, src, text) for doc, src, text, _ in matched]


def _locate(source: str, i: int, end: int, piece: str, at: int) -> list[tuple[int, int, str]]:
    """(shown offset, source offset, text) for one shown piece, looked for from source offset ``i``."""
    if piece.isspace():  # spaces at the cursor first: a soft line break shows as a space, a tab as spaces
        space = _SPACE.search(source, i, min(end, i + 8))
        if space is None:
            return []
        run = len(piece) if source.startswith(piece, space.start()) else 1
        return [(at, space.start(), source[space.start():space.start() + run])]
    window = WINDOW if piece[0].isalnum() or piece[0] == "_" else 16  # markup is punctuation, and short
    k = source.find(piece, i, min(end, i + len(piece) + window))
    if k >= 0:
        return [(at, k, piece)]
    found, j = [], i  # markup inside a word ("foo**bar**"): character by character, close by
    for offset, char in enumerate(piece):
        k = source.find(char, j, min(end, j + 8))
        if k >= 0:
            found.append((at + offset, k, char))
            j = k + 1
    return found


def tint_ranges(matched: Sequence[tuple[int, int, str]], spans: Sequence[DraftedSpan]) -> list[tuple[int, int, DraftedSpan]]:
    """Document ranges of the drafted spans, through the alignment (both sorted by source offset)."""
    ranges: list[tuple[int, int, DraftedSpan]] = []
    first = 0
    for doc, src, text in matched:
        src_end = src + len(text)
        while first < len(spans) and spans[first].end <= src:
            first += 1
        index = first
        while index < len(spans) and spans[index].start < src_end:
            span = spans[index]
            a, b = doc + u16(text, max(span.start, src) - src), doc + u16(text, min(span.end, src_end) - src)
            if ranges and ranges[-1][2] is span and ranges[-1][1] == a:
                ranges[-1] = (ranges[-1][0], b, span)
            else:
                ranges.append((a, b, span))
            index += 1
    return ranges


class ChatTint:
    """The chat view's tint: ChatView calls :meth:`covered` after drawing each stretch of a message, and
    :meth:`paint` after painting its viewport."""

    def __init__(self, view):
        self.view = view
        self.enabled = False
        self._live: dict[int, StepRecord] = {}  # the reply in flight's steps so far, by message id
        self._spans: dict[int, tuple[tuple[int, int], list[DraftedSpan]]] = {}  # by message: (record, steps)
        # Per message: its frame and the tinted ranges, relative to the frame's start, with their step.
        self._tinted: dict[int, tuple[object, list[tuple[int, int, int, int]]]] = {}
        self._methods: dict[int, str] = {}  # message id -> the method its reply ran with (for the hover)
        self.hover = DraftedHover(view, self.step_at)
        self.painter = TintPainter(view)

    def set_enabled(self, on: bool) -> None:
        """Switching on aligns every message on screen (the view draws them again); off forgets them."""
        if on != self.enabled:
            self.enabled = on
            self._tinted.clear()
            if on:
                self._warm_up()
                self.view.redraw()
            self.view.viewport().update()

    def _warm_up(self) -> None:
        """PySide6 sets up the bindings of QTextBlock, QTextLayout and QTextLine on their first use, which
        took 0.04-0.8 s here: pay it when the tint is switched on (or at start), not in the first reply."""
        if not getattr(ChatTint, "_warm", False):
            ChatTint._warm = True
            document_runs(self.view.document(), 0, 1)
            range_rects(self.view, 0, 1)
            visible_positions(self.view)
            image = QImage(4, 4, QImage.Format.Format_ARGB32)
            painter = QPainter(image)
            painter.fillRect(QRectF(0, 0, 2, 2).translated(1, 1), DRAFT_TINT)
            painter.end()

    def set_live(self, message_id: int, record: StepRecord | None) -> None:
        if record is None:
            self._live.pop(message_id, None)
        else:
            self._live[message_id] = record

    def record_for(self, message) -> StepRecord | None:
        live = self._live.get(message.id)
        if live is not None:
            return live
        return message.stats.steps if message.stats is not None else None

    def covered(self, message, frame, source_start: int, source_end: int, doc_start: int, doc_end: int) -> None:
        """``message.content[source_start:source_end]`` was just drawn at ``doc_start..doc_end`` of ``frame``
        (everything after ``doc_start`` in the frame was drawn anew)."""
        if not self.enabled or message.role != "assistant":
            return
        base = frame.firstPosition()
        kept = [r for r in self._tinted.get(message.id, (None, []))[1] if r[1] <= doc_start - base]
        spans = self._spans_within(message, source_start, source_end)
        if spans:
            doc = self.view.document()
            ranges = tint_ranges(align(message.content, source_start, source_end,
                                       document_runs(doc, doc_start, doc_end)), spans)
            kept += [(a - base, b - base, span.step, span.accepted) for a, b, span in ranges]
        self._tinted[message.id] = (frame, kept)
        self._methods[message.id] = message.stats.speculation if message.stats is not None else "eagle3"

    def _spans_within(self, message, start: int, end: int) -> list[DraftedSpan]:
        """The drafted spans overlapping ``start..end``; worked out once per record length, not per stretch."""
        record = self.record_for(message)
        if record is None:
            return []
        key = (id(record), len(record.sizes))
        seen, spans = self._spans.get(message.id, (None, []))
        if seen != key:
            spans = list(record.drafted_spans())
            self._spans[message.id] = (key, spans)
        first = bisect_right([s.end for s in spans], start)
        found = []
        for span in spans[first:]:
            if span.start >= end:
                break
            found.append(span)
        return found

    def tinted(self, message_id: int | None = None) -> list[tuple[int, int, int, int]]:
        """Tinted ranges (start, end in the document, step, accepted) of one message, or of all."""
        found = []
        for key, (frame, ranges) in list(self._tinted.items()):
            if message_id is not None and key != message_id:
                continue
            try:
                base = frame.firstPosition()
            except RuntimeError:  # the frame went with the conversation it showed
                del self._tinted[key]
                continue
            found += [(a + base, b + base, step, accepted) for a, b, step, accepted in ranges]
        return sorted(found)

    def step_at(self, position: int) -> tuple[int, int, str] | None:
        """(step, accepted, method) of the tinted text at document ``position``: the method the reply ran with
        (a prompt-lookup reply's tokens were copied from the prompt, not drafted by EAGLE-3)."""
        if not self.enabled:
            return None
        for message_id in list(self._tinted):
            for a, b, step, accepted in self.tinted(message_id):
                if a <= position < b:
                    return step, accepted, self._methods.get(message_id, "eagle3")
        return None

    def paint(self, rect=None) -> int:
        """Paint the tint over ``rect`` of the viewport (after the view painted it); how many ranges."""
        if not self.enabled or not self._tinted:
            return 0
        top, bottom = visible_positions(self.view, rect)
        on_screen = []
        for key, (frame, ranges) in list(self._tinted.items()):
            try:
                base, last = frame.firstPosition(), frame.lastPosition()
            except RuntimeError:
                del self._tinted[key]
                continue
            if ranges and last >= top and base <= bottom:
                on_screen += [(a + base, b + base) for a, b, _, _ in ranges]
        return self.painter.paint(sorted(on_screen), rect)
