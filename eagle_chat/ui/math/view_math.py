"""A text view's formulas: the style it draws them in, the images it is served, and which of its
messages to draw again when the images they wait for are made (:mod:`eagle_chat.ui.math.images`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QMimeData, QObject, QUrl
from PySide6.QtGui import QFontInfo, QFontMetricsF, QImage, QPalette, QTextCursor
from PySide6.QtWidgets import QTextEdit

from eagle_chat.ui.math import images as math_images
from eagle_chat.ui.math.markdown_rules import MathStyle


def math_style(view: QTextEdit) -> MathStyle:
    """Formulas in ``view``'s text colour (its palette: light or dark theme), size and pixel ratio."""
    font = view.document().defaultFont()
    return MathStyle(view.palette().color(QPalette.ColorRole.Text).name(), float(QFontInfo(font).pixelSize()),
                     QFontMetricsF(font).xHeight(), view.devicePixelRatioF(), math_images.shared())


class ViewMath(QObject):
    """Tracks the items (messages, panes) of one view drawn with formulas still shown as source, and
    calls ``redraw(item)`` for each when images are made."""

    def __init__(self, view: QTextEdit, redraw: Callable[[object], None]):
        super().__init__(view)
        self.view = view
        self._redraw = redraw
        self._waiting: set = set()
        math_images.shared().sig_ready.connect(self._ready)

    def style(self) -> MathStyle:
        return math_style(self.view)

    def drawn(self, item: object, pending: bool) -> None:
        """``item`` was drawn; ``pending``: some of its formulas are shown as source for now."""
        if pending:
            self._waiting.add(item)
        else:
            self._waiting.discard(item)

    def resource(self, url: QUrl) -> QImage | None:
        """The image a ``math:`` address in the view's document names (None for any other address)."""
        return math_images.shared().resource(url.toString()) if url.scheme() == math_images.SCHEME else None

    def with_sources(self, cursor: QTextCursor, mime: QMimeData) -> QMimeData:
        """``mime`` (a copy of ``cursor``'s selection) with each formula image's LaTeX in its plain text."""
        if not cursor.hasSelection() or "\ufffc" not in cursor.selectedText():
            return mime
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        parts, block = [], self.view.document().findBlock(start)
        while block.isValid() and block.position() < end:
            if parts:
                parts.append("\n")
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                a, b = max(fragment.position(), start), min(fragment.position() + fragment.length(), end)
                if a < b:
                    fmt = fragment.charFormat()
                    name = fmt.toImageFormat().name() if fmt.isImageFormat() else ""
                    source = math_images.shared().source(name) if name.startswith(math_images.SCHEME) else None
                    if source is None:
                        piece = QTextCursor(self.view.document())
                        piece.setPosition(a)
                        piece.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
                        source = piece.selectedText()
                    parts.append(source)
                it += 1
            block = block.next()
        mime.text()  # Qt fills a text view's copy in lazily, at its first read: read it first, or that undoes this
        mime.setText("".join(parts).replace("\u2029", "\n").replace("\u2028", "\n"))
        return mime

    def _ready(self) -> None:
        waiting, self._waiting = self._waiting, set()
        for item in waiting:
            self._redraw(item)
