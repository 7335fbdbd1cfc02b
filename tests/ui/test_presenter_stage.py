"""What the room sees of a comparison, piece by piece: the charts' type and lines grow with the large type, the
two modes differ in grey, a reasoning reply's thinking is folded in the panes (never raw tags), the warm-up
says what it does, the live tokens/s are large numbers, and Esc closes the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont

from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.ui import theme
from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart
from eagle_chat.ui.speed.chart_style import series_pen
from eagle_chat.ui.speed.compare_pane import ComparePane
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


THOUGHT = "<think>\nThe user wants quicksort. Pick a pivot.\n</think>\n\n"
ANSWER = "def quicksort(items):\n    return items"


def _record(text: str) -> StepRecord:
    """One step per 4 characters, each accepting 2 drafted tokens (3 characters) and writing 1 of its own."""
    record = StepRecord()
    record.extend([(3, 3, 1)] * (len(text) // 4))
    return record


def test_the_panes_fold_a_reasoning_reply_s_thinking_and_tint_only_the_answer(qtbot):
    pane = ComparePane()
    qtbot.addWidget(pane)
    pane.resize(500, 300)
    pane.show_reply("<think>\nThe user wants")  # live: thinking, as the chat says it
    assert pane.toPlainText() == "Thinking…\nThe user wants"
    pane.show_reply("<think>\nThe user wants quicksort.")
    assert pane.toPlainText() == "Thinking…\nThe user wants quicksort."  # appended
    text = THOUGHT + ANSWER
    record = _record(text)
    pane.set_tint(True)
    pane.show_reply(text, record, typeset=True)
    shown = pane.toPlainText()
    assert "<think>" not in shown and "</think>" not in shown and "Pick a pivot" not in shown
    assert shown == "▸ Thoughts\n\n" + ANSWER
    answer_at = shown.index(ANSWER)
    assert pane.ranges and all(a >= answer_at and b <= len(shown) for a, b in pane.ranges)
    raw_answer = len(THOUGHT)  # the tint of the answer is where the record puts it, moved with the text
    expected = [(max(s.start, raw_answer) - raw_answer + answer_at, min(s.end, len(text)) - raw_answer + answer_at)
                for s in record.drafted_spans() if s.end > raw_answer]
    assert pane.ranges == expected

    pane.show()
    qtbot.waitExposed(pane)
    header = pane.cursorRect(pane.document().find("Thoughts")).center()
    qtbot.mouseClick(pane.viewport(), Qt.MouseButton.LeftButton, pos=header)
    assert pane.toPlainText().startswith("▾ Thoughts\nThe user wants quicksort. Pick a pivot.\n\n")
    assert pane.toPlainText().endswith(ANSWER) and pane.ranges == [
        (a + len("The user wants quicksort. Pick a pivot.\n"), b + len("The user wants quicksort. Pick a pivot.\n"))
        for a, b in expected]
    qtbot.mouseClick(pane.viewport(), Qt.MouseButton.LeftButton, pos=header)
    assert pane.toPlainText() == "▸ Thoughts\n\n" + ANSWER

    pane.show_reply(ANSWER, None)  # a reply without thinking is shown as it is
    assert pane.toPlainText() == ANSWER and pane.shift == (0, 0)
