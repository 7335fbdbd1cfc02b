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


def _reply(chart, steps: int) -> None:
    """One reply as the side panel shows it: the empty record at its start, streaming redraws, the whole one."""
    record = StepRecord()
    chart.show_steps(record, 5, now=True)
    for n in range(steps):
        record.add(4)
        if n % 10 == 0:
            chart.show_steps(record, 5)
            chart.flush()
    chart.show_steps(record, 5, now=True)


def test_replies_of_a_like_size_keep_the_range(qtbot):
    """Each reply starts from an empty chart: shrinking the axis for it and growing it back cost every reply two
    layouts (1.1-2.3 ms of the GUI thread each, measured on the tiny pair)."""
    chart = AcceptanceChart()
    qtbot.addWidget(chart)
    _reply(chart, 50)
    ranges = []
    chart._count_axis.rangeChanged.connect(lambda low, high: ranges.append(high))
    for _ in range(5):
        _reply(chart, 50)
    assert ranges == [] and chart._count_axis.max() == count_axis_top(50)


def test_a_shorter_reply_shrinks_the_axis_once_it_ends(qtbot):
    chart = AcceptanceChart()
    qtbot.addWidget(chart)
    _reply(chart, 100)
    assert chart._count_axis.max() == count_axis_top(100)
    _reply(chart, 10)  # its tallest bar would be a sliver on the long reply's axis
    assert chart._count_axis.max() == count_axis_top(10) < count_axis_top(100)
