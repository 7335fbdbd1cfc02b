"""The thinking block in the chat view: streams live as "Thinking…", folds to "Thought for N s", opens on click."""

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QApplication

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.chat.chat_view import ChatView

THOUGHTS = "The user wants a reversal.\nSlicing does it: s[::-1].\nI will write it in Python."


def stats(thinking_ms=3200.0):
    return GenerationStats(mode="speculative", num_assistant_tokens=5, generated_tokens=50, input_tokens=19,
                           ttft_ms=5.0, tpot_ms=2.0, tokens_per_s=480.0, duration_ms=110.0, accepted_tokens=20,
                           draft_tokens=40, acceptance=0.5, tokens_per_step=2.0, thinking_tokens=21,
                           thinking_ms=thinking_ms)


def streaming_view(qtbot, monkeypatch):
    import eagle_chat.ui.chat.chat_view as chat_view

    monkeypatch.setattr(chat_view, "MIN_RENDER_INTERVAL_S", 0.0)
    monkeypatch.setattr(chat_view, "RENDER_COST_FACTOR", 0.0)
    view = ChatView()
    qtbot.addWidget(view)
    reply = Message("assistant", "", id=2, status="streaming", parent_id=1)
    view.show_conversation(Conversation(messages=[Message("user", "Reverse a string", id=1), reply]))
    return view, reply


def test_thoughts_stream_live_then_fold_when_the_answer_begins(qtbot, monkeypatch):
    view, reply = streaming_view(qtbot, monkeypatch)
    inserted = []
    real = view.thinking.append_live
    monkeypatch.setattr(view.thinking, "append_live", lambda cursor, text, first, start: (
        inserted.append(text), real(cursor, text, first=first, start=start)))
    for end in range(4, len(THOUGHTS) + 4, 4):
        reply.thinking = THOUGHTS[:end]
        view.update_message(reply)
        shown = view.toPlainText()
        assert "Thinking…" in shown and reply.thinking.splitlines()[-1] in shown
    assert "".join(inserted) == THOUGHTS  # each thought drawn once: only what is new is appended
    assert view.toPlainText().count("The user wants") == 1

    reply.content = "Here is one:"
    view.update_message(reply)
    shown = view.toPlainText()
    assert "Thinking…" not in shown and "The user wants" not in shown and "Here is one:" in shown
    assert "▸ Thought for " in shown  # measured as seen, until the engine's figure arrives

    reply.status, reply.stats = "complete", stats()
    view.finish_message(reply)
    assert "▸ Thought for 3.2 s" in view.toPlainText() and "The user wants" not in view.toPlainText()
    assert "21 thinking + 29 answer" in view.toPlainText()
    view.anchorClicked.emit(QUrl("thinking:2"))
    assert "▾ Thought for 3.2 s" in view.toPlainText() and "Slicing does it: s[::-1]." in view.toPlainText()
    view.anchorClicked.emit(QUrl("thinking:2"))
    assert "The user wants" not in view.toPlainText()
    view.anchorClicked.emit(QUrl("copy-message:2"))
    assert QApplication.clipboard().text() == "Here is one:"  # the answer, never the thinking


def test_a_reply_without_thinking_has_no_block(qtbot, monkeypatch):
    view, reply = streaming_view(qtbot, monkeypatch)
    reply.content = "Just an answer."
    view.update_message(reply)
    reply.status = "complete"
    view.finish_message(reply)
    assert "Thought" not in view.toPlainText() and "Thinking" not in view.toPlainText()


def test_a_reply_stopped_while_thinking_shows_its_thoughts(qtbot, monkeypatch):
    view, reply = streaming_view(qtbot, monkeypatch)
    reply.thinking = "Half a thought"
    view.update_message(reply)
    reply.status, reply.stats = "stopped", stats(900.0)
    view.finish_message(reply)
    assert "▾ Thought for 0.9 s" in view.toPlainText() and "Half a thought" in view.toPlainText()


def test_a_long_think_keeps_only_its_last_lines_on_screen_while_live(qtbot, monkeypatch):
    from eagle_chat.ui.chat.thinking_block import LIVE_LINES, LIVE_TRIM

    view, reply = streaming_view(qtbot, monkeypatch)
    lines = [f"thought number {i}" for i in range(300)]
    blocks = []
    for end in range(1, len(lines) + 1, 7):
        reply.thinking = "\n".join(lines[:end])
        view.update_message(reply)
        blocks.append(view.document().blockCount())
        shown = view.toPlainText()
        assert lines[end - 1] in shown and "Thinking…" in shown and "You" in shown  # the rest stays
    assert max(blocks) <= min(blocks) + LIVE_LINES + LIVE_TRIM + 1  # bounded, however long it thinks
    assert "thought number 0\n" not in view.toPlainText()
    reply.thinking, reply.content = "\n".join(lines), "Done."
    reply.status, reply.stats = "complete", stats()
    view.finish_message(reply)
    view.anchorClicked.emit(QUrl("thinking:2"))
    assert all(line in view.toPlainText() for line in lines)  # expanded: every thought


def test_continue_is_offered_under_a_cut_last_reply_only(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    cut = Message("assistant", "Here is", id=2, parent_id=1, stats=stats(), made_with={"hit_limit": True})
    conversation = Conversation(messages=[Message("user", "Reverse a string", id=1), cut])
    view.show_conversation(conversation)
    assert "Continue" in view.toPlainText()
    follow = Message("user", "Thanks", id=3, parent_id=2)
    conversation.messages.append(follow)
    view.append_message(follow)
    assert "Continue" not in view.toPlainText() and "Regenerate" in view.toPlainText()
