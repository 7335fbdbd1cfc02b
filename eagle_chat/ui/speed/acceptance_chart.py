"""AcceptanceChart: how far each verification step of the reply on screen got, drawn live.

Bars: how many steps accepted 0, 1, … K of their drafted tokens (the counts add up to the verification
steps). Line: for each draft position 1…K, the share of steps whose drafted token there was accepted (a
step accepts a prefix of its draft, so the line only falls). Colours follow the palette (light or dark): bars in
the theme's accent, the line in the EAGLE-3 colour.
"""

from __future__ import annotations

from PySide6.QtCharts import QBarCategoryAxis, QBarSeries, QBarSet, QChart, QChartView, QLineSeries, QValueAxis
from PySide6.QtCore import QEvent, QMargins, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QApplication, QWidget

from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.ui.words import texts
from eagle_chat.ui.speed.chart_style import PALETTE_EVENTS, style_chart

def count_axis_top(top: int) -> int:
    """The steps axis's top for a tallest bar of ``top``: 4 doubled until it holds it (0-4-8… with five ticks),
    so a streaming reply changes the range a few times, not at every redraw."""
    axis = 4
    while axis < top:
        axis *= 2
    return axis


REDRAW_INTERVAL_MS = 250  # like the speed chart: a few redraws a second while a reply streams


class AcceptanceChart(QChartView):
    """``show_steps(record, K)`` as the reply streams (drawn at most every 250 ms), ``flush()`` draws now."""

    def __init__(self, parent: QWidget | None = None):
        self._chart = QChart()
        super().__init__(self._chart, parent)
        self.setObjectName("acceptanceChart")
        self.setAccessibleName(self.tr("Acceptance chart"))
        self.setAccessibleDescription(self.tr(
            "Bars: how many verification steps accepted 0, 1, … K drafted tokens. Line: the share of steps "
            "whose drafted token at each draft position was accepted"))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(180)
        self._bars = QBarSet(self.tr("steps"))
        self._series = QBarSeries()
        self._series.append(self._bars)
        self._rate = QLineSeries()
        self._rate.setName(self.tr("accepted at this draft position"))
        self._x = QBarCategoryAxis()
        self._x.setTitleText(self.tr("tokens accepted (bars) · draft position (line)"))
        self._count_axis = QValueAxis()
        self._count_axis.setLabelFormat("%d")
        self._count_axis.setTitleText(self.tr("steps"))
        self._count_axis.setTickCount(5)
        self._count_top = 0  # the steps axis's top (count_axis_top); 0 until the first draw
        self._rate_axis = QValueAxis()
        self._rate_axis.setRange(0, 100)
        self._rate_axis.setLabelFormat("%d%%")
        self._rate_axis.setTickCount(5)
        self._chart.addSeries(self._series)
        self._chart.addSeries(self._rate)
        self._chart.addAxis(self._x, Qt.AlignmentFlag.AlignBottom)
        self._chart.addAxis(self._count_axis, Qt.AlignmentFlag.AlignLeft)
        self._chart.addAxis(self._rate_axis, Qt.AlignmentFlag.AlignRight)
        for series, axes in ((self._series, (self._x, self._count_axis)), (self._rate, (self._x, self._rate_axis))):
            for axis in axes:
                series.attachAxis(axis)
        self._chart.legend().setVisible(False)  # the axis titles say which is which
        self._chart.setMargins(QMargins(2, 2, 2, 2))
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.setInterval(REDRAW_INTERVAL_MS)
        self._redraw_timer.timeout.connect(self.flush)
        self._pending: tuple[StepRecord | None, int, int | None, str | None] | None = None
        self.counts: list[int] = []
        self.rates: list[float] = []
        self.caption = ""
        self._apply_palette()
        self.show_steps(None, 5, now=True)

    def show_steps(self, record: StepRecord | None, max_accepted: int, genai_accepted: int | None = None, *,
                   now: bool = False, method: str | None = None) -> None:
        """Show ``record`` (K = ``max_accepted``, the depth for a tree); None empties the chart. ``method``: the
        speculation method that drafted (core speculation), named first in the title when known."""
        self._pending = (record, max(1, max_accepted), genai_accepted, method)
        if now:
            self.flush(now=True)
        elif not self._redraw_timer.isActive():
            self._redraw_timer.start()

    def flush(self, *, now: bool = False) -> None:
        self._redraw_timer.stop()
        if self._pending is None:
            return
        record, k, genai_accepted, method = self._pending
        self._pending = None
        counts = record.histogram(k) if record is not None else [0] * (k + 1)
        rates = record.position_acceptance(len(counts) - 1) if record is not None else [0.0] * k
        if len(counts) != len(self.counts):
            self._x.setCategories([str(n) for n in range(len(counts))])
            self._bars.remove(0, self._bars.count())
            self._bars.append([float(c) for c in counts])
        else:
            for index, count in enumerate(counts):
                if count != self.counts[index]:
                    self._bars.replace(index, float(count))
        self._rate.replace([QPointF(position, rate * 100.0) for position, rate in enumerate(rates, start=1)])
        top = count_axis_top(max(counts, default=0))
        # A new range lays the chart out again (1.1-2.3 ms of the GUI thread each, measured): the axis grows as
        # bars need it, but shrinks only for a reply's whole record (``now``), never for the empty chart each
        # reply starts with — shrinking there and growing back cost every reply two layouts.
        settled = now and record is not None and record.verification_steps > 0
        if top > self._count_top or (top < self._count_top and settled):
            self._count_top = top
            self._count_axis.setRange(0, top)
        self.counts, self.rates = counts, rates
        self.caption = texts.acceptance_caption(record, len(counts) - 1, genai_accepted, method)
        self._chart.setTitle(" · ".join(self.caption.split(" · ")[:3]))  # the rest is in the tooltip
        self.setToolTip(texts.acceptance_tooltip(self.caption))

    def set_note(self, text: str) -> None:
        """Say what the chart waits for in its title ("Warming up both modes…"), until steps come."""
        self._chart.setTitle(text)

    def clear(self) -> None:
        self.show_steps(None, max(1, len(self.counts) - 1), now=True)

    def _apply_palette(self) -> None:
        """Light or dark chart to match the window; bars in the theme's accent, the line in EAGLE-3's colour."""
        colours = style_chart(self._chart, self.palette())
        accent = QColor(colours.other_series)
        self._bars.setColor(accent)
        self._bars.setBorderColor(accent)
        pen = QPen(QColor(colours.speculative))
        pen.setWidthF(2.5 * max(1.0, self.font().pointSizeF() / QApplication.font().pointSizeF()))
        self._rate.setPen(pen)
        font = self._chart.titleFont()
        font.setPointSizeF(max(7.0, self.font().pointSizeF() * 0.9))
        self._chart.setTitleFont(font)
        small = self.font()
        small.setPointSizeF(max(7.0, small.pointSizeF() * 0.8))
        for axis in (self._x, self._count_axis, self._rate_axis):
            axis.setTitleFont(small)
            axis.setLabelsFont(small)

    # --- Qt overrides ---------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() in PALETTE_EVENTS or event.type() == QEvent.Type.FontChange:
            self._apply_palette()  # the type, too: large in demo mode
        super().changeEvent(event)
