"""SpeedChart: live tokens/s, one line per reply, coloured by mode, on a time axis from the reply's start.

It lives in a side panel about 330 × 180 px, so every pixel of height counts: no chart title (the unit is the
value axis's title), slim margins, and as many ticks as fit whole — axes that Qt squeezes print "…" instead
of numbers. The latest reply is drawn bold and opaque, earlier ones thin and faded; hovering a line shows that
reply's figures.
"""

from __future__ import annotations

import math

from PySide6.QtCharts import QChart, QChartView, QLineSeries, QValueAxis
from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QMargins, QPointF, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QApplication, QToolTip, QWidget

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.ui.words.i18n import translate
from eagle_chat.ui.speed.chart_style import PALETTE_EVENTS, faded_pen, series_colour, series_pen, style_chart

# The line's name when the caller gives none ("EAGLE-3" is a name, not translated).
MODE_NAMES = {"speculative": "EAGLE-3", "baseline": QT_TRANSLATE_NOOP("SpeedChart", "baseline")}
MAX_SERIES = 8
MIN_HEIGHT = 170  # measured: below ~150 px Qt elides the axis labels even with one interval per axis
# The latest reply's line, and the earlier ones: thinner and faded, still visible on either theme.
LATEST_WIDTH, EARLIER_WIDTH, EARLIER_STRENGTH = 3.0, 1.5, 0.47
HOVER_DISTANCE = 8.0  # px from a line within which the tooltip names it
ON_LINE = 2.0  # px: the pointer is on a drawn line (the later of two crossing lines is drawn on top)
AXIS_FONT_SHARE = 0.9  # axis labels, titles and the legend, of the widget's font (large in demo mode)

REDRAW_INTERVAL_MS = 250  # a speed curve reads fine at 4 Hz; each redraw takes CPU from inference


def _nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 x 10^n at or above ``value``: axes move in steps, not on every point."""
    magnitude = 10.0 ** math.floor(math.log10(value)) if value > 0 else 1.0
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if value <= step * magnitude:
            return step * magnitude
    return 10.0 * magnitude


def tick_step(top: float, room: float, label: float) -> float:
    """A round step for an axis from 0 to ``top`` (a round number) that is ``room`` px long, whose labels
    need ``label`` px each (height on the value axis, width on the time axis) and as much again between
    them: at most 5 intervals, fewer on a short axis, and ``top`` itself a tick when a round step allows."""
    intervals = max(1, min(5, int(room // (2 * label)))) if label > 0 else 5
    step = _nice_ceiling(top / intervals)
    while step < top:
        count = top / step
        if abs(count - round(count)) < 1e-9:
            return step
        step = _nice_ceiling(step * 1.0001)  # the next round step up
    return top


def _distance_to_segment(p: QPointF, a: QPointF, b: QPointF) -> float:
    dx, dy = b.x() - a.x(), b.y() - a.y()
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p.x() - a.x()) * dx + (p.y() - a.y()) * dy) / length))
    return math.hypot(p.x() - a.x() - t * dx, p.y() - a.y() - t * dy)


class SpeedChart(QChartView):
    """Call ``begin(key, mode)``, then ``add_points(key, points)`` as they come, and ``finish(key, stats)``
    when the reply ends (its figures for the tooltip); earlier lines fade.

    Points are drawn in batches at most every ``REDRAW_INTERVAL_MS``, and the axes grow in round steps,
    so a fast stream costs a few redraws per second rather than one per batch of tokens.
    """

    def __init__(self, parent: QWidget | None = None, *, max_series: int = MAX_SERIES, latest_per_mode: bool = False):
        self._chart = QChart()
        super().__init__(self._chart, parent)
        self.setObjectName("speedChart")
        self.setAccessibleName(self.tr("Speed chart"))
        self.setAccessibleDescription(self.tr(
            "Tokens per second of each reply over the seconds since it started; EAGLE-3 lines solid, "
            "baseline lines dashed"))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(MIN_HEIGHT)
        self._chart.setMargins(QMargins(2, 2, 6, 0))
        self._chart.layout().setContentsMargins(0, 0, 0, 0)
        self._chart.setBackgroundRoundness(0)
        self._chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        self._x = QValueAxis()
        self._x.setTitleText(self.tr("s", "seconds since the reply started"))
        self._y = QValueAxis()
        self._y.setTitleText(self.tr("tokens/s"))
        for axis in (self._x, self._y):
            axis.setLabelFormat("%g")  # 0.5, 1, 1.5 and 250, 500: no "1.0" or "500.0"
            axis.setTickType(QValueAxis.TickType.TicksDynamic)
            axis.setTickAnchor(0.0)
        self._chart.addAxis(self._x, Qt.AlignmentFlag.AlignBottom)
        self._chart.addAxis(self._y, Qt.AlignmentFlag.AlignLeft)
        self._max_series = max_series
        self._latest_per_mode = latest_per_mode  # a comparison: the newest run of each mode stands out
        self._series: dict[object, tuple[str, QLineSeries]] = {}
        self._figures: dict[object, GenerationStats] = {}
        self._x_max = 1.0
        self._y_max = 10.0
        self._pending: dict[object, list[tuple[float, float]]] = {}
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.setInterval(REDRAW_INTERVAL_MS)
        self._redraw_timer.timeout.connect(self.flush)
        self._ticks_timer = QTimer(self)  # after the layout settles: the plot's size decides the ticks
        self._ticks_timer.setSingleShot(True)
        self._ticks_timer.setInterval(0)
        self._ticks_timer.timeout.connect(self._fit_ticks)
        self._chart.plotAreaChanged.connect(lambda _area: self._ticks_timer.start())
        self._scale = 1.0  # the widget's type over the application's: lines are drawn that much wider
        self._colours = style_chart(self._chart, self.palette())
        self._apply_fonts()
        self._apply_ranges()

    def begin(self, key: object, mode: str, label: str | None = None) -> QLineSeries:
        """Start a new line for reply ``key``: it becomes the latest, the others fade."""
        while len(self._series) >= self._max_series:
            self.remove(next(iter(self._series)))
        series = QLineSeries()
        series.setName(label or translate("SpeedChart", MODE_NAMES.get(mode, mode)))
        self._chart.addSeries(series)  # added last, so drawn over the earlier lines
        series.attachAxis(self._x)
        series.attachAxis(self._y)
        self._series[key] = (mode, series)
        self._restyle()
        return series

    def add_points(self, key: object, points: list[tuple[float, float]]) -> None:
        """Queue points for reply ``key``; they are drawn with the next redraw (``flush`` draws now)."""
        if key not in self._series or not points:
            return
        self._pending.setdefault(key, []).extend(points)
        if not self._redraw_timer.isActive():
            self._redraw_timer.start()

    def finish(self, key: object, stats: GenerationStats | None) -> None:
        """Reply ``key`` ended: draw the rest of its line, and keep its figures for the tooltip."""
        self.flush()
        if key in self._series and stats is not None:
            self._figures[key] = stats

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

    def rename(self, key: object, name: str) -> None:
        """Name reply ``key``'s line (the head of its tooltip, the legend): e.g. the method it ran with."""
        entry = self._series.get(key)
        if entry is not None:
            entry[1].setName(name)

    def set_note(self, text: str) -> None:
        """A line over the plot while it waits ("Warming up both modes…"); "" takes it away."""
        self._chart.setTitle(text)

    def series_for(self, key: object) -> QLineSeries | None:
        entry = self._series.get(key)
        return entry[1] if entry else None

    def series_by_mode(self, mode: str) -> list[QLineSeries]:
        return [s for m, s in self._series.values() if m == mode]

    def keys(self) -> list[object]:
        """The replies drawn, oldest first (the last is the latest)."""
        return list(self._series)

    def remove(self, key: object) -> None:
        """Take reply ``key``'s line off the chart (the newest left becomes the latest)."""
        entry = self._series.pop(key, None)
        self._pending.pop(key, None)
        self._figures.pop(key, None)
        if entry is not None:
            self._chart.removeSeries(entry[1])
            self._restyle()

    def clear(self) -> None:
        self._pending.clear()
        self._figures.clear()
        self._redraw_timer.stop()
        for _, series in self._series.values():
            self._chart.removeSeries(series)
        self._series.clear()
        self._x_max, self._y_max = 1.0, 10.0
        self._apply_ranges()

    def tooltip_at(self, pos) -> str:
        """The tooltip for viewport position ``pos``: the figures of the reply whose line passes within
        ``HOVER_DISTANCE`` px of it, or "" away from every line. Where lines cross, the one drawn on top
        (the later one) wins when the pointer is on it, as the user sees it there."""
        point = self._chart.mapFromScene(self.mapToScene(pos))
        best, nearest = None, HOVER_DISTANCE
        for key in reversed(self._series):
            series = self._series[key][1]
            drawn = [self._chart.mapToPosition(p, series) for p in series.points()]
            gaps = [_distance_to_segment(point, a, b) for a, b in zip(drawn, drawn[1:])] or [
                math.hypot(point.x() - p.x(), point.y() - p.y()) for p in drawn]
            if gaps and min(gaps) <= ON_LINE:
                return self._figures_text(key)
            if gaps and min(gaps) < nearest:
                best, nearest = key, min(gaps)
        return "" if best is None else self._figures_text(best)

    # --- internals -----------------------------------------------------------------------------------
    def _figures_text(self, key: object) -> str:
        series = self._series[key][1]
        latest = key in self._latest_keys()
        head = (self.tr("{name} — latest reply") if latest else self.tr("{name} — earlier reply")).format(
            name=series.name())
        stats = self._figures.get(key)
        if stats is None:  # still streaming (or failed): what the line shows so far
            if series.count() == 0:
                return head
            return head + "\n" + self.tr("{rate:.1f} tokens/s so far").format(rate=series.at(series.count() - 1).y())
        lines = [head, self.tr("{rate:.1f} tokens/s · {tokens} tokens").format(
            rate=stats.tokens_per_s, tokens=stats.generated_tokens)]
        if stats.mode == "speculative":  # a short tooltip: it opens over the chart it explains
            k = (self.tr("K={k} tree {tree}").format(k=stats.num_assistant_tokens, tree=stats.tree) if stats.tree
                 else f"K={stats.num_assistant_tokens}")
            lines.append(self.tr("{k} · {accepted} of {drafted} drafted tokens accepted").format(
                k=k, accepted=stats.accepted_tokens, drafted=stats.draft_tokens))
        return "\n".join(lines)

    def _apply_ranges(self) -> None:
        x_top, y_top = _nice_ceiling(self._x_max), _nice_ceiling(self._y_max * 1.15)
        if (self._x.max(), self._y.max()) != (x_top, y_top):
            self._x.setRange(0.0, x_top)
            self._y.setRange(0.0, y_top)
            self._fit_ticks()

    def _fit_ticks(self) -> None:
        """As many round ticks as the plot has room for whole labels (Qt elides the ones that do not fit)."""
        area = self._chart.plotArea()
        labels = QFontMetricsF(self._x.labelsFont())
        widest = max(labels.horizontalAdvance(self._x.labelFormat() % v) for v in (self._x.max(), 0.5))
        x_step = tick_step(self._x.max(), area.width(), widest)
        y_step = tick_step(self._y.max(), area.height(), labels.height())
        if self._x.tickInterval() != x_step:
            self._x.setTickInterval(x_step)
        if self._y.tickInterval() != y_step:
            self._y.setTickInterval(y_step)

    def _restyle(self) -> None:
        """The latest line bold and opaque, earlier ones thin and faded; one legend entry per mode (its
        newest line), its marker always in the mode's full colour."""
        latest = self._latest_keys()
        background = self._chart.backgroundBrush().color()
        newest: dict[str, QLineSeries] = {}
        for key, (mode, series) in self._series.items():
            series.setPen(series_pen(mode, self._colours, LATEST_WIDTH * self._scale) if key in latest
                          else faded_pen(mode, self._colours, background, EARLIER_WIDTH * self._scale,
                                         EARLIER_STRENGTH))
            newest[mode] = series
        legend = self._chart.legend()
        for mode, series in self._series.values():
            for marker in legend.markers(series):
                marker.setVisible(newest.get(mode) is series)
                marker.setBrush(series_colour(mode, self._colours))
                marker.setPen(QPen(Qt.PenStyle.NoPen))  # a plain swatch, not the line's dashes

    def _latest_keys(self) -> set:
        """The line drawn bold: the newest one, or with ``latest_per_mode`` the newest of each mode."""
        if not self._latest_per_mode:
            return set(list(self._series)[-1:])
        newest = {mode: key for key, (mode, _) in self._series.items()}
        return set(newest.values())

    def _apply_palette(self) -> None:
        """Chart and lines in the colours of the current palette (light or dark)."""
        self._colours = style_chart(self._chart, self.palette())
        self._apply_fonts()  # setTheme resets the fonts too
        self._restyle()  # setTheme resets the pens and shows every marker again

    def _apply_fonts(self) -> None:
        """Axis labels, titles and the legend in the widget's type — large in demo mode, where the room reads
        them from afar — and the lines as much wider."""
        font = QFont(self.font())
        self._scale = max(1.0, font.pointSizeF() / QApplication.font().pointSizeF())
        small = QFont(font)
        small.setPointSizeF(font.pointSizeF() * AXIS_FONT_SHARE)
        title = QFont(small)
        title.setBold(True)
        for axis in (self._x, self._y):
            axis.setLabelsFont(small)
            axis.setTitleFont(title)
        self._chart.legend().setFont(small)
        self._chart.setTitleFont(font)
        self._restyle()
        self._ticks_timer.start()

    # --- Qt overrides ---------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() in PALETTE_EVENTS:
            self._apply_palette()
        elif event.type() == QEvent.Type.FontChange:
            self._apply_fonts()
        super().changeEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)
