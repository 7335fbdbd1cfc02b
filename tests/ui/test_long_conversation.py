"""Long conversations through the real window on the tiny pair: history reaches the model, a chat longer
than the context goes on (only what fits is sent, the cut is shown), and a long chat opens at once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from eagle_chat.core.generation.context import prompt_limit
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.words import texts
from eagle_chat.ui.chat.chat_view import ChatView
from tests.gui import REPLY_TIMEOUT_MS, send

CODE_REPLY = "Like this:\n\n```python\ndef merge(a, b):\n    return sorted(a + b)\n```\n\nDone {i}."


def test_the_second_turn_sends_the_first_exchange(qtbot, open_window, plain_engine):
    window = open_window()
    window.options.max_tokens.setValue(24)
    first_message, first = send(qtbot, window, "What is a parser?")
    second_message, second = send(qtbot, window, "And a lexer?")
    thinking = window.generation_settings().thinking
    sent = [{"role": "user", "content": "What is a parser?"}, {"role": "assistant", "content": first.text},
            {"role": "user", "content": "And a lexer?"}]
    assert first.text and second.stats.input_tokens == plain_engine.count_prompt_tokens(sent, thinking)
    alone = plain_engine.count_prompt_tokens(sent[2:], thinking)
    assert second.stats.input_tokens >= alone + first.stats.input_tokens + len(first.text) // 8
    assert second.stats.history_tokens == second.stats.input_tokens - alone
    assert second.stats.history_dropped == 0


@pytest.mark.slow
def test_sixty_turns_run_to_the_end_sending_only_what_fits_and_marking_the_cut(qtbot, open_window):
    window = open_window()
    max_new = 64
    window.options.max_tokens.setValue(max_new)
    question = "Explain, with an example, how a recursive descent parser handles operator precedence. " * 6
    results, starts = [], []
    for turn in range(60):  # ~60 x (110 + up to 64) tokens: two and a half times the pair's 4,096
        window.prompt.setPlainText(f"Turn {turn}. {question}")
        with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=2 * REPLY_TIMEOUT_MS) as blocker:
            window.send()
        message, result = blocker.args
        assert result is not None, f"turn {turn} was refused: {message.error}"
        results.append(result)
        start = window.controller.conversation.memory_start()
        starts.append(start.id if start is not None else None)
    limits = ctx_limits(window)
    for result in results:
        assert result.stats.input_tokens <= prompt_limit(limits, max_new)
        assert result.stats.input_tokens + result.stats.generated_tokens <= limits.context - limits.margin
    assert results[-1].stats.history_dropped > 0
    cut = [s for s in starts if s is not None]
    moves = sum(1 for a, b in zip(cut, cut[1:]) if a != b)
    print(f"{len(cut)} turns sent a cut conversation; the cut moved {moves} times")
    assert 0 < moves < len(cut) - 1  # dropped in chunks: the sent prefix stays the same across turns

    conversation = window.controller.conversation
    start = conversation.memory_start()
    text = window.chat.toPlainText()
    mark = text.index(texts.MEMORY_START)
    assert text.count(texts.MEMORY_START) == 1
    assert text.index("Turn 0.") < mark and start.content[:40] in text[mark:mark + 200]
    assert start.role == "user" and start.content.startswith(f"Turn {conversation.messages.index(start) // 2}.")


def ctx_limits(window):
    from eagle_chat.core.generation.context import cpu_limits

    # The same limits the worker's engine uses: the model's context (the KV cache holds far more here).
    return cpu_limits(4096, None)


def long_conversation(n: int) -> Conversation:
    messages = []
    for i in range(n // 2):
        messages.append(Message("user", f"Question {i}?", id=2 * i + 1))
        messages.append(Message("assistant", CODE_REPLY.format(i=i), id=2 * i + 2))
    return Conversation(title="long", messages=messages, id=1)


def test_a_long_conversation_shows_its_newest_messages_at_once_and_the_rest_soon(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    view.show_conversation(long_conversation(200))
    text = view.toPlainText()
    assert "Done 99." in text and "Question 0?" not in text  # the newest now, the oldest not yet
    assert view.loading()
    qtbot.waitUntil(lambda: not view.loading(), timeout=30_000)
    text = view.toPlainText()
    positions = [text.index(f"Question {i}?") for i in range(100)]
    assert positions == sorted(positions)  # every message, in order
    assert text.count("def merge(a, b):") == 100
    assert view.toHtml().count(">def</span>") == 100  # every code block coloured (the keyword in a span)
    bar = view.verticalScrollBar()
    assert bar.value() == bar.maximum()  # still at the newest message


def test_opening_another_conversation_mid_draw_drops_the_rest_of_the_first(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    view.show_conversation(long_conversation(200))
    view.show_conversation(Conversation(messages=[Message("user", "other chat", id=500)]))
    # The event: the queue that held the first conversation's older messages has run empty (what is left of
    # the first draw would have been drawn before that).
    qtbot.waitUntil(lambda: not view.loading(), timeout=10_000)
    assert "other chat" in view.toPlainText() and "Question" not in view.toPlainText()


def test_a_double_click_opens_a_conversation_once(qtbot, open_window):
    window = open_window()
    store = window.controller.store
    for title in ("first", "second"):
        conversation = store.create_conversation(title)
        store.add_message(conversation, Message("user", f"{title} message"))
    window.refresh_conversations()
    opened = []
    window.controller.sig_conversation_opened.connect(opened.append)
    view = window.conversations.list
    rect = view.visualItemRect(view.item(1))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClick(view, Qt.Key.Key_Return)  # activation by keyboard: the same conversation, still once
    assert [c.title for c in opened] == ["first"]
    assert "first message" in window.chat.toPlainText()


def test_the_view_marks_where_the_latest_replys_context_began_and_follows_it(qtbot):
    from eagle_chat.core.generation.metrics import GenerationStats

    def stats(dropped: int) -> GenerationStats:
        return GenerationStats(mode="baseline", num_assistant_tokens=0, generated_tokens=5, input_tokens=900,
                               ttft_ms=1.0, tpot_ms=1.0, tokens_per_s=1.0, duration_ms=1.0, history_tokens=700,
                               history_dropped=dropped)

    conversation = long_conversation(10)
    conversation.messages[-1].stats = stats(4)  # the newest reply's context began at message index 4
    view = ChatView()
    qtbot.addWidget(view)
    view.show_conversation(conversation)
    qtbot.waitUntil(lambda: not view.loading(), timeout=10_000)
    text = view.toPlainText()
    assert text.index("Question 1?") < text.index(texts.MEMORY_START) < text.index("Question 2?")
    assert "history 700 tokens, 4 earlier messages not sent" in text
    reply = Message("assistant", "later", id=99, stats=stats(6))
    conversation.messages += [Message("user", "Question 5?", id=98), reply]
    view.append_message(conversation.messages[-2])
    view.append_message(reply)
    view.finish_message(reply)
    text = view.toPlainText()
    assert text.count(texts.MEMORY_START) == 1
    assert text.index("Question 2?") < text.index(texts.MEMORY_START) < text.index("Question 3?")
