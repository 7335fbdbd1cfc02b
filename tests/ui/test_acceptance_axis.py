"""The acceptance chart's steps axis changes its range a few times per reply, not at every redraw: each
new range lays the chart out again (~1 ms of the GUI thread, benchmarks/ui_timeline.py's profile)."""

from __future__ import annotations

from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart, count_axis_top


def test_the_axis_top_holds_the_tallest_bar_in_few_steps():
    tops = [count_axis_top(n) for n in range(0, 300)]
    assert all(top >= n for n, top in enumerate(tops))
    assert all(top < 2 * n for n, top in enumerate(tops) if n > 4)  # the tallest bar fills at least half
    assert len(set(tops)) <= 8


def test_a_streaming_reply_sets_the_range_a_few_times(qtbot):
    chart = AcceptanceChart()
    qtbot.addWidget(chart)
    ranges = []
    chart._count_axis.rangeChanged.connect(lambda low, high: ranges.append(high))
    record = StepRecord()
    for _ in range(120):  # one redraw per step: the worst case
        record.add(4)  # 3 drafted tokens accepted, 1 its own
        chart.show_steps(record, 5, now=True)
    assert chart.counts[3] >= 100 and chart._count_axis.max() >= 120
    assert len(ranges) <= 6, ranges
