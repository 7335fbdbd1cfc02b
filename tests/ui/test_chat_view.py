"""Per-message stats are shown under each reply and on hover, by Qt's own tooltip handling."""

from PySide6.QtCore import QEvent, QPoint, QUrl
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.chat.chat_view import ChatView


def test_reply_stats_show_on_hover_and_under_the_reply(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    stats = GenerationStats(mode="speculative", num_assistant_tokens=5, generated_tokens=10, input_tokens=3,
                            ttft_ms=12.0, tpot_ms=1.0, tokens_per_s=321.0, duration_ms=10.0, accepted_tokens=5,
                            draft_tokens=8, acceptance=0.625, tokens_per_step=2.0)
    view.show_conversation(Conversation(messages=[Message("assistant", "hello world " * 20, id=1, stats=stats)]))
    qtbot.waitExposed(view)
    assert "321.0 tok/s" in view.toPlainText() and "acceptance 62%" in view.toPlainText()
    pos = QPoint(30, 40)
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos)))
    tip = QToolTip.text()
    assert "Tokens/s: 321.0" in tip and "Accepted / drafted: 5 / 8" in tip and "Acceptance: 62%" in tip


def test_a_finished_reply_shows_at_once_and_its_code_is_coloured_next(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    reply = Message("assistant", "", id=7, status="streaming")
    view.show_conversation(Conversation(messages=[Message("user", "quicksort?", id=6), reply]))
    reply.content = "Here:\n\n```python\ndef quicksort(items):\n    return sorted(items)\n```\n\nDone."
    view.update_message(reply)
    reply.status = "complete"
    view.finish_message(reply)

    assert "def quicksort(items):" in view.toPlainText() and "Done." in view.toPlainText()
    assert "Copy code" in view.toPlainText()
    keyword = 'color:#008000'  # Pygments' default style for a Python keyword, as Qt keeps it
    assert keyword not in view.toHtml()  # not yet: colouring waits for the event loop
    qtbot.waitUntil(lambda: keyword in view.toHtml(), timeout=2000)
    assert view.toPlainText().count("def quicksort(items):") == 1


def test_colouring_a_reply_is_dropped_when_another_conversation_opens(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    reply = Message("assistant", "", id=3, status="streaming")
    view.show_conversation(Conversation(messages=[reply]))
    reply.content, reply.status = "```python\ndef f():\n    pass\n```", "complete"
    view.finish_message(reply)
    other = Message("assistant", "", id=10, status="streaming")
    view.show_conversation(Conversation(messages=[Message("user", "other chat", id=9), other]))
    # The open conversation's reply is coloured by the pass that would have coloured the first one's: once
    # its keyword is coloured (and nothing is left to draw), that pass has run.
    other.content, other.status = "```python\ndef g():\n    pass\n```", "complete"
    view.finish_message(other)
    qtbot.waitUntil(lambda: 'color:#008000' in view.toHtml() and not view.loading(), timeout=2000)
    assert "def f" not in view.toPlainText() and "other chat" in view.toPlainText()


STREAMED_REPLY = """## Quicksort

Quicksort picks a *pivot* and splits the list around it.

```python
def quicksort(items):

    if len(items) <= 1:
        return items
    pivot, rest = items[0], items[1:]
    return quicksort([x for x in rest if x < pivot]) + [pivot] + quicksort([x for x in rest if x >= pivot])
```

It runs in:

1. O(n log n) on average;
2. O(n^2) at worst.

| case | time |
|------|------|
| best | n log n |

- one item

  with a second paragraph

Done.
"""


def _letters(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


def test_a_streaming_reply_redraws_only_its_unsettled_end_and_reads_like_the_full_render(qtbot, monkeypatch):
    import eagle_chat.ui.chat.chat_view as chat_view

    monkeypatch.setattr(chat_view, "MIN_RENDER_INTERVAL_S", 0.0)
    monkeypatch.setattr(chat_view, "RENDER_COST_FACTOR", 0.0)
    rendered_chars = []
    real_render = chat_view.render_markdown
    monkeypatch.setattr(chat_view, "render_markdown",
                        lambda text, **kw: rendered_chars.append(len(text)) or real_render(text, **kw))
    view, reference = ChatView(), ChatView()
    qtbot.addWidget(view)
    qtbot.addWidget(reference)
    reply = Message("assistant", "", id=2, status="streaming")
    view.show_conversation(Conversation(messages=[Message("user", "Explain quicksort", id=1), reply]))
    streamed_chars = redraw_everything_chars = 0
    text = STREAMED_REPLY * 3  # a longer reply: three sections
    for end in range(5, len(text) + 5, 5):
        reply.content = text[:end]
        redraw_everything_chars += len(reply.content)
        before = len(rendered_chars)
        view.update_message(reply)
        streamed_chars += sum(rendered_chars[before:])
        whole = Message("assistant", reply.content, id=2, status="streaming")
        reference.show_conversation(Conversation(messages=[Message("user", "Explain quicksort", id=1), whole]))
        assert _letters(view.toPlainText()) == _letters(reference.toPlainText()), reply.content
    assert view.toPlainText().count("Copy code") == 3
    view.anchorClicked.emit(QUrl("copy-code:2:2"))  # the third block's link, drawn while streaming
    assert QApplication.clipboard().text().startswith("def quicksort(items):\n\n    if len(items)")
    print(f"rendered {streamed_chars} chars while streaming vs {redraw_everything_chars} redrawing everything")
    # Settled blocks are drawn once and kept; only the block being written is drawn again.
    assert streamed_chars < redraw_everything_chars / 4
    reply.status = "complete"
    view.finish_message(reply)
    final = Message("assistant", text, id=2, status="complete")
    reference.show_conversation(Conversation(messages=[Message("user", "Explain quicksort", id=1), final]))
    assert view.toPlainText() == reference.toPlainText()


def test_the_settled_part_found_incrementally_equals_a_full_scan():
    from eagle_chat.ui.chat.markdown_html import stable_prefix_end

    text = STREAMED_REPLY * 2 + "```\nan open fence\n\nstill code\n"
    # The last block at the margin after a blank line is "Done."; the blank line inside the open fence
    # does not count.
    assert text[stable_prefix_end(text):] == "Done.\n```\nan open fence\n\nstill code\n"
    for end in range(0, len(text) + 1, 3):
        earlier = stable_prefix_end(text[: end // 2])
        assert stable_prefix_end(text[:end], earlier) == stable_prefix_end(text[:end])
