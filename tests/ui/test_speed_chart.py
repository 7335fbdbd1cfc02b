"""The live chart draws in batches, a few times a second, with axes that grow in round steps."""

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
