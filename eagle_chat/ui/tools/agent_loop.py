"""AgentLoop: the window's agent mode — the model calls MCP tools, the user stays in control.

Per conversation the ``toolUseCombo`` says off / auto / required. With tools on, the first step of a reply
is offered the enabled tools (``required``: a grammar makes it call one); when a step ends with tool calls,
each is approved (Allow once / Always for this tool / Deny, unless the server's ``autoApprove`` lists it),
run on the ToolHub's own thread (the GUI thread never waits on a server), and its result goes back as a
``tool`` message; the next step then runs into the same reply. The loop ends with an answer, with Stop, or
after ``MAX_STEPS`` steps (said in the reply). The calls live on the reply (``Message.tool_steps``).
"""

from __future__ import annotations

import dataclasses
import logging
import time

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QComboBox, QMessageBox

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.tools import agent
from eagle_chat.core.tools.config import load_servers
from eagle_chat.core.tools.hub import ToolHub
from eagle_chat.core.tools.results import ToolResult

log = logging.getLogger(__name__)


class AgentLoop(QObject):
    sig_result = Signal(object, ToolResult)
    """A tool call ended (emitted on the hub's thread, queued to the GUI thread): the call dict and ToolResult."""
    sig_offer_changed = Signal()
    """What the next reply's first step would be offered may have changed: the mode, or the servers' tools."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.hub: ToolHub | None = None
        self.disabled: set[tuple[str, str]] = set()  # (server, tool) left out in the Tools dialog
        self.dialog = None
        self.modes: dict[int | None, str] = {}
        self.approvals: dict[int | None, agent.Approvals] = {}
        self.approval: QMessageBox | None = None  # the question on screen, if any
        self._run: dict | None = None  # the reply in the loop: message, settings, tools, step, waiting calls
        self._first: tuple | None = None  # (mode, tools) the next reply's first step was offered
        self._held = None  # a send waiting for the tool servers to start (tool use "Required")
        self.combo = QComboBox(window)
        self.combo.setObjectName("toolUseCombo")
        self.combo.setAccessibleName(self.tr("Tool use"))
        self.combo.view().setAccessibleName(self.tr("Tool use modes"))  # the list it pops up
        for text, mode in ((self.tr("Off"), "off"), (self.tr("Auto"), "auto"), (self.tr("Required"), "required")):
            self.combo.addItem(text, mode)
        self.combo.setToolTip(self.tr("Let the model call the tools of the MCP servers in mcp.json"))
        self.combo.activated.connect(self._mode_chosen)
        self._hub_watch = QTimer(self)  # the servers start on the hub's thread: tell listeners once they are up
        self._hub_watch.setInterval(200)
        self._hub_watch.timeout.connect(self._check_hub_started)
        window.options.layout().addRow(self.tr("Tool use"), self.combo)
        self.sig_result.connect(self._on_result)
        self.controller.sig_reply_finished.connect(self._on_reply_finished)
        self.controller.sig_reply_started.connect(self._on_reply_started)
        self.controller.sig_conversation_opened.connect(lambda _c: self._show_mode())
        window.closer.sig_closed.connect(self.close)
        window.stop_button.clicked.connect(self.stop)
        window.prompt.sig_escape.connect(self.stop)
        self.start_servers()

    # --- public API --------------------------------------------------------------------------------------
    def start_servers(self) -> None:
        try:
            servers = load_servers(paths.mcp_config_file())
        except UserError as error:
            self.window.show_notice(str(error), error=True)
            return
        if servers:
            self.hub = ToolHub(servers, stderr_dir=paths.log_dir())
            self.hub.start()
            self._hub_watch.start()

    def server_states(self) -> list:
        return self.hub.states() if self.hub is not None else []

    @Slot()
    def reload_servers(self) -> None:
        """Read mcp.json again: the servers end and start anew (a loop waiting on one gets its error)."""
        if self.hub is not None:
            self.hub.close()
            self.hub = None
        self.start_servers()
        self.sig_offer_changed.emit()

    def open_tools_dialog(self):
        from eagle_chat.ui.tools.tools_dialog import ToolsDialog

        if self.dialog is None:
            self.dialog = ToolsDialog(self, self.window)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def mode(self) -> str:
        """What the combo shows: the open conversation's choice (a new conversation keeps the last one, but
        "Required" becomes "Auto")."""
        return self.combo.currentData()

    def first_step(self, settings: GenerationSettings) -> GenerationSettings:
        """The settings of a reply the user asked for, with the tools offered when tool use is on."""
        tools, offer = self._offer()
        self._first = (self.mode(), tools, settings, offer.tools) if offer.tools else None
        return dataclasses.replace(settings, tools=offer.tools, constraint=offer.constraint)

    def hold(self, resend) -> bool:
        """Tool use "Required" means required: while the tool servers are still starting, the message waits
        (the notice says so) and ``resend`` runs once they are up; when they are up but no tool is offered,
        the message is refused, naming the servers that failed. False: send now."""
        if self.mode() != "required" or self.hub is None:
            return False
        if not self.hub.wait_started(0):
            self._held = resend
            self.window.show_notice(self.tr("Starting tools… your message is sent once they are up."))
            return True
        if self._offer()[0]:
            return False
        failed = ", ".join(s.config.name for s in self.hub.states() if s.status == "failed") or self.tr("none")
        self.window.show_notice(self.tr("Tool use is Required, but no tool is available (servers that failed to "
                                        "start: {failed}). Fix them in the Tools dialog, or set tool use to Auto "
                                        "or Off.").format(failed=failed), error=True)
        return True

    def preview(self, settings: GenerationSettings) -> GenerationSettings:
        """``settings`` as first_step would send them now (the tools, and "Required"'s grammar), offering
        nothing: what the next-reply line reads."""
        _tools, offer = self._offer()
        return dataclasses.replace(settings, tools=offer.tools, constraint=offer.constraint)

    def _offer(self) -> tuple[list, agent.StepOffer]:
        tools = agent.offered_tools(self.hub.states(), self.disabled) if self.hub is not None else []
        return tools, agent.step_offer(self.mode(), 0, tools)

    @Slot()
    def stop(self) -> None:
        """Stop pressed while the loop waits on the user or a tool: no further call or step runs; a call
        under way ends on its own (its result is dropped)."""
        run = self._run
        if run is None or self.controller.foreground is not None:
            return  # a model step runs: the controller stops it, and the loop ends with that step
        self._run = None
        if self.approval is not None:
            self.approval.close()
            self.approval = None
        for call in run.get("waiting", []):
            if call["status"] in ("asked", "running"):
                call.update(status="stopped", result="The user stopped the reply before this call ended.")
        run["message"].status = "stopped"
        self.controller.store.update_message(run["message"])
        self._redraw(run["message"])

    @Slot()
    def close(self) -> None:
        if self.dialog is not None:
            self.dialog.close()
        if self.approval is not None:
            self.approval.close()
        self._hub_watch.stop()
        if self.hub is not None:
            self.hub.close()

    # --- the loop ----------------------------------------------------------------------------------------
    @Slot(object)
    def _on_reply_started(self, handle) -> None:
        """A reply started without the tools first_step offered (that request was refused, or another kind
        of reply runs): the offer is void, so its end cannot start a loop."""
        if self._first is not None and handle.settings.tools != self._first[3]:
            self._first = None

    @Slot(object, object)
    def _on_reply_finished(self, message, result) -> None:
        run = self._run
        if run is None and self._first is not None and message is not None:
            mode, tools, settings, _offered = self._first
            run = self._run = {"message": message, "mode": mode, "tools": tools, "settings": settings, "step": 0}
            self.modes[self._conversation_id()] = mode  # a new conversation got its id with this reply
        self._first = None
        if run is None or message is not run["message"]:
            return
        run["step"] += 1
        if result is not None and "resumed" in run and message.tool_steps:  # how soon the model went on
            gap_ms = (run.pop("resumed") - run.pop("result_at")) * 1000.0 + result.stats.ttft_ms
            message.tool_steps[-1]["next_from_result_ms"] = round(gap_ms, 1)
            self.controller.store.update_message(message)  # the controller saved the step before this slot
        if result is None or result.stopped:
            self._run = None  # failed or stopped: the reply keeps what it has
            return
        reply = agent.read_reply(message.content)
        if not reply.calls:
            self._run = None  # the answer
            return
        calls = [{"id": c.id, "name": c.name, "arguments": c.arguments, "status": "asked", "result": "",
                  "is_error": False, "seconds": 0.0, "parse_error": c.error} for c in reply.calls]
        figures = {"tokens": result.stats.generated_tokens, "ttft_ms": round(result.stats.ttft_ms, 1),
                   "tokens_per_s": round(result.stats.tokens_per_s, 1), "mode": result.stats.mode,
                   "drafting_off_by_grammar": result.stats.drafting_off_by_grammar}
        message.tool_steps = [*(message.tool_steps or []), {"content": reply.content, "calls": calls,
                                                             "figures": figures}]
        message.content = ""
        run["waiting"] = list(calls)
        self.controller.store.update_message(message)
        self._next_call()
        self._redraw(message)

    def _next_call(self) -> None:
        run = self._run
        pending = [c for c in run["waiting"] if c["status"] == "asked"]
        if not pending:
            if not any(c["status"] == "running" for c in run["waiting"]):
                self._next_step()
            return
        call = pending[0]
        tool = agent.find_tool(run["tools"], call["name"])
        auto = tool is not None and self.hub.auto_approved(tool.server, tool.tool)
        if self._book().decide(tool, auto) == agent.RUN:
            self._start_call(call, tool)
        else:
            self._ask(call, tool)

    def _ask(self, call: dict, tool: agent.OfferedTool) -> None:
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Allow a tool call?"),
                          self.tr("The model wants to call {tool} on {server} with:\n\n{arguments}").format(
                              tool=tool.tool, server=tool.server, arguments=call["arguments"][:2000]),
                          parent=self.window)
        box.setObjectName("toolApproval")
        once = box.addButton(self.tr("Allow once"), QMessageBox.ButtonRole.AcceptRole)
        always = box.addButton(self.tr("Always for this tool"), QMessageBox.ButtonRole.YesRole)
        deny = box.addButton(self.tr("Deny"), QMessageBox.ButtonRole.RejectRole)
        once.setObjectName("allowOnceButton")
        always.setObjectName("allowAlwaysButton")
        deny.setObjectName("denyButton")

        def answered(button) -> None:
            self.approval = None
            if self._run is None or call not in self._run["waiting"]:
                return
            if button is always:
                self._book().allow_always(tool)
            if button in (once, always):
                self._start_call(call, tool)
            else:
                self._record(call, None)

        box.buttonClicked.connect(answered)
        self.approval = box
        self.window.stop_button.setEnabled(True)
        box.open()

    def _start_call(self, call: dict, tool: agent.OfferedTool | None) -> None:
        call["status"] = "running"
        self.window.stop_button.setEnabled(True)  # the controller is idle meanwhile: Stop is the loop's
        if tool is None:
            call.update(server="", tool=call["name"])
            self._record(call, self._unknown(call))
            return
        call.update(server=tool.server, tool=tool.tool)
        future = self.hub.call(tool.server, tool.tool, agent.call_arguments(_as_tool_call(call)))
        future.add_done_callback(lambda done: self.sig_result.emit(call, done.result()))

    @Slot(object, object)
    def _on_result(self, call: dict, result) -> None:
        if self._run is not None and call in self._run["waiting"]:
            self._record(call, result)

    def _record(self, call: dict, result) -> None:
        content = agent.tool_message(_as_tool_call(call), result)["content"]
        call.update(status="denied" if result is None else ("error" if result.is_error else "done"), result=content,
                    is_error=bool(result is None or result.is_error), seconds=round(result.seconds, 3) if result else 0.0)
        log.info("agent step %d: %s.%s %s", self._run["step"], call.get("server", ""), call.get("tool", ""),
                 call["status"])  # names only: arguments and results may hold what the user would not log
        message = self._run["message"]
        self._run["result_at"] = time.monotonic()
        self.controller.store.update_message(message)
        self._redraw(message)
        self._next_call()

    def _next_step(self) -> None:
        run = self._run
        message = run["message"]
        if agent.step_limit_reached(run["step"]):
            log.info("agent loop: the step limit (%d) was reached", agent.MAX_STEPS)
            self._run = None
            message.content = self.tr("Stopped after {n} tool steps (the step limit).").format(n=agent.MAX_STEPS)
            self.controller.store.update_message(message)
            self._redraw(message)
            return
        offer = agent.step_offer(run["mode"], run["step"], run["tools"])
        settings = dataclasses.replace(run["settings"], tools=offer.tools, constraint=offer.constraint)
        run["resumed"] = time.monotonic()
        if self.controller.branches.next_tool_step(message, settings) is None:
            self._run = None

    # --- helpers -----------------------------------------------------------------------------------------
    def _redraw(self, message) -> None:
        self.window.chat.finish_message(message)
    def _unknown(self, call: dict):
        from eagle_chat.core.tools.results import ToolResult

        return ToolResult("", call["name"], f"There is no tool named {call['name']!r}.", is_error=True)

    def _book(self) -> agent.Approvals:
        return self.approvals.setdefault(self._conversation_id(), agent.Approvals())

    def _conversation_id(self) -> int | None:
        conversation = self.controller.conversation
        return conversation.id if conversation is not None else None

    @Slot(int)
    def _mode_chosen(self, index: int) -> None:
        self.modes[self._conversation_id()] = self.combo.itemData(index)
        self.sig_offer_changed.emit()

    def _show_mode(self) -> None:
        """The opened conversation's own choice; one that has none keeps the last, except "Required": forcing
        a tool call is a choice for one conversation, and carried into a new one it made every reply a call."""
        opened = self._conversation_id()
        mode = self.modes.get(opened)
        if mode is None and opened is not None and None in self.modes:  # chosen before its first message
            mode = self.modes[opened] = self.modes.pop(None)
        if mode is None and self.mode() == "required":
            mode = "auto"
        if mode is not None:
            self.combo.setCurrentIndex(self.combo.findData(mode))
            self.sig_offer_changed.emit()

    @Slot()
    def _check_hub_started(self) -> None:
        if self.hub is None or self.hub.wait_started(0):
            self._hub_watch.stop()
            self.sig_offer_changed.emit()
            held, self._held = self._held, None
            if held is not None:
                held()  # the message sent while they started


def _as_tool_call(call: dict):
    from eagle_chat.core.generation.tool_calls import ToolCall

    return ToolCall(index=0, id=call["id"], name=call["name"], arguments=call["arguments"], closed=True,
                    error=call.get("parse_error"))
