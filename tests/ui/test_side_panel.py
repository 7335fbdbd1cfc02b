"""The side panel in the real window: its speed chart reads at the window's default and smallest sizes, a
reply's line shows the reply's figures on hover, and the chart and the stats line follow the conversation
on screen (a branch switch, a delete, a new conversation)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt

from eagle_chat.ui.words import texts
from tests.gui import REPLY_TIMEOUT_MS, send
from tests.ui.test_speed_chart import ELLIPSES, assert_whole_labels, drawn_texts, hover, on_screen


def numbers_whole(chart) -> bool:
    return not any(e in t for t in drawn_texts(chart)["numbers"] + drawn_texts(chart)["titles"] for e in ELLIPSES)


def test_the_chart_reads_at_the_default_and_the_smallest_window_size(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(48)
    window.show()
    qtbot.waitExposed(window)
    default = window.size()
    finished = [send(qtbot, window, "def parse_args(argv):"), send(qtbot, window, "What is a parser?")]
    qtbot.mouseClick(window.model_bar.draft_toggle, Qt.MouseButton.LeftButton)  # a baseline reply too
    finished.append(send(qtbot, window, "What is a lexer?"))
    chart = window.chart
    assert [s.name() for s in (chart.series_for(k) for k in chart.keys())] == ["EAGLE-3", "EAGLE-3", "baseline"]
    for size in (default, window.minimumSizeHint()):
        window.resize(size)
        qtbot.waitUntil(lambda: numbers_whole(chart), timeout=3_000)
        assert chart.height() >= chart.minimumHeight()
        assert_whole_labels(chart)
    # Hovering the latest line: that reply's own figures.
    window.side.charts.setCurrentWidget(chart)
    _, result = finished[-1]
    latest = chart.keys()[-1]
    line = chart.series_for(latest)
    point = line.at(line.count() // 2)
    tip = hover(chart, on_screen(chart, latest, point.x(), point.y()))
    assert tip.startswith("baseline — latest reply"), tip
    assert f"{result.stats.tokens_per_s:.1f} tokens/s · {result.stats.generated_tokens} tokens" in tip


def regenerate(qtbot, window, reply, **settings):
    """Regenerate ``reply`` as the reply's menu does (with ``settings`` changed); returns the new reply."""
    c = window.controller
    with qtbot.waitSignal(c.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as done:
        assert c.branches.regenerate(reply, replace(window.generation_settings(), **settings))
    return done.args[0]


def test_the_stats_line_and_the_chart_follow_a_branch_switch_and_a_delete(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(32)
    c, label = window.controller, window.stats_label
    first, _ = send(qtbot, window, "What is a parser?")
    second = regenerate(qtbot, window, first, max_new_tokens=8)  # fewer tokens: other figures
    assert texts.stats_summary(first.stats) != texts.stats_summary(second.stats)
    assert label.text() == texts.stats_summary(second.stats) and len(window.chart.keys()) == 2

    assert c.branches.switch_branch(second, -1)  # back to the first version
    assert label.text() == texts.stats_summary(first.stats)
    assert c.branches.delete_message(first)  # the second version takes its place, and the first one's line goes
    assert [m.id for m in c.conversation.messages][-1] == second.id
    assert label.text() == texts.stats_summary(second.stats) and len(window.chart.keys()) == 1
    assert c.branches.delete_message(c.conversation.messages[0])  # the question, and its reply with it
    assert label.text() == "No reply yet" and window.chart.keys() == []


def test_a_new_conversation_starts_with_an_empty_chart(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(24)
    c, label = window.controller, window.stats_label
    reply, _ = send(qtbot, window, "What is a parser?")
    earlier = c.conversation.id
    assert len(window.chart.keys()) == 1 and label.text() == texts.stats_summary(reply.stats)

    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    assert c.conversation.id != earlier
    assert window.chart.keys() == [] and label.text() == "No reply yet"
    c.conversations.open_conversation(earlier)  # its reply's figures again, and its line at its mean speed (as after a restart)
    assert label.text() == texts.stats_summary(c.conversation.messages[-1].stats)
    assert window.chart.keys() == [("stored", c.conversation.messages[-1].id)]
