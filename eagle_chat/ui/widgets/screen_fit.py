"""Windows that fit the screen they open on: the main window, the comparison and every dialog.

A laptop at 1280×720 (or 1920×1080 at 150 % scaling, the same in logical pixels) has less room than the
1280×800 EagleChat used to open at whatever the screen: Stop, the status bar and the API server switch ended
below its edge. Windows are sized to their preferred size where it fits the screen's *available* area (the
desktop minus panels and docks), else to that area; a saved geometry is restored only where it still fits;
and once a window is shown, and its window manager's frame is known, it is moved (and shrunk) back inside.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

MAIN_WINDOW_SIZE = QSize(1280, 800)
FRAME_ALLOWANCE = QSize(16, 40)
"""A window manager's borders and title bar, before a window is shown and its real frame is known."""


def available_area(widget: QWidget) -> QRect:
    """The available geometry of the screen ``widget`` is on (or will open on)."""
    screen = QGuiApplication.screenAt(widget.geometry().center()) if widget.isVisible() else None
    screen = screen or widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fit(widget: QWidget, preferred: QSize, *, centre: bool = False) -> None:
    """Give the top-level ``widget`` its ``preferred`` size, or as much of its screen as it may take; with
    ``centre``, place it in the middle of that screen (a dialog is left for Qt to centre on its parent)."""
    area = available_area(widget)
    room = (area.size() - FRAME_ALLOWANCE).expandedTo(QSize(1, 1))
    size = preferred.boundedTo(room)
    widget.resize(size)
    if centre:
        corner = area.center() - QPoint(size.width() // 2, (size.height() + FRAME_ALLOWANCE.height()) // 2)
        widget.move(max(area.left(), corner.x()), max(area.top(), corner.y()))


def fits(widget: QWidget) -> bool:
    """The window as placed lies within one screen's available area (a restored geometry may not: it was
    saved on a larger screen, or on a monitor that is gone)."""
    screen = QGuiApplication.screenAt(widget.geometry().center())
    return screen is not None and screen.availableGeometry().contains(widget.geometry())


def keep_on_screen(widget: QWidget) -> None:
    """When ``widget`` is first shown, bring its frame (window manager's decorations included) inside its
    screen's available area, shrinking it if it must. Later shows leave it where the user put it."""
    guard = _OnScreenGuard(widget)
    widget.installEventFilter(guard)


def bring_inside(widget: QWidget) -> None:
    """Move (and if needed shrink) the shown ``widget`` so its whole frame lies in its screen's available area."""
    if not widget.isVisible() or widget.isMaximized() or widget.isFullScreen():
        return
    area, frame = available_area(widget), widget.frameGeometry()
    if area.contains(frame):
        return
    decoration = frame.size() - widget.size()
    widget.resize(widget.size().boundedTo(area.size() - decoration))
    frame = widget.frameGeometry()
    x = min(max(frame.x(), area.left()), area.right() + 1 - frame.width())
    y = min(max(frame.y(), area.top()), area.bottom() + 1 - frame.height())
    widget.move(max(x, area.left()), max(y, area.top()))


class _OnScreenGuard(QObject):
    def __init__(self, widget: QWidget):
        super().__init__(widget)
        self._widget = widget

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self._widget and event.type() == QEvent.Type.Show:
            self._widget.removeEventFilter(self)
            QTimer.singleShot(0, self, lambda: bring_inside(self._widget))  # once the frame is known
        return False
