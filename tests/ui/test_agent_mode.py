"""Agent mode in the real window with the real engine (tiny pair) and a real stdio MCP server (SDK-written):
tool use required makes the toy model call a tool; the user approves or denies; the result goes back and the
next step runs into the same reply; autoApprove tools run without asking."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from eagle_chat import paths
from eagle_chat.core.tools import agent
from tests.gui import REPLY_TIMEOUT_MS, send

TOOLS_SERVER = str(Path(__file__).resolve().parents[1] / "mcp_servers" / "tools_server.py")


def configure(auto_approve=()):
    paths.mcp_config_file().write_text(json.dumps({"mcpServers": {"local": {
        "command": sys.executable, "args": [TOOLS_SERVER], "env": {"ONLY_TOOLS": "add,weather"},
        "autoApprove": list(auto_approve)}}}))


def agent_window(open_window, qtbot, mode: str):
    window = open_window()
    assert window.agent.hub is not None and window.agent.hub.wait_started(60)
    combo = window.findChild(type(window.agent.combo), "toolUseCombo")
    index = combo.findData(mode)
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    return window


def finish_loop(qtbot, window):
    qtbot.waitUntil(lambda: window.agent._run is None and window.controller.state == "ready",
                    timeout=REPLY_TIMEOUT_MS)
    return window.controller.conversation.messages[-1]


@pytest.mark.slow
def test_required_mode_asks_runs_the_allowed_call_and_the_next_step_reads_its_result(open_window, qtbot):
    configure()
    window = agent_window(open_window, qtbot, "required")
    send(qtbot, window, "What is the weather in Oslo?", wait=False)
    qtbot.waitUntil(lambda: window.agent.approval is not None, timeout=REPLY_TIMEOUT_MS)
    assert window.agent.approval.objectName() == "toolApproval"
    window.agent.approval.findChild(type(window.agent.approval.buttons()[0]), "allowOnceButton").click()
    reply = finish_loop(qtbot, window)
    (step,) = reply.tool_steps[:1]
    (call,) = step["calls"]
    assert call["status"] == "done" and call["server"] == "local" and call["tool"] in ("add", "weather")
    assert call["result"] and not call["is_error"]
    assert step["figures"]["tokens"] > 0 and 0 < step["next_from_result_ms"] < 10_000
    shown = (f"This step: {step['figures']['tokens']} tokens, {step['figures']['tokens_per_s']:.0f} tok/s, first token "
             f"{step['figures']['ttft_ms']:.0f} ms · next step {step['next_from_result_ms']:.0f} ms after the result")
    qtbot.waitUntil(lambda: shown in window.chat.toPlainText(), timeout=5_000)  # each step's own figures
    print(f"\ntool-call step: {step['figures']}; answer step: {reply.stats.generated_tokens} tokens, "
          f"{reply.stats.tokens_per_s:.0f} tok/s; tool result -> next step's first token: "
          f"{step['next_from_result_ms']} ms")
    history = window.controller.conversation.history()
    assert {"role": "tool", "tool_call_id": call["id"], "content": call["result"]} in history
    assert reply.status == "complete" and window.agent.approval is None
    # kept: a fresh read of the database has the calls, and the reopened conversation shows them
    stored = window.controller.store.load_conversation(window.controller.conversation.id).messages[-1]
    assert stored.tool_steps == reply.tool_steps
    agent_id = window.controller.conversation.id
    window.controller.conversations.new_conversation("")
    assert f"Tool {call['tool']}" not in window.chat.toPlainText()
    window.controller.conversations.open_conversation(agent_id)
    qtbot.waitUntil(lambda: f"Tool {call['tool']} · done" in window.chat.toPlainText(), timeout=10_000)


@pytest.mark.slow
def test_deny_sends_the_refusal_to_the_model(open_window, qtbot):
    configure()
    window = agent_window(open_window, qtbot, "required")
    send(qtbot, window, "Add 2 and 3.", wait=False)
    qtbot.waitUntil(lambda: window.agent.approval is not None, timeout=REPLY_TIMEOUT_MS)
    window.agent.approval.findChild(type(window.agent.approval.buttons()[0]), "denyButton").click()
    reply = finish_loop(qtbot, window)
    call = reply.tool_steps[0]["calls"][0]
    assert (call["status"], call["result"]) == ("denied", agent.DENIED_TEXT)


@pytest.mark.slow
def test_auto_approved_tools_run_without_asking_and_off_offers_no_tools(open_window, qtbot):
    configure(auto_approve=["add", "weather"])
    window = agent_window(open_window, qtbot, "required")
    send(qtbot, window, "Add 2 and 3.", wait=False)
    reply = finish_loop(qtbot, window)
    assert window.agent.approval is None
    assert reply.tool_steps and reply.tool_steps[0]["calls"][0]["status"] == "done"
    combo = window.agent.combo
    combo.setCurrentIndex(combo.findData("off"))
    combo.activated.emit(combo.currentIndex())
    message, _result = send(qtbot, window, "Hello")
    assert message.tool_steps is None


@pytest.mark.slow
def test_the_calls_show_as_collapsible_blocks_and_stop_while_asked_ends_the_loop(open_window, qtbot):
    from PySide6.QtCore import QUrl

    from eagle_chat.ui.chat import anchors

    configure()
    window = agent_window(open_window, qtbot, "required")
    send(qtbot, window, "<b>What</b> is the weather?", wait=False)
    qtbot.waitUntil(lambda: window.agent.approval is not None, timeout=REPLY_TIMEOUT_MS)
    reply = window.controller.conversation.messages[-1]
    call = reply.tool_steps[0]["calls"][0]
    text = window.chat.toPlainText()
    assert f"▸ Tool {call['name']} · waiting for approval" in text
    assert window.stop_button.isEnabled()
    qtbot.mouseClick(window.stop_button, __import__("PySide6.QtCore", fromlist=["Qt"]).Qt.MouseButton.LeftButton)
    assert window.agent._run is None and window.agent.approval is None
    assert (reply.status, call["status"]) == ("stopped", "stopped")
    anchors.follow(window.chat, QUrl(f"toolcall:{reply.id}:{call['id']}"))
    qtbot.waitUntil(lambda: "The user stopped the reply" in window.chat.toPlainText(), timeout=5000)
    assert f"▾ Tool {call['name']} · stopped" in window.chat.toPlainText()


@pytest.mark.slow
def test_the_step_limit_ends_the_loop_and_says_so(open_window, qtbot, monkeypatch):
    monkeypatch.setattr(agent, "MAX_STEPS", 1)
    configure(auto_approve=["add", "weather"])
    window = agent_window(open_window, qtbot, "required")
    send(qtbot, window, "Add 2 and 3.", wait=False)
    reply = finish_loop(qtbot, window)
    assert reply.tool_steps[0]["calls"][0]["status"] == "done"
    assert reply.content == "Stopped after 1 tool steps (the step limit)."
    assert reply.content in window.chat.toPlainText()


def test_tool_results_are_shown_as_inert_text(qtbot):
    from eagle_chat.core.storage.conversation import Message
    from eagle_chat.ui.chat.tool_blocks import ToolBlocks

    hostile = '<img src="file:///etc/passwd"><a href="javascript:x">[click](javascript:alert(1))</a>'
    message = Message("assistant", "", id=7, tool_steps=[{"content": "<script>", "calls": [
        {"id": "c1", "name": "web", "tool": "web", "arguments": '{"q": "<b>"}', "status": "done",
         "result": hostile, "seconds": 0.5}]}])
    blocks = ToolBlocks()
    blocks.toggle("c1")
    drawn = blocks.html(message)
    assert "<img" not in drawn and "<script>" not in drawn and 'href="javascript' not in drawn
    assert "&lt;img" in drawn and "&lt;script&gt;" in drawn and 'href="toolcall:7:c1"' in drawn


def test_the_tools_dialog_lists_servers_and_tools_and_turns_them_off(open_window, qtbot):
    import json as json_

    from PySide6.QtCore import Qt
    from PySide6.QtGui import QAction

    configure()
    window = agent_window(open_window, qtbot, "auto")
    window.findChild(QAction, "actionTools").trigger()
    dialog = window.agent.dialog
    assert dialog.isVisible() and dialog.objectName() == "toolsDialog"
    tree = dialog.tree
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).text(1) == "ready", timeout=10_000)
    server = tree.topLevelItem(0)
    assert server.text(0) == "local" and {server.child(i).text(0) for i in range(server.childCount())} == {"add", "weather"}
    weather = next(server.child(i) for i in range(server.childCount()) if server.child(i).text(0) == "weather")
    # the names are shown whole (the column was once narrower than "weather", which Qt elided to "we…")
    assert tree.columnWidth(0) >= tree.sizeHintForColumn(0)  # names whole (at 100 px Qt elided "weather" to "we…")
    weather.setCheckState(0, Qt.CheckState.Unchecked)
    assert window.agent.disabled == {("local", "weather")}
    offered = json_.loads(window.agent.first_step(window.generation_settings()).tools)
    assert [f["function"]["name"] for f in offered] == ["add"]
    server.setCheckState(0, Qt.CheckState.Unchecked)  # written to mcp.json, servers read again
    assert json_.loads(paths.mcp_config_file().read_text())["mcpServers"]["local"]["disabled"] is True
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).text(1) == "off", timeout=10_000)
    assert window.agent.first_step(window.generation_settings()).tools is None
    tree.topLevelItem(0).setCheckState(0, Qt.CheckState.Checked)
    assert "disabled" not in json_.loads(paths.mcp_config_file().read_text())["mcpServers"]["local"]
    qtbot.waitUntil(lambda: tree.topLevelItem(0).text(1) == "ready", timeout=30_000)


@pytest.mark.slow
def test_regenerate_runs_the_loop_again_and_keeps_the_first_replys_calls(open_window, qtbot):
    configure(auto_approve=["add", "weather"])
    window = agent_window(open_window, qtbot, "required")
    send(qtbot, window, "Add 2 and 3.", wait=False)
    first = finish_loop(qtbot, window)
    assert first.tool_steps
    window.message_actions.on_message_action("regenerate", first.id)
    qtbot.waitUntil(lambda: window.controller.conversation.messages[-1] is not first, timeout=10_000)
    second = finish_loop(qtbot, window)
    assert second is not first and second.tool_steps and second.tool_steps[0]["calls"][0]["status"] == "done"
    assert first.tool_steps[0]["calls"][0]["id"] != second.tool_steps[0]["calls"][0]["id"]
    # a reply the user continues is not an agent step: its end starts no loop
    window.message_actions.on_message_action("continue", second.id)
    qtbot.waitUntil(lambda: window.controller.state == "ready", timeout=REPLY_TIMEOUT_MS)
    assert window.agent._run is None and len(second.tool_steps) == 1


@pytest.mark.slow
def test_a_hung_tool_never_freezes_the_window_and_its_timeout_reaches_the_model(open_window, qtbot):
    import time

    from PySide6.QtCore import QTimer

    paths.mcp_config_file().write_text(json.dumps({"mcpServers": {"local": {
        "command": sys.executable, "args": [TOOLS_SERVER], "env": {"ONLY_TOOLS": "hang"}, "autoApprove": ["hang"]}}}))
    window = agent_window(open_window, qtbot, "required")
    window.agent.hub.call_timeout = 2.0
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    send(qtbot, window, "Wait for me.", wait=False)
    qtbot.waitUntil(lambda: window.agent._run is not None and any(
        c["status"] == "running" for c in window.agent._run.get("waiting", [])), timeout=REPLY_TIMEOUT_MS)
    started = len(ticks)
    reply = finish_loop(qtbot, window)
    timer.stop()
    gaps = [b - a for a, b in zip(ticks[started:], ticks[started + 1:])]
    assert len(gaps) > 40 and max(gaps) < 0.5, f"the GUI thread stalled for {max(gaps):.2f} s"
    call = reply.tool_steps[0]["calls"][0]
    assert call["status"] == "error" and "did not answer within 2 s" in call["result"]


@pytest.mark.slow
def test_required_waits_for_a_server_still_starting_then_calls_its_tool(open_window, qtbot):
    """A message sent the moment the window is ready, while the only MCP server takes 3 s to start: the window
    says the tools are starting, sends the message once they are up, and the reply calls the tool (never a
    plain reply without a word)."""
    paths.mcp_config_file().write_text(json.dumps({"mcpServers": {"slow": {
        "command": sys.executable, "args": [TOOLS_SERVER], "env": {"ONLY_TOOLS": "add,weather", "START_DELAY": "3"},
        "autoApprove": ["add", "weather"]}}}))
    window = open_window()
    combo = window.findChild(type(window.agent.combo), "toolUseCombo")
    combo.setCurrentIndex(index := combo.findData("required"))
    combo.activated.emit(index)
    assert not window.agent.hub.wait_started(0)  # still starting
    send(qtbot, window, "What is the weather in Oslo?", wait=False)
    assert "Starting tools" in window.notice.text() and window.controller.state == "ready"  # held, not sent
    qtbot.waitUntil(lambda: window.controller.conversation is not None and window.agent._held is None
                    and window.controller.conversation.messages[-1].role == "assistant", timeout=REPLY_TIMEOUT_MS)
    reply = finish_loop(qtbot, window)
    assert reply.tool_steps and reply.tool_steps[0]["calls"][0]["server"] == "slow"
    assert reply.tool_steps[0]["calls"][0]["status"] == "done"


@pytest.mark.slow
def test_required_with_its_only_server_failed_is_refused_naming_it(open_window, qtbot):
    paths.mcp_config_file().write_text(json.dumps({"mcpServers": {"broken": {
        "command": sys.executable, "args": [TOOLS_SERVER], "env": {"FAIL_AT_START": "1"}}}}))
    window = agent_window(open_window, qtbot, "required")
    send(qtbot, window, "What is the weather in Oslo?", wait=False)
    assert "no tool is available" in window.notice.text() and "broken" in window.notice.text()
    assert window.controller.state == "ready" and window.prompt.toPlainText() == "What is the weather in Oslo?"  # not sent
