"""NextTurnPrefill: after each reply in the window, cache the conversation for its next turn in the background.

GenAI's prefix caching reuses earlier prompts' KV blocks but not the blocks a reply generated, and with an
EAGLE-3 draft only what the draft has cached too (see :mod:`eagle_chat.core.generation.prefill`). So once a
reply has ended, the conversation goes through the model once more as the next turn will send it — a
*background* reply of a few tokens whose output is thrown away — while the user reads and types. The next
turn then prefills only its new message.

It never costs the user more than waiting would have: a send or an API request arriving meanwhile waits
for the prefill's end (it is short and caches what that request needs: ``finish``), and a load stops it.
It runs only where something is reused — CPU/GPU with prefix caching on — and for the conversation open in
the window, when the reply that ended is the last message of its visible path. An API conversation is
prefilled the same way after each of its replies (``prefill_api``, called by the server's backend with the
request's messages and the reply as the client will send it back): an agent's next step, a tool result
after a tool call, then prefills only the result.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, QTimer, Signal

from eagle_chat.core.generation.engine import GenerationSettings, PipelineSpec
from eagle_chat.ui.runtime.reply_handle import ReplyHandle


API_IDLE_MS = 50  # an API conversation is prefilled once the server has been idle this long after its reply


class NextTurnPrefill(QObject):
    sig_prefilled = Signal(ReplyHandle, object)
    """A prefill ended: its ReplyHandle and the GenerationResult (None if it was stopped or failed)."""

    def __init__(self, controller):
        super().__init__(controller)
        self.controller = controller
        self.enabled = True
        self.handle: ReplyHandle | None = None  # the prefill in flight
        self._settings: GenerationSettings | None = None  # the settings of the window's last reply
        self._after: object | None = None  # the reply message the next prefill follows
        self._timer = QTimer(self)  # after every other listener of the reply's end (they may start one)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.start)
        self._api_next: tuple | None = None  # (messages, settings, the newest request's handle then): see prefill_api
        self._api_timer = QTimer(self)
        self._api_timer.setSingleShot(True)
        self._api_timer.timeout.connect(self._start_api)
        controller.sig_reply_started.connect(self._on_started)
        controller.sig_background_started.connect(self._on_background_started)
        controller.sig_reply_finished.connect(self._on_finished)

    def applies(self) -> bool:
        """Whether a prefill would be reused here: a local pipeline with prefix caching (not NPU)."""
        loaded = self.controller.loaded
        return loaded is not None and isinstance(loaded.spec, PipelineSpec) and loaded.prefix_cache \
            and loaded.device != "NPU"

    def start(self) -> ReplyHandle | None:
        """Prefill the open conversation after the reply that just ended; its handle, or None when there is
        nothing to do (or something else already runs)."""
        c, message, settings = self.controller, self._after, self._settings
        self._after = None
        conversation = c.conversation
        if not (self.enabled and message is not None and settings is not None and self.applies()):
            return None
        if conversation is None or not conversation.messages or conversation.messages[-1] is not message:
            return None
        if c.state != "ready" or c.reply is not None or c.queue:
            return None
        return c.run_ephemeral(conversation.history(), replace(settings, next_turn=True), background=True,
                               finish=True)  # ``handle`` is set as it starts: a listener may end it at once

    def prefill_api(self, messages: list[dict], settings: GenerationSettings, idle_ms: int = API_IDLE_MS) -> bool:
        """Prefill an API conversation (``messages``: the request's and the reply just given) for its next
        turn once the server has been idle ``idle_ms`` after the reply; False when it would not be reused.

        Why wait: an agent whose tool answers at once sends its next step within milliseconds, and a prefill
        already running (one forward pass, which Stop cannot cut) makes that step wait for it — on the
        speed-demo pair ~110 ms a step, more than the prefill saves (benchmarks/agent_loop.py). A tool that
        takes longer than ``idle_ms`` leaves the time the prefill needs."""
        if not (self.enabled and self.applies()):
            return False
        self._api_next = (messages, settings, self.controller.requests.newest)
        if idle_ms <= 0:  # at once, before the client can send its next turn
            self._start_api()
        else:
            self._api_timer.start(idle_ms)
        return True

    def _start_api(self) -> ReplyHandle | None:
        """The scheduled API prefill, unless a request came since (it is the next turn, or another one)."""
        pending, self._api_next = self._api_next, None
        c = self.controller
        if pending is None or c.requests.newest is not pending[2]:
            return None
        if c.state != "ready" or c.reply is not None or c.queue:
            return None
        messages, settings, _ = pending
        return c.run_ephemeral(messages, replace(settings, next_turn=True), background=True, finish=True)

    # --- slots -------------------------------------------------------------------------------------------
    def _on_started(self, handle: ReplyHandle) -> None:
        if handle.message is not None:
            self._settings = handle.settings  # a conversation's reply: the next prefill runs with its settings

    def _on_background_started(self, handle: ReplyHandle) -> None:
        if handle.settings.next_turn:  # ours (the warm start is the other background reply)
            self.handle = handle
            handle.sig_ended.connect(lambda result: self._on_ended(handle, result))

    def _on_finished(self, message, result) -> None:
        if result is not None:  # a failed reply says nothing of the next turn
            self._after = message
            self._timer.start()

    def _on_ended(self, handle: ReplyHandle, result) -> None:
        if handle is self.handle:
            self.handle = None
        self.sig_prefilled.emit(handle, result)
