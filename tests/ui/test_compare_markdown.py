"""The Compare panes render the answers' Markdown as the chat does (issue 40, item 7): the room saw ``**bold**``,
fences and ``#`` headings as source in the panes while the chat showed them rendered. Checked on what is
painted: the document's shown text against its source, the formats it is drawn in, the code block's background
in a grab, the tint's stretches against the drafted text — while streaming too, where only the end is drawn
again."""

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QFont, QFontInfo, QTextCursor

from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.ui.speed.compare_pane import ComparePane
from eagle_chat.ui.widgets import theme
from tests.gui import REPLY_TIMEOUT_MS

SOURCE = ("# Quicksort\n\nIt is **fast** on average and uses `pivot` to split.\n\n"
          "```python\ndef quicksort(items):\n    return items\n```\n\n- pick a pivot\n- sort each side\n")


def squeeze(text: str) -> str:
    return re.sub(r"\s", "", text)


def code_background_pixels(pane) -> int:
    """Pixels of the pane painted in the code block's background."""
    image = pane.viewport().grab().toImage()
    want = QColor(theme.colours(pane.palette()).code_background)
    return sum(QColor(image.pixel(x, y)) == want for x in range(0, image.width(), 3) for y in range(0, image.height(), 3))


def char_format_at(pane, text: str):
    found = pane.document().find(text)
    assert not found.isNull(), (text, pane.toPlainText())
    cursor = QTextCursor(pane.document())
    cursor.setPosition(found.selectionStart() + 1)
    return cursor.charFormat()


def test_a_pane_renders_the_answer_s_markdown_streamed_and_finished_and_tints_the_drafted_words(qtbot):
    pane = ComparePane()
    qtbot.addWidget(pane)
    pane.resize(700, 500)
    pane.show()
    qtbot.waitExposed(pane)
    record = StepRecord()
    record.extend([(3, 3, 1)] * (len(SOURCE) // 4))  # a step per 4 characters: 3 of them drafted
    pane.set_tint(True)
    changes: list[int] = []
    pane.document().contentsChange.connect(lambda at, _removed, _added: changes.append(at))
    for end in range(8, len(SOURCE), 9):  # streamed as a run streams, each draw at once (no throttle wait)
        pane._next_render = 0.0
        pane.show_reply(SOURCE[:end], record)
        assert "**" not in pane.toPlainText() and not pane.toPlainText().startswith("#")
        if end <= SOURCE.index("\n\n") + 9 * 2:
            changes.clear()  # until the heading is followed by a blank line (and a little more) it can change
    # Streaming redraws only the end: once the heading has settled no change starts at the top of the document
    # again, and the last ones start past the settled blocks, in the second half.
    assert changes and 0 not in changes and changes[-1] > len(pane.toPlainText()) // 2, changes
    pane.show_reply(SOURCE, record, typeset=True)
    shown = pane.toPlainText()
    for markup in ("**", "`", "```", "# ", "- "):
        assert markup not in shown, (markup, shown)
    assert shown.startswith("Quicksort\nIt is fast on average and uses pivot to split.")
    assert "def quicksort(items):\n    return items" in shown and shown.endswith("pick a pivot\nsort each side")
    body = QFontInfo(pane.font()).pixelSize()
    heading = char_format_at(pane, "Quicksort")
    assert heading.fontWeight() >= QFont.Weight.Bold or heading.fontPointSize() > pane.font().pointSizeF()
    assert char_format_at(pane, "fast").fontWeight() >= QFont.Weight.Bold
    assert "monospace" in char_format_at(pane, "return items").fontFamilies()[0].lower() or \
        char_format_at(pane, "return items").fontFixedPitch()
    assert body > 0 and code_background_pixels(pane) > 100  # the code block is painted on its background
    # The tint follows the drafted text of the source onto what is shown.
    assert pane.ranges
    spans = {s.step: s for s in record.drafted_spans()}
    for a, b in pane.ranges:
        span = spans[pane.step_at(a)[0]]
        assert squeeze(shown[a:b]) in squeeze(SOURCE[span.start:span.end]), (shown[a:b], span)


def test_the_compare_view_shows_both_answers_rendered_and_still_finds_them_identical(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(64)
    view = window.open_compare(demo=True)
    streamed: list[tuple[str, str]] = []  # (source, shown) of the live pane at each update

    def sample(message, _text):
        pane = view._live_pane
        if message is None and pane is not None and pane.raw:
            streamed.append((pane.raw, pane.toPlainText()))

    window.controller.sig_reply_text.connect(sample)
    view.repeats.setValue(1)
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2) as blocker:
        view.run("Write quicksort in Python.")
    comparison = blocker.args[0]
    window.controller.sig_reply_text.disconnect(sample)
    base, fast = view.baseline_pane, view.speculative_pane
    assert "```" in fast.raw and "```" not in fast.toPlainText(), fast.toPlainText()  # the fence is a code block
    assert any("```" in raw for raw, _ in streamed) and not any("```" in shown for _, shown in streamed)
    # The identical check is on the replies' text, and what both panes show of it is the same too.
    assert comparison.identical and base.raw == fast.raw and base.toPlainText() == fast.toPlainText()
    assert "Answers identical" in view.summary.text()
    qtbot.waitUntil(lambda: code_background_pixels(fast) > 100, timeout=2_000)
    view.set_demo(False)
