"""PresenterMode: the compare view full screen for an audience — which screen, what type size, does it fit.

The room reads a projector, often 1280×720 or 1024×768, from metres away, and the presenter keeps the laptop:
so the view goes to a second screen when there is one (the main window stays where it is), takes
:data:`DEMO_FONT_SCALE` times the normal type for the prompt, the answers and the charts, and a headline a tenth
of that screen's height (:class:`~eagle_chat.ui.speed.verdict_board.VerdictBoard`), the details under it a 48th,
each answer at least :data:`DEMO_ANSWER_LINES` whole lines; the speed-demo offer (a note for the presenter) stays
at the normal size. :meth:`needed_size` measures what that
layout needs on a given screen: the pre-flight's "the large type fits".
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QSize
from PySide6.QtGui import QFont, QGuiApplication, QScreen

DEMO_FONT_SCALE = 1.6
DEMO_ANSWER_LINES = 5  # full screen, each answer shows this many whole lines at least (room at 1024×768)
DEMO_MARGIN = 8  # px around the full-screen view: every line of a 720p screen counts


def demo_screen() -> QScreen:
    """Where the full-screen comparison goes: a second screen (the projector) if there is one, so the
    presenter's laptop keeps the main window; else the only one."""
    primary = QGuiApplication.primaryScreen()
    return next((s for s in QGuiApplication.screens() if s is not primary), primary)


class PresenterMode:
    def __init__(self, view):
        self.view = view
        self.on = False
        self._normal = QFont(view.font())
        self._margins = view.layout().contentsMargins()
        self._window_geometry = None  # where the window was before it went full screen
        self.apply_type(None)

    def set(self, on: bool) -> None:
        """Full screen with large type on the demo screen, or back to a window with the normal type."""
        view = self.view
        screen = demo_screen() if on else None
        if screen is not None and view.screen() is not screen:
            view.setScreen(screen)
            view.move(screen.geometry().topLeft())
        self.apply_type(screen)
        if on:
            if not self.on:
                self._window_geometry = view.geometry()
            view.setGeometry(screen.geometry())  # without a window manager, showFullScreen alone resizes nothing
            view.showFullScreen()
            view.run_button.setFocus()
        else:
            view.showNormal()
            if self.on and self._window_geometry is not None:
                view.setGeometry(self._window_geometry)
        self.on = on

    def needed_size(self, screen: QScreen) -> QSize:
        """What the full-screen comparison needs on ``screen`` in its large type: the minimum of the view's
        real layout there, its word-wrapped labels at the screen's width, with the longest headline."""
        view, board = self.view, self.view.board
        headline = board.headline.text()
        self.apply_type(screen)
        board.headline.setText(board.longest_headline())
        layout = view.layout()
        layout.invalidate()
        minimum = layout.totalMinimumSize()
        width = max(minimum.width(), screen.geometry().width())
        size = QSize(minimum.width(), layout.totalMinimumHeightForWidth(width))
        board.headline.setText(headline)
        self.apply_type(view.screen() if self.on else None)
        return size

    def apply_type(self, screen: QScreen | None) -> None:
        """Large type for a full screen ``screen`` (None: the window's normal type)."""
        view = self.view
        font = QFont(self._normal)
        if screen is not None:
            font.setPointSizeF(self._normal.pointSizeF() * DEMO_FONT_SCALE)
        for widget in (view.controls, view.presets_row, *view.titles, view.baseline_pane, view.speculative_pane,
                       view.chart, view.acceptance):
            widget.setFont(font)
        for pane in (view.baseline_pane, view.speculative_pane):  # the room reads whole answers, not a glimpse
            pane.setMinimumHeight(0 if screen is None else pane.height_for_lines(DEMO_ANSWER_LINES))
        margins = self._margins if screen is None else QMargins(*(DEMO_MARGIN,) * 4)
        view.layout().setContentsMargins(margins)
        # Full screen, the answers as tall as the charts: with the charts twice their height the answers
        # showed 2–4 lines at 720p.
        view.layout().setStretchFactor(view.panes, 3 if screen is None else 2)
        view.offer.setFont(self._normal)  # a note for the presenter, not for the room
        view.board.set_large(None if screen is None else screen.geometry().height(), self._normal)
