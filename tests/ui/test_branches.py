"""The real window on the real engine (tiny pair): thinking shown apart, regenerate / edit / continue /
delete as branches, and what the model is sent is the visible path."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence

from eagle_chat.core.storage import branches, export
from tests.gui import REPLY_TIMEOUT_MS, send

ASK = "Write a Python function that reverses a string."


@pytest.fixture
def window(open_window):
    window = open_window()
    window.set_precision("f32")  # greedy speculative == plain, so branches compare exactly
    window.message_actions.confirm = False
    return window


@pytest.fixture
def sent(window):
    """Every prompt the controller hands the worker for a reply, as it was handed (not the background
    prefill that follows each reply: it sends the conversation so far, for the next turn's cache)."""
    prompts = []
    window.controller.engine.sig_request_generate.connect(
        lambda _id, prompt, settings, *_: None if settings.next_turn else prompts.append(prompt),
        Qt.ConnectionType.DirectConnection)
    return prompts


def wait_ready(qtbot, window):
    qtbot.waitUntil(lambda: window.controller.state == "ready", timeout=REPLY_TIMEOUT_MS)


def act(qtbot, window, name: str):
    """Trigger a menu action by its object name and wait for the reply it starts."""
    action = window.findChild(QAction, name)
    assert action is not None and action.isEnabled(), name
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as blocker:
        action.trigger()
    return blocker.args


def click(qtbot, window, action: str, message, *, wait=True):
    """Click a message's link in the chat view (what QTextBrowser emits for a click on it)."""
    url = QUrl(f"action:{action}:{message.id}")
    if not wait:
        window.chat.anchorClicked.emit(url)
        return None
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as blocker:
        window.chat.anchorClicked.emit(url)
    return blocker.args


def test_thinking_on_is_shown_apart_from_the_answer_and_never_sent_back(qtbot, window, sent, spec_engine):
    wait_ready(qtbot, window)
    window.options.thinking.setChecked(True)
    window.options.max_tokens.setValue(80)
    message, result = send(qtbot, window, ASK)
    assert result.text.startswith("<think>")  # what the model wrote…
    assert "<think>" not in message.content and "</think>" not in message.content  # …and what the answer is
    assert message.thinking == result.reasoning.thinking and "The user wants" in message.thinking
    assert message.content == result.reasoning.answer and message.content.strip()
    shown = window.chat.toPlainText()
    assert "▸ Thought for " in shown and "The user wants" not in shown and "<think>" not in shown
    assert f"{result.stats.thinking_tokens} thinking + {result.stats.answer_tokens} answer" in shown
    assert "thinking +" in window.stats_label.text()
    window.chat.anchorClicked.emit(QUrl(f"thinking:{message.id}"))
    assert "▾ Thought for " in window.chat.toPlainText() and message.thinking.splitlines()[0] in window.chat.toPlainText()

    stored = window.controller.store.load_conversation(window.controller.conversation.id).messages[-1]
    assert (stored.thinking, stored.content) == (message.thinking, message.content)
    assert stored.stats.thinking_tokens == result.stats.thinking_tokens > 0
    _, second = send(qtbot, window, "And in C?")
    earlier = sent[-1][1]
    assert earlier == {"role": "assistant", "content": message.content}  # the answer only: no thinking sent back
    assert second.stats.input_tokens == spec_engine.count_prompt_tokens(sent[-1], True)


def test_thinking_off_has_no_block(qtbot, window):
    wait_ready(qtbot, window)
    window.options.thinking.setChecked(False)
    window.options.max_tokens.setValue(40)
    message, result = send(qtbot, window, ASK)
    assert message.thinking == "" and result.stats.thinking_tokens is None
    assert "Thought" not in window.chat.toPlainText() and "Thinking" not in window.chat.toPlainText()


def test_regenerate_keeps_both_replies_each_with_its_own_stats(qtbot, window, sent):
    wait_ready(qtbot, window)
    window.options.max_tokens.setValue(40)
    first, first_result = send(qtbot, window, ASK)
    assert first_result.stats.mode == "speculative"
    assert window.findChild(QAction, "actionRegenerate").shortcut() == QKeySequence("Ctrl+R")
    qtbot.mouseClick(window.model_bar.draft_toggle, Qt.MouseButton.LeftButton)  # ask again, without the draft
    second, second_result = act(qtbot, window, "actionRegenerate")
    assert second_result.stats.mode == "baseline" and second.id != first.id
    assert sent[-1] == sent[-2]  # asked with the same history
    conversation = window.controller.conversation
    assert [m.id for m in branches.siblings(conversation, second)] == [first.id, second.id]
    assert second.content == first.content  # greedy, f32: the same answer, measured two ways
    shown = window.chat.toPlainText()
    assert "‹ 2/2 ›" in shown and "baseline · " in shown and "speculative · " not in shown

    window.chat.anchorClicked.emit(QUrl(f"action:previous:{second.id}"))
    shown = window.chat.toPlainText()
    assert "‹ 1/2 ›" in shown and "speculative · " in shown and "baseline · " not in shown
    assert f"{first_result.stats.tokens_per_s:.1f} tok/s" in shown
    assert conversation.messages[-1] is first
    reopened = window.controller.store.load_conversation(conversation.id)  # the switch is remembered
    assert reopened.messages[-1].id == first.id and reopened.messages[-1].stats == first_result.stats
    window.chat.anchorClicked.emit(QUrl(f"action:next:{first.id}"))
    assert conversation.messages[-1] is second and "baseline · " in window.chat.toPlainText()


def test_edit_keeps_the_old_branch_and_sends_only_the_new_path(qtbot, window, sent, spec_engine):
    wait_ready(qtbot, window)
    window.options.max_tokens.setValue(24)
    send(qtbot, window, "Say hello.")
    old_reply, _ = send(qtbot, window, "And what does print do?")
    old_question = window.controller.conversation.messages[2]
    window.prompt.setFocus()
    qtbot.keyClick(window.prompt, Qt.Key.Key_Up)  # Up in the empty box edits the last message
    assert window.prompt.toPlainText() == "And what does print do?"
    assert window.composer.edit_note.isVisibleTo(window) and window.message_actions.editing is old_question
    window.prompt.clear()
    new_reply, result = send(qtbot, window, "And what does len do?")
    conversation = window.controller.conversation
    path = conversation.messages
    assert [m.content for m in path[:3]] == ["Say hello.", conversation.messages[1].content, "And what does len do?"]
    assert path[-1] is new_reply and not window.composer.edit_note.isVisibleTo(window)
    expected = [{"role": m.role, "content": m.content} for m in path[:3]]
    assert sent[-1] == expected  # the edited path, not the old question
    assert result.stats.input_tokens == spec_engine.count_prompt_tokens(expected, window.generation_settings().thinking)
    assert old_question in conversation.all_messages and old_reply in conversation.all_messages
    assert "‹ 2/2 ›" in window.chat.toPlainText() and "print" not in window.chat.toPlainText()

    window.chat.anchorClicked.emit(QUrl(f"action:previous:{path[2].id}"))  # the old branch is all there
    assert [m.content for m in conversation.messages][2:] == ["And what does print do?", old_reply.content]
    assert "And what does print do?" in window.chat.toPlainText()

    first = conversation.messages[0]  # edit the first message through its link: a whole new branch
    window.chat.anchorClicked.emit(QUrl(f"action:edit:{first.id}"))
    window.prompt.setPlainText("Say goodbye.")
    _, result = send(qtbot, window, "")
    assert sent[-1] == [{"role": "user", "content": "Say goodbye."}]
    assert [m.content for m in conversation.messages][0] == "Say goodbye." and len(conversation.messages) == 2
    assert len(conversation.all_messages) == 8


def test_continue_extends_a_reply_cut_by_the_token_limit(qtbot, window, sent, open_window):
    wait_ready(qtbot, window)
    window.options.thinking.setChecked(True)
    window.options.max_tokens.setValue(4)  # cut inside the thinking: "<think>\nThe user" (next: " wants")
    cut, cut_result = send(qtbot, window, ASK)
    assert cut_result.stats.generated_tokens == 4 and cut.content == "" and cut.thinking == "The user"
    assert branches.is_cut(cut) and "Continue" in window.chat.toPlainText()
    window.options.max_tokens.setValue(60)
    continued, result = act(qtbot, window, "actionContinue")
    assert continued is cut and len(window.controller.conversation.all_messages) == 2  # the same reply, extended
    assert sent[-1][-1] == {"role": "assistant", "content": "<think>\n" + cut_result.reasoning.thinking}
    assert continued.thinking.startswith(cut_result.reasoning.thinking) and continued.content
    assert "<think>" not in continued.content and "</think>" not in continued.content
    assert continued.stats.runs == 2 and continued.stats.generated_tokens == 4 + result.stats.generated_tokens
    assert continued.thinking.startswith("The user wants")

    # the same question without a cut: greedy gives the same reply
    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    window.options.max_tokens.setValue(64)
    whole, _ = send(qtbot, window, ASK)
    assert (whole.thinking, whole.content) == (continued.thinking, continued.content)


def test_delete_takes_the_message_and_what_follows_and_shows_the_sibling(qtbot, window):
    wait_ready(qtbot, window)
    window.options.max_tokens.setValue(16)
    first, _ = send(qtbot, window, "Say hello.")
    second, _ = act(qtbot, window, "actionRegenerate")
    send(qtbot, window, "And more?")
    conversation = window.controller.conversation
    assert len(conversation.messages) == 4
    click(qtbot, window, "delete", second, wait=False)  # the reply, and the question after it
    assert [m.id for m in conversation.messages] == [conversation.messages[0].id, first.id]
    assert len(conversation.all_messages) == 2 and "‹" not in window.chat.toPlainText()
    stored = window.controller.store.load_conversation(conversation.id)
    assert [m.id for m in stored.messages] == [m.id for m in conversation.messages]


def test_a_question_whose_reply_was_deleted_has_generate_and_ctrl_r_answers_it(qtbot, window, sent):
    """Deleting the only reply left its question stranded: no link answered it, and Ctrl+R regenerated the
    reply before it (cutting the question off the path). The delete test above checked only the path."""
    wait_ready(qtbot, window)
    window.options.max_tokens.setValue(16)
    first, _ = send(qtbot, window, "Say hello.")
    second, _ = send(qtbot, window, "And more?")
    conversation = window.controller.conversation
    question = conversation.messages[-2]
    click(qtbot, window, "delete", second, wait=False)
    assert conversation.messages[-1] is question and "Generate" in window.chat.toPlainText()
    regenerate = window.findChild(QAction, "actionRegenerate")
    assert regenerate.isEnabled() and regenerate.text() == "Generate reply"
    reply, _ = act(qtbot, window, "actionRegenerate")  # Ctrl+R
    assert [m.id for m in conversation.messages[:3]] == [conversation.messages[0].id, first.id, question.id]
    assert conversation.messages[-1] is reply and reply.content and reply.parent_id == question.id
    assert sent[-1][-1] == {"role": "user", "content": "And more?"}
    assert regenerate.text() == "Regenerate reply" and "‹" not in window.chat.toPlainText()
    click(qtbot, window, "delete", reply, wait=False)
    answered, _ = click(qtbot, window, "generate", question)  # the link under the question
    assert conversation.messages[-1] is answered and answered.parent_id == question.id


def test_a_regenerated_reply_that_repeats_says_why_and_samples_without_the_draft(qtbot, window):
    """Greedy EAGLE-3 gives byte-identical versions and nothing said why (the regenerate test above even
    relies on it). The reply now says so, and offers the one way GenAI allows: sample without the draft."""
    wait_ready(qtbot, window)
    window.options.max_tokens.setValue(16)
    send(qtbot, window, ASK)
    again, _ = act(qtbot, window, "actionRegenerate")
    assert window.has_draft and not again.made_with["settings"]["do_sample"]
    shown = window.chat.toPlainText()
    assert "Same as version 1: greedy decoding gives the same answer every time" in shown
    assert "Get a different answer…" in shown
    window.chat.anchorClicked.emit(QUrl(f"action:vary:{again.id}"))
    assert "decodes greedily" in window.notice.text() and "without its draft" in window.notice.text()
    button = window.notice.action_button
    assert not button.isHidden() and button.text() == "Load without the draft and sample"
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS * 2) as blocker:
        button.click()
    sampled = blocker.args[0]
    assert sampled.made_with["draft"] is None and sampled.made_with["settings"]["do_sample"]
    assert not window.has_draft and window.options.sampling_active()
    assert branches.position(window.controller.conversation, sampled) == (3, 3)
    assert branches.repeats(window.controller.conversation, sampled) is None


def test_export_and_import_from_the_window(qtbot, window, tmp_path):
    wait_ready(qtbot, window)
    window.options.max_tokens.setValue(16)
    send(qtbot, window, "Say hello.")
    act(qtbot, window, "actionRegenerate")
    original = window.controller.conversation
    assert window.message_actions.export_to(tmp_path / "c.json", "json")
    assert window.message_actions.export_to(tmp_path / "c", "md")
    markdown = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert "## EagleChat (reply 2 of 2)" in markdown and "[^1]: EAGLE-3 K=5" in markdown
    with qtbot.waitSignal(window.controller.sig_conversation_opened):
        assert window.message_actions.import_from(tmp_path / "c.json")
    imported = window.controller.conversation
    assert imported.id != original.id and export.dumps(imported) == (tmp_path / "c.json").read_text(encoding="utf-8")
    assert window.conversations.titles().count("Say hello.") == 2
    (tmp_path / "bad.json").write_text("[1, 2]", encoding="utf-8")
    assert not window.message_actions.import_from(tmp_path / "bad.json")
    assert "not an EagleChat conversation" in window.notice.text()


def test_shortcuts_and_actions_carry_their_names(qtbot, window):
    expected = {"actionRegenerate": ["Ctrl+R"], "actionEditLastMessage": [], "actionContinue": [],
                "actionExportConversation": ["Ctrl+Shift+E"], "actionImportConversation": [],
                "actionNewConversation": ["Ctrl+N"], "actionFocusSearch": ["Ctrl+F", "Ctrl+K"]}
    for name, keys in expected.items():
        action = window.findChild(QAction, name)
        assert action is not None, name
        assert [k.toString() for k in action.shortcuts()] == keys, name
    assert not window.findChild(QAction, "actionRegenerate").isEnabled()  # nothing to regenerate yet
    window.show()
    window.findChild(QAction, "actionFocusSearch").trigger()
    qtbot.waitUntil(lambda: window.conversations.search.hasFocus())


def test_a_database_from_the_release_before_branches_opens_in_the_window(qtbot, open_window, eagle_home):
    fixture = Path(__file__).parents[1] / "fixtures" / "conversations-v1.sqlite3"
    (eagle_home / "data").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(fixture, eagle_home / "data" / "conversations.sqlite3")
    window = open_window()
    assert len(window.conversations.titles()) == 5
    window.controller.conversations.open_conversation(2)
    shown = window.chat.toPlainText()
    assert "▸ Thoughts" in shown and "<think>" not in shown and "Here is get_format" in shown
    assert (eagle_home / "data" / "conversations.sqlite3.v1-backup").is_file()
    assert json.loads(export.dumps(window.controller.conversation))["messages"][1]["thinking"].startswith("The user")
