"""What a person sees cut, found by measuring text against the room it was given (no pytest: child processes
of the walk tests import it). A caption narrower than its text, a wrapped label lower than its lines, a
placeholder taller than its box, a widget its parents show only in part."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QLabel, QPlainTextEdit, QSizePolicy, QStyle, \
    QStyleOptionToolButton, QToolButton, QWidget


def needed_width(widget) -> int:
    width = widget.sizeHint().width()
    if isinstance(widget, QToolButton) and widget.menu() is not None \
            and widget.popupMode() == QToolButton.ToolButtonPopupMode.InstantPopup:
        option = QStyleOptionToolButton()
        widget.initStyleOption(option)
        width = max(width, widget.fontMetrics().horizontalAdvance(widget.text().replace("&", ""))
                    + widget.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, option, widget)
                    + 2 * widget.style().pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, option, widget))
    return width


def shown_whole(widget) -> bool:
    rect = QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())
    shown, parent = rect, widget.parentWidget()
    while parent is not None:
        shown = shown.intersected(QRect(parent.mapToGlobal(parent.rect().topLeft()), parent.size()))
        parent = parent.parentWidget()
    return shown == rect


def cut(top: QWidget, *, elided=()) -> list[str]:
    """Every visible caption, wrapped label and placeholder under ``top`` that is not shown whole."""
    problems = []
    for widget in [top, *top.findChildren(QWidget)]:
        if not widget.isVisible() or widget.window().isHidden():
            continue
        name = widget.objectName() or type(widget).__name__
        if isinstance(widget, QLabel) and widget.text() and not isinstance(widget, tuple(elided)):
            text = widget.text()[:50]
            if widget.wordWrap():
                need = widget.heightForWidth(widget.width())
                if need > widget.height():
                    problems.append(f"{name} {text!r}: {widget.height()} px high, needs {need}")
            elif widget.sizePolicy().horizontalPolicy() != QSizePolicy.Policy.Ignored \
                    and widget.width() < needed_width(widget):
                problems.append(f"{name} {text!r}: {widget.width()} px wide, needs {needed_width(widget)}")
        elif isinstance(widget, QAbstractButton) and widget.text() \
                and widget.sizePolicy().horizontalPolicy() != QSizePolicy.Policy.Ignored \
                and widget.width() < needed_width(widget):
            problems.append(f"{name} {widget.text()!r}: {widget.width()} px wide, needs {needed_width(widget)}")
        elif isinstance(widget, QPlainTextEdit) and widget.placeholderText() and not widget.toPlainText():
            viewport = widget.viewport()
            room = viewport.width() - 2 * widget.document().documentMargin()
            lines = QFontMetrics(widget.font()).boundingRect(
                QRect(0, 0, max(1, int(room)), 10_000), Qt.TextFlag.TextWordWrap, widget.placeholderText()).height()
            if lines + 2 * widget.document().documentMargin() > viewport.height():
                problems.append(f"{name} placeholder {widget.placeholderText()[:40]!r}: {viewport.height()} px "
                                f"high, needs {lines + 2 * widget.document().documentMargin():.0f}")
        if isinstance(widget, (QLabel, QAbstractButton)) and widget.parentWidget() is not None \
                and not shown_whole(widget) and not _in_scroll_area(widget):
            problems.append(f"{name} {getattr(widget, 'text', lambda: '')()[:40]!r}: shown in part")
    return problems


def _in_scroll_area(widget) -> bool:
    from PySide6.QtWidgets import QAbstractScrollArea

    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False
