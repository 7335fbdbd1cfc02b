"""What the room sees of a comparison, piece by piece: the charts' type and lines grow with the large type, the
two modes differ in grey, a reasoning reply's thinking is folded in the panes (never raw tags), the warm-up
says what it does, the live tokens/s are large numbers, and Esc closes the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont

from eagle_chat.ui import theme
from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart
from eagle_chat.ui.speed.chart_style import series_pen
from eagle_chat.ui.speed.speed_chart import LATEST_WIDTH, SpeedChart


def _large(widget, scale: float = 1.6) -> float:
    font = QFont(widget.font())
    font.setPointSizeF(font.pointSizeF() * scale)
    widget.setFont(font)
    return font.pointSizeF()


def test_chart_numbers_titles_legend_and_lines_grow_with_the_large_type(qtbot):
    chart = SpeedChart(latest_per_mode=True)
    qtbot.addWidget(chart)
    series = chart.begin(1, "speculative")
    normal = chart.chart().axes()[0].labelsFont().pointSizeF()
    assert series.pen().widthF() == LATEST_WIDTH
    size = _large(chart)
    for axis in chart.chart().axes():
        assert axis.labelsFont().pointSizeF() >= 0.85 * size > 1.4 * normal, axis.labelsFont().pointSizeF()
        assert axis.titleFont().pointSizeF() >= 0.85 * size
    assert chart.chart().legend().font().pointSizeF() >= 0.85 * size
    assert series.pen().widthF() >= 1.5 * LATEST_WIDTH  # the line as much bolder

    acceptance = AcceptanceChart()
    qtbot.addWidget(acceptance)
    before = acceptance.chart().axes()[0].labelsFont().pointSizeF()
    _large(acceptance)
    assert acceptance.chart().axes()[0].labelsFont().pointSizeF() >= 1.5 * before


def test_the_two_modes_differ_in_grey_as_well_as_in_colour_and_dashes():
    """A washed-out projector (or a greyscale print) keeps lightness: the modes' luminance differs by a
    visible step on both themes (it was 1.3:1, emerald and grey of the same lightness), and the baseline is
    dashed."""
    for colours in (theme.LIGHT, theme.DARK):
        fast, base = QColor(colours.speculative), QColor(colours.baseline)
        # in grey only luminance is left: the two lines' contrast with each other, as WCAG computes it
        assert theme.contrast_ratio(fast, base) >= 2.0, (colours.speculative, colours.baseline)
        assert series_pen("baseline", colours).style() == Qt.PenStyle.DashLine
        assert series_pen("speculative", colours).style() == Qt.PenStyle.SolidLine
