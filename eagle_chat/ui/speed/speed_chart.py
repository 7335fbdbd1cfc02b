"""SpeedChart: live tokens/s, one line per reply, coloured by mode, on a time axis from the reply's start."""

from __future__ import annotations

import math

from PySide6.QtCharts import QChart, QChartView, QLineSeries, QValueAxis
from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QPointF, Qt, QTimer
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QWidget

from eagle_chat.ui.i18n import translate
from eagle_chat.ui.speed.chart_style import PALETTE_EVENTS, series_pen, style_chart

# The line's name when the caller gives none ("EAGLE-3" is a name, not translated).
MODE_NAMES = {"speculative": "EAGLE-3", "baseline": QT_TRANSLATE_NOOP("SpeedChart", "baseline")}
MAX_SERIES = 8


REDRAW_INTERVAL_MS = 250  # a speed curve reads fine at 4 Hz; each redraw takes CPU from inference


def _nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 x 10^n at or above ``value``: axes move in steps, not on every point."""
    magnitude = 10.0 ** math.floor(math.log10(value)) if value > 0 else 1.0
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if value <= step * magnitude:
            return step * magnitude
    return 10.0 * magnitude


class SpeedChart(QChartView):
    """Call ``begin(key, mode)``, then ``add_points(key, points)`` as they come; old lines fade out.

    Points are drawn in batches at most every ``REDRAW_INTERVAL_MS``, and the axes grow in round steps,
    so a fast stream costs a few redraws per second rather than one per batch of tokens.
    """

    def __init__(self, parent: QWidget | None = None, *, max_series: int = MAX_SERIES):
        self._chart = QChart()
        super().__init__(self._chart, parent)
        self.setObjectName("speedChart")
        self.setAccessibleName(self.tr("Speed chart"))
        self.setAccessibleDescription(self.tr(
            "Tokens per second of each reply over the seconds since it started; EAGLE-3 lines solid, "
            "baseline lines dashed"))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(180)
        self._chart.setTitle(self.tr("tokens/s"))
        self._chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        self._x = QValueAxis()
        self._x.setTitleText(self.tr("s", "seconds since the reply started"))
        self._x.setLabelFormat("%.1f")
        self._y = QValueAxis()
        self._y.setLabelFormat("%.0f")
        self._chart.addAxis(self._x, Qt.AlignmentFlag.AlignBottom)
        self._chart.addAxis(self._y, Qt.AlignmentFlag.AlignLeft)
        self._max_series = max_series
        self._series: dict[object, tuple[str, QLineSeries]] = {}
        self._x_max = 1.0
        self._y_max = 10.0
        self._pending: dict[object, list[tuple[float, float]]] = {}
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.setInterval(REDRAW_INTERVAL_MS)
        self._redraw_timer.timeout.connect(self.flush)
        self._colours = style_chart(self._chart, self.palette())
        self._apply_ranges()

    def begin(self, key: object, mode: str, label: str | None = None) -> QLineSeries:
        """Start a new line for reply ``key``."""
        while len(self._series) >= self._max_series:
            oldest = next(iter(self._series))
            self._chart.removeSeries(self._series.pop(oldest)[1])
        series = QLineSeries()
        series.setName(label or translate("SpeedChart", MODE_NAMES.get(mode, mode)))
        series.setPen(series_pen(mode, self._colours))
        self._chart.addSeries(series)
        series.attachAxis(self._x)
        series.attachAxis(self._y)
        self._series[key] = (mode, series)
        self._refresh_legend()
        return series

    def add_points(self, key: object, points: list[tuple[float, float]]) -> None:
        """Queue points for reply ``key``; they are drawn with the next redraw (``flush`` draws now)."""
        if key not in self._series or not points:
            return
        self._pending.setdefault(key, []).extend(points)
        if not self._redraw_timer.isActive():
            self._redraw_timer.start()

    def flush(self) -> None:
        """Draw every queued point now (also called when a reply ends, so its line is complete)."""
        self._redraw_timer.stop()
        pending, self._pending = self._pending, {}
        for key, points in pending.items():
            entry = self._series.get(key)
            if entry is None:
                continue
            entry[1].append([QPointF(t, rate) for t, rate in points])
            self._x_max = max(self._x_max, max(t for t, _ in points))
            self._y_max = max(self._y_max, max(rate for _, rate in points))
        if pending:
            self._apply_ranges()

    def series_for(self, key: object) -> QLineSeries | None:
        entry = self._series.get(key)
        return entry[1] if entry else None

    def series_by_mode(self, mode: str) -> list[QLineSeries]:
        return [s for m, s in self._series.values() if m == mode]

    def clear(self) -> None:
        self._pending.clear()
        self._redraw_timer.stop()
        for _, series in self._series.values():
            self._chart.removeSeries(series)
        self._series.clear()
        self._x_max, self._y_max = 1.0, 10.0
        self._apply_ranges()

    def _apply_ranges(self) -> None:
        x_top, y_top = _nice_ceiling(self._x_max), _nice_ceiling(self._y_max * 1.15)
        if (self._x.max(), self._y.max()) != (x_top, y_top):
            self._x.setRange(0.0, x_top)
            self._y.setRange(0.0, y_top)

    def _refresh_legend(self) -> None:
        """One legend entry per mode (the newest line of each), not one per reply."""
        newest: dict[str, QLineSeries] = {}
        for mode, series in self._series.values():
            newest[mode] = series
        for mode, series in self._series.values():
            for marker in self._chart.legend().markers(series):
                marker.setVisible(newest.get(mode) is series)

    def _apply_palette(self) -> None:
        """Chart and lines in the colours of the current palette (light or dark)."""
        self._colours = style_chart(self._chart, self.palette())
        for mode, series in self._series.values():
            series.setPen(series_pen(mode, self._colours))
        self._refresh_legend()  # setTheme shows every marker again

    # --- Qt overrides ---------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() in PALETTE_EVENTS:
            self._apply_palette()
        super().changeEvent(event)
