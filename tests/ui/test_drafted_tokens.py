"""Show drafted tokens: the tint covers exactly the accepted draft tokens' text, in the chat view (Markdown),
the compare panes and demo mode; hover names the step; the acceptance chart adds up; exports carry it."""

from __future__ import annotations

import csv
import json
import re

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QColor, QHelpEvent, QTextCursor
from PySide6.QtWidgets import QApplication, QCheckBox, QToolTip

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.chat.chat_view import ChatView
from eagle_chat.ui.chat.markdown_html import CODE_BACKGROUND
from eagle_chat.ui.chat.drafted_text import DRAFT_TINT, range_rects
from tests.gui import REPLY_TIMEOUT_MS, close_window, send

PROMPT = "Write quicksort in Python and explain its time complexity."


def doc_text(doc, a: int, b: int) -> str:
    cursor = QTextCursor(doc)
    cursor.setPosition(a)
    cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
    return cursor.selectedText()


def visible(text: str) -> str:
    return re.sub(r"\s", "", text)


def shown(content: str, start: int, end: int) -> str:
    """What ``content[start:end]`` of the tiny model's Markdown shows, spaces aside: its fence lines
    (```python, whose language the view shows in a label it does not tint) are not text."""
    fences = {i for m in re.finditer(r"^ {0,3}```[^\n]*", content, re.M) for i in range(m.start(), m.end())}
    return visible("".join(ch for i, ch in enumerate(content[start:end], start) if i not in fences))


def check_chat_tint(view: ChatView, message: Message, record: StepRecord) -> int:
    """Every step's tinted text is its accepted draft tokens' text; returns how many steps were checked."""
    tinted: dict[int, list[str]] = {}
    for a, b, step, accepted in view.drafted.tinted(message.id):
        assert accepted == record.sizes[step] - 1
        tinted.setdefault(step, []).append(doc_text(view.document(), a, b))
    # Worked out here from the record's counts: step i wrote drafted_chars[i], then own_chars[i] characters.
    spans, position = {}, 0
    for step, (size, drafted, own) in enumerate(zip(record.sizes, record.drafted_chars, record.own_chars)):
        if size > 1 and position + drafted <= len(message.content):
            spans[step] = (position, position + drafted)
        position += drafted + own
    checked = 0
    for step, (start, end) in spans.items():
        assert visible("".join(tinted.get(step, []))) == shown(message.content, start, end), step
        checked += 1
    assert set(tinted) <= {i for i, n in enumerate(record.sizes) if n > 1}  # nothing else is tinted
    return checked


def blend(background: QColor) -> tuple[int, int, int]:
    a = DRAFT_TINT.alphaF()
    return tuple(round(getattr(background, c)() * (1 - a) + getattr(DRAFT_TINT, c)() * a) for c in ("red", "green", "blue"))


TINTED = [blend(QColor("white")), blend(QColor(CODE_BACKGROUND))]  # the tint over text and over code


def tint_pixels(widget) -> int:
    """Pixels painted in the tint (over the page or over a code block)."""
    image = widget.grab().toImage()
    count = 0
    for x in range(0, image.width(), 2):
        for y in range(0, image.height(), 2):
            c = QColor(image.pixel(x, y))
            count += any(abs(c.red() - r) + abs(c.green() - g) + abs(c.blue() - b) <= 9 for r, g, b in TINTED)
    return count


def test_the_chat_tint_covers_exactly_the_accepted_draft_tokens_text(qtbot, open_window, monkeypatch):
    import eagle_chat.ui.chat.chat_view as chat_view

    monkeypatch.setattr(chat_view, "MIN_RENDER_INTERVAL_S", 0.0)  # every update is drawn at once, so what
    monkeypatch.setattr(chat_view, "RENDER_COST_FACTOR", 0.0)  # is checked below is what is on screen
    window = open_window()
    window.side.drafted_toggle.setChecked(True)
    window.options.max_tokens.setValue(300)
    view = window.chat
    mid_stream = []

    def on_text(message, _text):  # after the view drew this update (connected after the window's slot)
        record = window.controller.reply.steps if window.controller.reply else None
        if message is not None and record is not None and view.drafted.tinted(message.id):
            mid_stream.append(check_chat_tint(view, message, record))

    # Every batch of text the worker sends is drawn as it arrives, as if the 15 Hz render timer fired right
    # after it. Left to the timer, how the reply is cut into updates depends on the machine's load: a busy
    # GUI thread can see its first tinted update while the only drafted step is still half-shown (0 whole
    # steps to check), or see the whole reply before any update. The last batch comes before the reply
    # ends, so at least one update shows whole drafted steps, whatever the timing.
    window.controller.engine.worker.sig_chunk.connect(window.controller.requests.render_now,
                                                 Qt.ConnectionType.QueuedConnection)
    window.controller.sig_reply_text.connect(on_text)
    message, result = send(qtbot, window, PROMPT)
    record = result.stats.steps
    # Every update was tinted correctly (check_chat_tint asserts it: whole steps exactly, nothing else), and
    # some showed whole drafted steps while the reply was still streaming.
    assert mid_stream and max(mid_stream) > 0, mid_stream
    assert check_chat_tint(view, message, record) >= len(record.sizes) // 2
    # The target's own token of each step stays plain: the tinted text is the drafted text only.
    tinted_chars = sum(len(visible(doc_text(view.document(), a, b))) for a, b, _, _ in view.drafted.tinted(message.id))
    assert 0 < tinted_chars < len(shown(message.content, 0, len(message.content)))

    view.verticalScrollBar().setValue(0)
    qtbot.waitUntil(lambda: tint_pixels(view.viewport()) > 200, timeout=2_000)
    window.side.drafted_toggle.setChecked(False)
    assert view.drafted.tinted(message.id) == [] and tint_pixels(view.viewport()) == 0


def test_hovering_tinted_text_names_its_step(qtbot, open_window):
    window = open_window()
    window.side.drafted_toggle.setChecked(True)
    window.options.max_tokens.setValue(64)
    message, result = send(qtbot, window, PROMPT)
    window.show()
    qtbot.waitExposed(window)
    view = window.chat
    view.verticalScrollBar().setValue(0)
    a, b, step, accepted = next(r for r in view.drafted.tinted(message.id) if r[1] - r[0] > 3)
    box = range_rects(view, a, b)[0]
    point = QPoint(int(box.center().x() - view.horizontalScrollBar().value()),
                   int(box.center().y() - view.verticalScrollBar().value()))
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.Type.ToolTip, point, view.viewport().mapToGlobal(point)))
    assert f"step {step}" in QToolTip.text() and f"accepted {accepted} drafted" in QToolTip.text()
    assert accepted == result.stats.steps.sizes[step] - 1


def test_markdown_is_aligned_to_its_source(qtbot):
    """Bold, links, inline code, lists, a table, an emoji and Chinese: each tinted step shows its own text."""
    pieces = [  # (source, what it shows, drafted)
        ("Plain ", "Plain ", False), ("**bold**", "bold", True), (" and ", " and ", False),
        ("[a link](https://example.com/a.b)", "a link", True), (" then ", " then ", False), ("`code`", "code", True),
        (" 😀 中文", " 😀 中文", True), (".\n\n- ", ".", False), ("item one", "item one", True), ("\n- item ", "item ", False),
        ("two\n\n| a | b |\n|---|---|\n| ", "two a b", True), ("x", "x", False), (" | y |\n", "y", True),
    ]
    record = StepRecord()
    for source, _, drafted in pieces:
        record.add(3 if drafted else 1, len(source) if drafted else 0, 0 if drafted else len(source))
    content = "".join(p[0] for p in pieces)
    stats = GenerationStats("speculative", 5, 20, 3, 1.0, 1.0, 1.0, 1.0, steps=record)
    view = ChatView()
    qtbot.addWidget(view)
    view.drafted.set_enabled(True)
    message = Message("assistant", content, id=4, stats=stats)
    view.show_conversation(Conversation(messages=[message]))
    tinted = {}
    for a, b, step, _ in view.drafted.tinted(4):
        tinted[step] = tinted.get(step, "") + doc_text(view.document(), a, b)
    expected = {i: shown for i, (_, shown, drafted) in enumerate(pieces) if drafted}
    assert {k: re.sub(r"\s", "", v) for k, v in tinted.items()} == {k: re.sub(r"\s", "", v) for k, v in expected.items()}


def test_the_acceptance_chart_follows_the_reply_and_adds_up(qtbot, open_window):
    window = open_window()
    chart = window.side.acceptance
    live = []

    def on_steps(record):  # after the display queued the record (connected later)
        chart.flush()
        live.append((sum(chart.counts), record.verification_steps))

    window.controller.sig_reply_started.connect(lambda handle: handle.sig_steps.connect(on_steps))
    window.options.max_tokens.setValue(200)
    message, result = send(qtbot, window, PROMPT)
    steps, k = result.stats.steps, result.stats.num_assistant_tokens
    assert len(live) >= 2 and all(shown == total for shown, total in live)  # live, and adding up each time
    assert chart.counts == steps.histogram(k) and len(chart.counts) == k + 1
    assert sum(chart.counts) == steps.verification_steps == len(steps.sizes) - 1
    assert chart.rates == steps.position_acceptance(k) and chart.rates[0] >= chart.rates[-1]
    assert f"mean {steps.mean_accepted():.2f} of {k}" in chart.caption
    # On CPU GenAI leaves the last step out of its count: the caption says so when that makes a difference.
    assert (f"GenAI counts {result.stats.accepted_tokens}" in chart.caption) == (steps.sizes[-1] > 1)

    first = window.controller.conversation.id
    window.new_conversation()
    window.model_bar.draft_toggle.setChecked(False)
    send(qtbot, window, "and plainly?")
    assert sum(chart.counts) == 0 and "No drafted steps" in chart.caption
    window.controller.conversations.open_conversation(first)  # the reply on screen is the EAGLE-3 one again
    assert chart.counts == steps.histogram(k)


def squeeze(text: str) -> str:
    """``text`` without white space (a line break of the source is a block's end on screen)."""
    return re.sub(r"\s", "", text)


def test_compare_panes_and_demo_mode_tint_the_eagle_answer(qtbot, open_window):
    window = open_window()
    window.side.drafted_toggle.setChecked(True)
    window.options.max_tokens.setValue(96)
    view = window.open_compare(demo=True)
    assert view.findChild(QCheckBox, "draftedTokensToggle").isChecked()  # one switch for both windows
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2) as blocker:
        view.run("Write quicksort in Python.")
    comparison = blocker.args[0]
    pane, record = view.speculative_pane, comparison.speculative[0].steps
    assert pane.font().pointSizeF() > window.font().pointSizeF() * 1.3  # demo mode's large type
    spans = [s for s in record.drafted_spans()]
    # The pane shows the answer's Markdown rendered (the fence is a code block): each tinted stretch of what it
    # shows is text of the drafted span its step wrote, and nearly all the drafted text is tinted.
    shown, by_step = pane.toPlainText(), {s.step: s for s in spans}
    assert "```" in pane.raw and "```" not in shown
    for a, b in pane.ranges:
        span = by_step[pane.step_at(a)[0]]
        assert squeeze(shown[a:b]) in squeeze(pane.raw[span.start:span.end]), (shown[a:b], span)
    tinted = sum(len(squeeze(shown[a:b])) for a, b in pane.ranges)
    assert tinted >= 0.8 * sum(len(squeeze(pane.raw[s.start:s.end].replace("```", ""))) for s in spans)
    assert view.baseline_pane.ranges == []  # a baseline reply drafts nothing
    qtbot.waitUntil(lambda: tint_pixels(pane.viewport()) > 100, timeout=2_000)
    assert sum(view.acceptance.counts) == record.verification_steps
    assert pane.step_at(spans[0].start) == (spans[0].step, spans[0].accepted, "eagle3")

    view.drafted_toggle.setChecked(False)
    assert not window.side.drafted_toggle.isChecked() and pane.ranges == []
    assert tint_pixels(pane.viewport()) == 0
    view.set_demo(False)


def test_the_acceptance_chart_follows_a_dark_palette(qtbot):
    from PySide6.QtCharts import QChart
    from PySide6.QtGui import QPalette

    from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart

    chart = AcceptanceChart()
    qtbot.addWidget(chart)
    assert chart.chart().theme() == QChart.ChartTheme.ChartThemeLight
    dark = QPalette(chart.palette())
    for role, colour in ((QPalette.ColorRole.Window, "#1f2937"), (QPalette.ColorRole.Base, "#111827"),
                         (QPalette.ColorRole.WindowText, "#f9fafb"), (QPalette.ColorRole.Text, "#f9fafb")):
        dark.setColor(role, QColor(colour))
    chart.setPalette(dark)
    assert chart.chart().theme() == QChart.ChartTheme.ChartThemeDark
    assert chart._bars.color() == QColor(theme.DARK.other_series)
    assert chart.chart().titleBrush().color() == QColor("#f9fafb")
    assert chart.chart().backgroundBrush().color() == QColor("#111827")


def test_the_switch_is_remembered(qtbot, open_window):
    window = open_window()
    assert not window.side.drafted_toggle.isChecked()
    window.side.drafted_toggle.setChecked(True)
    close_window(qtbot, window)
    again = open_window()
    assert again.side.drafted_toggle.isChecked() and again.chat.drafted.enabled


def test_exports_carry_the_step_record_and_the_histogram(qtbot, open_window, tmp_path):
    window = open_window()
    window.options.max_tokens.setValue(48)
    message, result = send(qtbot, window, PROMPT)
    stored = window.controller.store.load_conversation(window.controller.conversation.id).messages[-1]
    assert stored.stats.steps == result.stats.steps  # kept with the message, characters and all
    written = window.export_conversation_stats(tmp_path)
    row = next(csv.DictReader(written[0].open(encoding="utf-8")))
    steps = result.stats.steps
    assert StepRecord.decode(row["steps"], row["step_chars"]) == steps
    assert row["accepted_histogram"].startswith("0:") and int(row["verification_steps"]) == len(steps.sizes) - 1
    reply = json.loads(written[1].read_text(encoding="utf-8"))["replies"][0]["step_record"]
    assert reply["steps"] == steps.sizes and sum(reply["steps"]) == result.stats.generated_tokens
    assert sum(reply["accepted_histogram"]) == reply["verification_steps"]

    view = window.open_compare()
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2):
        view.run("Write quicksort in Python.")
    files = view.export(tmp_path / "cmp")
    data = json.loads(files[1].read_text(encoding="utf-8"))
    by_mode = {s["mode"]: s for s in data["steps"]}
    assert data["headline"] == view.board.headline.text()  # the demo's headline and its details, exported
    assert "\n".join(data["summary"][:2]) == "\n".join(view.summary.text().splitlines()[:2])
    assert set(by_mode["baseline"]["steps"]) == {1}
    assert sum(by_mode["speculative"]["accepted_histogram"]) == by_mode["speculative"]["verification_steps"]
    rows = list(csv.DictReader(files[0].open(encoding="utf-8")))
    assert all(r["steps"] and r["accepted_histogram"] for r in rows)


def test_hovering_text_prompt_lookup_copied_names_prompt_lookup_not_eagle3(qtbot, open_window):
    from tests.ui.test_method_pin import CODE_EDIT, choose, send_pasted

    window = open_window()
    window.side.drafted_toggle.setChecked(True)
    window.options.max_tokens.setValue(64)
    window.show()
    qtbot.waitExposed(window)
    choose(qtbot, window.options.speculation, "Prompt lookup")
    message, result = send_pasted(qtbot, window, CODE_EDIT)
    assert result.stats.method == "prompt_lookup"
    view = window.chat
    view.verticalScrollBar().setValue(0)
    ranges = [r for r in view.drafted.tinted(message.id) if r[1] - r[0] > 1]
    assert ranges, "prompt lookup drafted nothing the target kept"
    a, b, step, accepted = ranges[0]
    box = range_rects(view, a, b)[0]
    point = QPoint(int(box.center().x() - view.horizontalScrollBar().value()),
                   int(box.center().y() - view.verticalScrollBar().value()))
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.Type.ToolTip, point, view.viewport().mapToGlobal(point)))
    assert QToolTip.text().startswith(f"Copied from the prompt by prompt lookup — step {step}"), QToolTip.text()
    assert "EAGLE-3" not in QToolTip.text()
