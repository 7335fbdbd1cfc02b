"""Dark mode for the speed side: the charts, the auto-tune chart, the drafted-token tint and the model bar's
secondary text follow the palette when it changes, and stay readable on light and dark (contrast computed
from the colours actually used)."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from PySide6.QtCharts import QChart
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette, QPen

from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.core.measure.bench import BenchReport, BenchSummary
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.speed.controls import ModelBar, OptionsPanel
from eagle_chat.ui.chat.drafted_text import DraftedPane, tint_colour
from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart
from eagle_chat.ui.speed.chart_style import MODE_FIELDS
from eagle_chat.ui.speed.speed_chart import SpeedChart
from tests.helpers.theme import dark_app

BASE, TEXT, WINDOW = QPalette.ColorRole.Base, QPalette.ColorRole.Text, QPalette.ColorRole.Window


def distance(a: QColor, b: QColor) -> float:
    return math.dist((a.red(), a.green(), a.blue()), (b.red(), b.green(), b.blue()))


def check_chart_frame(chart: QChart, palette: QPalette, dark: bool) -> QColor:
    """Theme, background, title and axes follow ``palette``; returns the background colour."""
    assert theme.is_dark(palette) == dark
    assert chart.theme() == (QChart.ChartTheme.ChartThemeDark if dark else QChart.ChartTheme.ChartThemeLight)
    background = chart.backgroundBrush().color()
    assert background == palette.color(BASE)
    assert chart.titleBrush().color() == palette.color(TEXT)
    assert chart.legend().labelColor() == palette.color(TEXT)
    for axis in chart.axes():
        assert axis.labelsColor() == palette.color(TEXT) and axis.titleBrush().color() == palette.color(TEXT)
        assert axis.gridLineColor().alpha() < 80  # a faint grid, not a dark grid on a dark chart
        assert theme.contrast_ratio(axis.labelsColor(), background) >= 4.5
    return background


def check_speed_chart(chart: SpeedChart, dark: bool) -> None:
    colours = theme.DARK if dark else theme.LIGHT
    background = check_chart_frame(chart.chart(), chart.palette(), dark)
    pens, latest = {}, chart.series_for(chart.keys()[-1])
    for mode, field in MODE_FIELDS.items():
        (series,) = chart.series_by_mode(mode)
        pen, colour = series.pen(), QColor(getattr(colours, field))
        full = theme.contrast_ratio(colour, background)
        assert full >= 3.0, (mode, colour.name())  # AA for graphics
        if series is latest:
            assert pen.color() == colour, mode
        else:  # earlier replies faded towards the background, but still drawn where the eye finds them
            assert pen.color().alpha() == 255 and 1.6 <= theme.contrast_ratio(pen.color(), background) < full / 1.5
        assert (pen.style() == Qt.PenStyle.DashLine) == mode.endswith("baseline"), mode
        pens[mode] = QPen(pen)
        pens[mode].setColor(colour)
    for a, b in combinations(pens, 2):  # each mode tells from every other: by colour, or colour and dash
        apart = distance(pens[a].color(), pens[b].color())
        assert apart >= 60 and (apart >= 100 or pens[a].style() != pens[b].style()), (a, b, apart)


def test_the_speed_chart_follows_the_palette_and_its_lines_stay_apart(qtbot, qapp):
    chart = SpeedChart()
    qtbot.addWidget(chart)
    for key, mode in enumerate(MODE_FIELDS):
        chart.begin(key, mode)
    check_speed_chart(chart, dark=False)
    with dark_app(qapp):
        check_speed_chart(chart, dark=True)
        chart.begin(99, "speculative")  # a line begun in dark mode is drawn in the dark colours too
        assert chart.series_for(99).pen().color() == QColor(theme.DARK.speculative)  # the latest: opaque
        chart.clear()
        for key, mode in enumerate(MODE_FIELDS):
            chart.begin(key, mode)
    check_speed_chart(chart, dark=False)


def check_acceptance(chart: AcceptanceChart, dark: bool) -> None:
    colours = theme.DARK if dark else theme.LIGHT
    background = check_chart_frame(chart.chart(), chart.palette(), dark)
    assert chart._bars.color() == QColor(colours.other_series)
    assert chart._rate.pen().color() == QColor(colours.speculative)
    for colour in (chart._bars.color(), chart._rate.pen().color()):
        assert theme.contrast_ratio(colour, background) >= 3.0, colour.name()


def test_the_acceptance_chart_follows_the_application_palette(qtbot, qapp):
    chart = AcceptanceChart()
    qtbot.addWidget(chart)
    check_acceptance(chart, dark=False)
    with dark_app(qapp):
        check_acceptance(chart, dark=True)
    check_acceptance(chart, dark=False)


def tune_report() -> BenchReport:
    summary = [BenchSummary(k=k, baseline_tokens_per_s=40.0, speculative_tokens_per_s=rate, speedup=rate / 40.0,
                            identical_output=True) for k, rate in ((3, 61.0), (5, 74.0), (7, 58.0))]
    return BenchReport("CPU", "f32", "same", 32, ["p"], [], summary)


def check_tune_chart(dialog, dark: bool) -> None:
    colours = theme.DARK if dark else theme.LIGHT
    view = dialog.chart_view
    background = check_chart_frame(view.chart(), view.palette(), dark)
    assert dialog._bars.color() == QColor(colours.speculative)
    pen = dialog._baseline.pen()
    assert pen.color() == QColor(colours.baseline) and pen.style() == Qt.PenStyle.DashLine
    for colour in (dialog._bars.color(), pen.color()):
        assert theme.contrast_ratio(colour, background) >= 3.0


def test_the_auto_tune_chart_follows_the_palette(qtbot, qapp, open_window):
    dialog = open_window().open_tune()
    dialog._plot(tune_report())
    check_tune_chart(dialog, dark=False)
    with dark_app(qapp):
        check_tune_chart(dialog, dark=True)
        dialog._plot(tune_report())  # a sweep that ends in dark mode is plotted dark
        check_tune_chart(dialog, dark=True)
    check_tune_chart(dialog, dark=False)


@pytest.mark.parametrize("colours", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_text_under_the_drafted_tint_stays_readable(qapp, colours):
    page = QColor("#ffffff") if not colours.dark else theme.dark_palette().color(BASE)
    tint = theme.draft_tint(colours)
    for text, background in ((colours.text, page), (colours.code_text, colours.code_background),
                             (colours.muted, page)):
        under = theme.composite(tint, background)
        ratio = theme.contrast_ratio(theme.composite(tint, text), under)
        assert ratio >= 4.5, (text, QColor(background).name(), round(ratio, 2))
        assert theme.contrast_ratio(under, background) >= 1.2  # and the tint shows


def tinted_pixels(pane: DraftedPane, tint: QColor) -> int:
    expected = theme.composite(tint, pane.palette().color(BASE))
    image = pane.viewport().grab().toImage()
    return sum(distance(QColor(image.pixel(x, y)), expected) <= 4
               for x in range(0, image.width(), 2) for y in range(0, image.height(), 2))


def test_the_painted_tint_follows_the_palette(qtbot, qapp):
    pane = DraftedPane()
    qtbot.addWidget(pane)
    pane.resize(400, 200)
    record = StepRecord()
    record.extend([(4, 12, 2)] * 6)  # six steps, each: 3 drafted tokens accepted (12 characters), 2 its own
    pane.set_tint(True)
    pane.show_reply("x" * 84, record)
    light, dark = theme.draft_tint(theme.LIGHT), theme.draft_tint(theme.DARK)
    assert tint_colour(pane) == light and tinted_pixels(pane, light) > 50
    with dark_app(qapp):
        assert tint_colour(pane) == dark
        assert tinted_pixels(pane, dark) > 50 and tinted_pixels(pane, light) == 0


def check_muted(owner, label, dark: bool) -> None:
    colour = (theme.DARK if dark else theme.LIGHT).muted
    assert f"color: {colour}" in label.styleSheet()
    assert theme.contrast_ratio(colour, owner.palette().color(WINDOW)) >= 4.5


def test_the_npu_tree_hint_and_the_sampling_note_follow_the_palette(qtbot, qapp):
    bar, options = ModelBar(), OptionsPanel()
    qtbot.addWidget(bar)
    qtbot.addWidget(options)
    bar.show_npu_tree("NPU drafts a tree: depth 4 × 2 branches, 7 candidates")
    options.lock_greedy(True)
    check_muted(bar, bar.npu_tree_label, dark=False)
    check_muted(options, options.sampling_note, dark=False)
    with dark_app(qapp):
        check_muted(bar, bar.npu_tree_label, dark=True)
        check_muted(options, options.sampling_note, dark=True)
    check_muted(bar, bar.npu_tree_label, dark=False)
