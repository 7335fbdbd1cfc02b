"""Tool use "Required" on a reduced-vocabulary (d2t) draft, in the real window with the committed d2t pair and
a real stdio MCP server: the next-reply line says before sending that the tool call will not be drafted, and
that step's figures say so after (the stats line, the tool block, kept with the reply)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from eagle_chat.core.generation.structured import GRAMMAR_D2T_REASON
from tests.gui import REPLY_TIMEOUT_MS, send
from tests.ui.test_agent_mode import configure

D2T = Path(__file__).resolve().parents[1] / "models" / "d2t"
BEFORE = "its tool call decodes without drafting"
AFTER = "grammar: drafting off (reduced-vocabulary draft)"


def under_the_tool_block(window) -> bool:
    """The note is on the line under the call's block ("▸ Tool weather · …", then the step's figures and the
    note), not only in the reply's footer."""
    return re.search(r"▸ Tool \w+ · [^\n]*\nThis step: [^\n]*" + re.escape(AFTER), window.chat.toPlainText()) is not None


def choose_mode(window, mode: str) -> None:
    combo = window.agent.combo
    combo.setCurrentIndex(combo.findData(mode))
    combo.activated.emit(combo.currentIndex())


@pytest.mark.slow
def test_required_tool_use_on_a_d2t_draft_says_drafting_is_off_before_and_after(open_window, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel

    configure()  # "add" and "weather", each call asked about: the loop waits after the tool-call step
    window = open_window("--model", str(D2T / "tiny-qwen3"), "--draft", str(D2T / "tiny-qwen3-eagle3"))
    assert window.controller.loaded.draft_reduced_vocab
    line = window.side.next_reply
    choose_mode(window, "auto")  # no grammar: the d2t draft drafts
    qtbot.waitUntil(lambda: "EAGLE-3 speculative decoding" in line.text(), timeout=2_000)
    choose_mode(window, "required")
    qtbot.waitUntil(lambda: window.agent.hub.wait_started(0) and BEFORE in line.text(), timeout=60_000)
    assert "reduced-vocabulary (d2t) draft" in line.text()

    with qtbot.waitSignal(window.controller.sig_reply_started, timeout=REPLY_TIMEOUT_MS) as started:
        send(qtbot, window, "What is the weather in Oslo?", wait=False)
    assert started.args[0].mode == "baseline"  # the speed chart names the step's line as it decodes: no drafting
    qtbot.waitUntil(lambda: window.agent.approval is not None, timeout=REPLY_TIMEOUT_MS)
    reply = window.controller.conversation.messages[-1]
    (step,) = reply.tool_steps
    assert step["calls"] and step["figures"]["mode"] == "baseline" and step["figures"]["drafting_off_by_grammar"]
    assert reply.stats.drafting_off_by_grammar and reply.stats.draft_skipped == GRAMMAR_D2T_REASON
    assert AFTER in window.findChild(QLabel, "statsLabel").text()
    qtbot.waitUntil(lambda: under_the_tool_block(window), timeout=5_000)  # the step's own figures
    qtbot.mouseClick(window.stop_button, Qt.MouseButton.LeftButton)  # no answer step: this test is about the call
    assert window.agent._run is None

    conversation_id = window.controller.conversation.id  # kept with the reply: reopened, the block says it
    window.controller.conversations.new_conversation("")
    assert AFTER not in window.chat.toPlainText()
    window.controller.conversations.open_conversation(conversation_id)
    qtbot.waitUntil(lambda: under_the_tool_block(window), timeout=5_000)
    choose_mode(window, "off")
    qtbot.waitUntil(lambda: "EAGLE-3 speculative decoding" in line.text(), timeout=2_000)


def test_the_shipped_chinese_translation_has_the_words(qapp):
    """The shipped zh_CN .qm (resources/translations) carries the line and the figures note, K filled in."""
    from eagle_chat.core.generation import outlook
    from eagle_chat.core.generation.engine import GenerationSettings
    from eagle_chat.core.generation.metrics import GenerationStats
    from eagle_chat.core.generation.structured import Constraint
    from eagle_chat.ui.words import grammar_texts, i18n, texts

    held = outlook.next_reply(loaded=True, has_draft=True, device="CPU", draft_device="CPU", draft_reduced_vocab=True,
                              settings=GenerationSettings(num_assistant_tokens=3, constraint=Constraint("tool_calls", "[]")))
    stats = GenerationStats("baseline", 0, 10, 20, 50.0, 2.0, 500.0, 70.0, drafting_off_by_grammar=True)
    i18n.apply_language(qapp, "zh_CN")  # the shared-app fixture puts English back afterwards
    assert texts.next_reply_line(held) == grammar_texts.next_reply_line(held)
    assert texts.next_reply_line(held).startswith("下一条回复：其中的工具调用不使用草稿解码") and "K=3" in texts.next_reply_line(held)
    assert "缩减词表（d2t）草稿模型" in grammar_texts.next_reply_line(
        outlook.next_reply(loaded=True, has_draft=True, draft_reduced_vocab=True,
                           settings=GenerationSettings(constraint=Constraint("json_object"))))
    assert texts.stats_summary(stats).endswith("语法约束：草稿已关闭（缩减词表草稿模型）")
