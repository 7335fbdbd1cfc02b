"""What the room sees of a comparison, piece by piece: the charts' type and lines grow with the large type, the
two modes differ in grey, a reasoning reply's thinking is folded in the panes (never raw tags), the warm-up
says what it does, the live tokens/s are large numbers, and Esc closes the window."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QFont, QFontInfo
from PySide6.QtWidgets import QLabel, QPushButton

from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart
from eagle_chat.ui.speed.chart_style import series_pen
from eagle_chat.ui.speed.compare_pane import ComparePane
from eagle_chat.ui.speed.speed_chart import LATEST_WIDTH, SpeedChart
from tests.gui import REPLY_TIMEOUT_MS


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
ANSWER = "Quicksort picks a pivot, then sorts the items on each side of it."  # Markdown shown as written


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


def test_the_warm_up_says_so_in_the_headline_panes_and_charts_and_the_runs_show_large_live_figures(
        qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(64)
    view = window.open_compare(demo=True)
    board = view.board
    seen: dict[str, set] = {"headline": set(), "placeholder": set(), "progress": set(), "rates": set()}

    def look(*_args):
        seen["headline"].add(board.headline.text())
        seen["placeholder"].add(view.speculative_pane.placeholderText())
        seen["progress"].add(board.progress.value() if board.progress.isVisible() else None)
        seen["rates"].add((board.rate_text("baseline"), board.rate_text("speculative")))

    view.runner.sig_job_started.connect(lambda _index, _job, handle: handle.sig_steps.connect(look))
    view.runner.sig_job_started.connect(look)
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2):
        assert view.run()
        look()
        assert board.headline.text() == "Warming up both modes…" and board.progress.isVisible()
        assert view.baseline_pane.placeholderText() == "Warming up both modes…"
        assert view.chart.chart().title() == "Warming up both modes…"
    assert "Run 1 of 3 · baseline" in seen["headline"] and "Run 3 of 3 · EAGLE-3" in seen["headline"]
    progress = sorted(p for p in seen["progress"] if p is not None)
    assert progress[0] < 200 and len(progress) >= 4  # it moves, from the warm-up on
    assert any(not b.startswith("Baseline –") and s.startswith("EAGLE-3 –") for b, s in seen["rates"])  # live
    assert not board.progress.isVisible() and view.chart.chart().title() == ""
    assert view.speculative_pane.placeholderText() == ""
    comparison = view.comparison
    assert board.rate_text("speculative") == "EAGLE-3 {} tokens/s".format(
        _figure(comparison.median("speculative", "tokens_per_s")))
    height = view.screen().geometry().height()
    figure = view.findChild(QLabel, "demoSpeculativeRate")
    assert f"font-size:{-(-height // 24)}px" in figure.text()  # the number in large type
    assert QFontInfo(board.headline.font()).pixelSize() >= height / 10
    details = QFontInfo(board.details.font()).pixelSize()  # grows with the screen: ~9 pt was a grey smear
    assert details >= height / 48 and details > QFontInfo(window.font()).pixelSize()


def _figure(value: float) -> str:
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}"


def test_esc_cancels_a_run_then_leaves_full_screen_then_closes_the_window(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(512)
    view = window.open_compare(demo=True)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    with qtbot.waitSignal(view.runner.sig_done, timeout=REPLY_TIMEOUT_MS):
        assert view.run()
        qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.isVisible() and view.isFullScreen()
    assert view.board.headline.text() == "Cancelled"
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.isVisible() and not view.isFullScreen()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not view.isVisible()


def test_the_window_does_not_widen_itself_after_a_run_and_export_stays_on_screen(qtbot, open_window):
    """On the test screen (800 px wide) the window is 784 px: the presenter's prompts as buttons, a long prompt
    and "Re-run at f32" appearing after a run (the answers part at default precision) used to make the row
    of buttons wider than that, and the window grew past the screen's edge with Export."""
    window = open_window()
    window.options.max_tokens.setValue(300)  # long enough for the answers to part at default precision
    view = window.open_compare()
    view.set_custom_prompts(["Explain binary search in two sentences, with an example in Python.",
                             "Summarise the plot of Hamlet for a ten-year-old in five sentences."])
    qtbot.waitExposed(view)
    width = view.width()
    view.prompt.setEditText("Explain, in one long sentence that goes on and on, " * 6)
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2):
        assert view.run()
    qtbot.wait(50)
    assert view.f32_button.isVisible() == (not view.comparison.identical)
    assert view.width() == width
    for button in (view.export_button, view.f32_button, view.findChild(QPushButton, "comparePreset6")):
        if button.isVisible():
            corner = button.mapTo(view, QPoint(button.width(), button.height()))
            assert view.rect().contains(corner), button.text()
    assert view.export_button.isEnabled()
