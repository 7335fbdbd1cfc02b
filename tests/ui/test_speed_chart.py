"""The live chart draws in batches, a few times a second, with axes that grow in round steps; at the size
the side panel gives it, every axis number is drawn whole, the latest reply stands out from the earlier
ones, and hovering a line shows that reply's figures."""

import math
from dataclasses import replace

from PySide6.QtCore import QEvent, QPoint, QPointF
from PySide6.QtGui import QColor, QHelpEvent, QImage
from PySide6.QtWidgets import QApplication, QToolTip

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.speed.speed_chart import (
    REDRAW_INTERVAL_MS,
    SpeedChart,
    _nice_ceiling,
)


def test_points_are_drawn_in_batches_and_a_finished_reply_is_complete(qtbot):
    chart = SpeedChart()
    qtbot.addWidget(chart)
    series = chart.begin(1, "speculative")
    chart.add_points(1, [(0.01, 500.0), (0.02, 700.0)])
    chart.add_points(1, [(0.03, 810.0)])
    assert series.count() == 0  # queued, not drawn per batch of tokens
    qtbot.waitUntil(lambda: series.count() == 3, timeout=REDRAW_INTERVAL_MS * 8)
    chart.add_points(1, [(0.04, 820.0)])
    chart.flush()  # a reply that ends shows all of its line at once
    assert series.count() == 4 and series.at(3).y() == 820.0
    assert chart._y.max() == 1000.0 and chart._x.max() == 1.0  # at least one second shown
    chart.add_points(1, [(1.3, 900.0)])
    chart.flush()
    assert chart._x.max() == 2.0


def test_axes_grow_in_round_steps():
    assert [_nice_ceiling(v) for v in (0.042, 0.9, 1.0, 1.3, 2.2, 3.0, 7.5, 11.0, 931.5)] == [
        0.05, 1.0, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 1000.0]


def test_points_for_a_line_that_was_dropped_are_ignored(qtbot):
    chart = SpeedChart(max_series=1)
    qtbot.addWidget(chart)
    chart.begin(1, "baseline")
    chart.add_points(1, [(0.1, 10.0)])
    chart.begin(2, "speculative")  # drops line 1 (one line at most)
    chart.flush()
    assert chart.series_for(1) is None and chart.series_for(2).count() == 0


# --- what the chart paints: whole axis labels, the latest reply apart, figures on hover -------------------

ELLIPSES = ("…", "...")


def drawn_texts(view) -> dict[str, list[str]]:
    """The texts the chart draws now, by kind: "numbers" (axis labels) and "titles" (axis titles and legend)."""
    chart, drawn = view.chart(), {"numbers": [], "titles": []}
    for item in view.scene().items():
        shown = item.toGraphicsObject()
        if shown is None or not hasattr(shown, "toPlainText") or not shown.isVisible() or not shown.toPlainText():
            continue
        kind = "numbers" if shown.metaObject().className() == "ValueAxisLabel" else "titles"
        drawn[kind].append(shown.toPlainText())
    assert chart.plotArea().height() > 0
    return drawn


def assert_whole_labels(view) -> None:
    """Every axis number and title drawn whole (Qt prints "..." for what it must squeeze), two or more
    numbers on each axis, and the unit named."""
    drawn = drawn_texts(view)
    assert not [t for t in drawn["numbers"] + drawn["titles"] if any(e in t for e in ELLIPSES)], drawn
    assert "tokens/s" in drawn["titles"] and "s" in drawn["titles"], drawn
    numbers = [float(t) for t in drawn["numbers"]]
    assert numbers.count(0.0) == 2 and len(numbers) >= 4, drawn  # 0 on both axes, and a number above it


def ramp(start: float, rate: float, seconds: float = 4.0) -> list[tuple[float, float]]:
    return [(i * 0.1, start + rate * i * 0.1) for i in range(int(seconds * 10) + 1)]


def test_axis_numbers_are_whole_at_the_smallest_size_the_chart_takes(qtbot):
    chart = SpeedChart()
    qtbot.addWidget(chart)
    chart.resize(320, chart.minimumHeight())  # the side panel's width, and the least height it gets
    chart.show()
    qtbot.waitExposed(chart)
    chart.begin(1, "speculative")
    chart.add_points(1, ramp(300.0, 120.0))
    chart.begin(2, "baseline")
    chart.add_points(2, ramp(200.0, 60.0, 3.0))
    chart.flush()
    qtbot.waitUntil(lambda: not any(e in t for t in drawn_texts(chart)["numbers"] for e in ELLIPSES), timeout=2_000)
    assert_whole_labels(chart)


def nearest_colour(image: QImage, centre: QPoint, target: QColor, reach: int = 3) -> float:
    """How close the pixels around ``centre`` come to ``target`` (RGB distance of the closest)."""
    best = 1e9
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            seen = QColor(image.pixel(centre.x() + dx, centre.y() + dy))
            best = min(best, math.dist((seen.red(), seen.green(), seen.blue()),
                                       (target.red(), target.green(), target.blue())))
    return best


def on_screen(chart: SpeedChart, key: int, t: float, rate: float) -> QPoint:
    """The viewport position of point (t, rate) of line ``key``."""
    scene = chart.chart().mapToScene(chart.chart().mapToPosition(QPointF(t, rate), chart.series_for(key)))
    return chart.mapFromScene(scene)


def shown_chart(qtbot) -> SpeedChart:
    """A speed chart at about the side panel's size, shown and exposed."""
    chart = SpeedChart()
    qtbot.addWidget(chart)
    chart.resize(420, 280)
    chart.show()
    qtbot.waitExposed(chart)
    return chart


def test_the_latest_reply_is_drawn_bold_and_earlier_ones_faded(qtbot):
    chart = shown_chart(qtbot)
    for key, rate in ((1, 300.0), (2, 700.0)):  # two EAGLE-3 replies: until now, the same green twice
        chart.begin(key, "speculative")
        chart.add_points(key, [(i * 0.1, rate) for i in range(41)])
    chart.flush()
    earlier, latest = chart.series_for(1).pen(), chart.series_for(2).pen()
    background = chart.chart().backgroundBrush().color()
    assert latest.color() == QColor(theme.LIGHT.speculative) and latest.widthF() >= 2 * earlier.widthF()
    assert theme.contrast_ratio(earlier.color(), background) < theme.contrast_ratio(latest.color(), background) / 1.5
    markers = [m for key in (1, 2) for m in chart.chart().legend().markers(chart.series_for(key)) if m.isVisible()]
    assert len(markers) == 1 and markers[0].brush().color().alpha() == 255  # one entry for the mode, full colour
    # What is painted (off the grid lines): the latest line in the full colour, the earlier one faded.
    full, faded = latest.color(), earlier.color()
    image = chart.viewport().grab().toImage()
    assert nearest_colour(image, on_screen(chart, 2, 1.85, 700.0), full) < 40
    assert nearest_colour(image, on_screen(chart, 1, 1.85, 300.0), full) > 80
    assert nearest_colour(image, on_screen(chart, 1, 1.85, 300.0), faded) < 40
    chart.begin(3, "baseline")  # a new reply takes over: the one before fades too
    assert chart.series_for(2).pen().color() == faded and chart.series_for(2).pen().widthF() == earlier.widthF()
    assert chart.series_for(3).pen().widthF() == latest.widthF()


def figures(**changes) -> GenerationStats:
    stats = GenerationStats(mode="speculative", num_assistant_tokens=5, generated_tokens=120, input_tokens=30,
                            ttft_ms=12.0, tpot_ms=1.2, tokens_per_s=812.3, duration_ms=150.0, accepted_tokens=80,
                            draft_tokens=95, acceptance=0.84, tokens_per_step=2.9)
    return replace(stats, **changes)


def hover(chart: SpeedChart, pos: QPoint) -> str:
    """Rest the mouse at viewport ``pos`` as Qt does before a tooltip; the tooltip shown, or ""."""
    QToolTip.hideText()
    viewport = chart.viewport()
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, pos, viewport.mapToGlobal(pos)))
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_hovering_a_line_shows_that_replys_figures(qtbot):
    chart = shown_chart(qtbot)
    chart.begin(1, "speculative")
    chart.add_points(1, [(i * 0.1, 800.0) for i in range(41)])
    chart.finish(1, figures())
    chart.begin(2, "baseline")
    chart.add_points(2, [(i * 0.1, 300.0) for i in range(31)])
    chart.finish(2, figures(mode="baseline", tokens_per_s=301.5, generated_tokens=90, accepted_tokens=0,
                            draft_tokens=0, acceptance=None, tokens_per_step=None))
    chart.begin(3, "speculative")
    chart.add_points(3, [(0.1, 650.0), (0.2, 655.0)])  # still streaming: no final figures yet
    chart.flush()

    tip = hover(chart, on_screen(chart, 1, 1.55, 800.0))  # between two points of the line
    assert tip.splitlines() == ["EAGLE-3 — earlier reply", "812.3 tokens/s · 120 tokens",
                                "K=5 · 80 of 95 drafted tokens accepted"]
    tip = hover(chart, on_screen(chart, 2, 2.0, 300.0) + QPoint(0, 4))  # a few pixels off the line
    assert tip.splitlines() == ["baseline — earlier reply", "301.5 tokens/s · 90 tokens"]
    tip = hover(chart, on_screen(chart, 3, 0.15, 652.5))
    assert tip.startswith("EAGLE-3 — latest reply") and "655.0 tokens/s so far" in tip
    hover(chart, on_screen(chart, 1, 3.0, 550.0))  # between the lines: the tooltip goes
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=2_000)
    assert chart.tooltip_at(on_screen(chart, 1, 3.0, 550.0)) == ""


def drawn_gap(chart: SpeedChart, key: int, pos: QPoint) -> float:
    """Pixels from viewport ``pos`` to the straight two-point line ``key``."""
    (a, b), p = [QPointF(chart.mapFromScene(chart.chart().mapToScene(chart.chart().mapToPosition(q, chart.series_for(key)))))
                 for q in chart.series_for(key).points()], QPointF(pos)
    cross = (b.x() - a.x()) * (p.y() - a.y()) - (b.y() - a.y()) * (p.x() - a.x())
    return abs(cross) / math.hypot(b.x() - a.x(), b.y() - a.y())


def test_where_lines_cross_the_line_drawn_on_top_names_itself(qtbot):
    chart = shown_chart(qtbot)
    chart.begin(1, "speculative")
    chart.add_points(1, [(0.0, 100.0), (4.0, 900.0)])
    chart.begin(2, "baseline")  # later, so drawn over line 1; they cross at (2.0, 500.0)
    chart.add_points(2, [(0.0, 900.0), (4.0, 100.0)])
    chart.flush()
    # Just past the crossing: nearer line 1, yet within line 2's bold pen, which is drawn over line 1 there.
    on_earlier = on_screen(chart, 1, 2.02, 504.0)
    assert drawn_gap(chart, 1, on_earlier) < drawn_gap(chart, 2, on_earlier) <= 2.0
    assert chart.tooltip_at(on_earlier).startswith("baseline — latest reply")
    assert chart.tooltip_at(on_screen(chart, 1, 0.4, 180.0)).startswith("EAGLE-3 — earlier reply")


def test_a_comparison_draws_the_newest_run_of_each_mode_bold(qtbot):
    chart = SpeedChart(latest_per_mode=True)
    qtbot.addWidget(chart)
    for key, mode in enumerate(("baseline", "speculative", "baseline", "speculative")):
        chart.begin(key, mode)
    widths = [chart.series_for(key).pen().widthF() for key in range(4)]
    assert widths[2] == widths[3] > widths[0] == widths[1]  # both modes' last round stands out
