"""ChatController: owns the engine link, the request queue and the open conversation, each an object of its own.

The window asks the controller; the controller's queue (:class:`RequestQueue`) hands each request a
:class:`ReplyHandle` and sends it to the worker thread as a queued signal; chunks and results come back as
signals to the controller's slots on the GUI thread, where the queue finds the reply they are about, the
handle hears them, and the conversation and the store are updated. Streamed text is buffered and pushed to
the handle and the views at display rate (``RENDER_INTERVAL_MS``), not per token: small models stream 1,000+
tokens/s. The conversation list's actions (:class:`ConversationActions`) and the branch operations
(:class:`BranchActions`) are the controller's other two concerns; its public methods for them delegate.
"""

from __future__ import annotations

import itertools
import logging
import time

from PySide6.QtCore import QObject, Signal, Slot

from eagle_chat.core.generation.engine import (
    GenerationResult,
    GenerationSettings,
    PipelineSpec,
)
from eagle_chat.core.generation.failure_kinds import CRASHED
from eagle_chat.core.generation.loaded import LoadedPipeline
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.core.storage.reply_marker import ReplyMarker
from eagle_chat.core.storage.store import ConversationStore
from eagle_chat.core.serving.backend import UNAVAILABLE
from eagle_chat.ui.runtime.replies import ReplyInFlight, mark_ended
from eagle_chat.ui.runtime.branching import BranchActions
from eagle_chat.ui.runtime.conversation_actions import ConversationActions, ConversationEvents
from eagle_chat.ui.runtime.live_threads import LIVE_THREADS, track
from eagle_chat.ui.runtime.next_turn import NextTurnPrefill
from eagle_chat.ui.runtime.reply_handle import ReplyHandle
from eagle_chat.ui.runtime.request_queue import RENDER_INTERVAL_MS, RequestQueue
from eagle_chat.ui.runtime.engine_link import EngineLink
from eagle_chat.ui.runtime.worker import RESTART

SAVE_INTERVAL_S = 1.0  # how often the reply in flight is written to disk

log = logging.getLogger(__name__)

__all__ = ["LIVE_THREADS", "RENDER_INTERVAL_MS", "ChatController"]  # LIVE_THREADS: every thread started, for leak checks


class ChatController(QObject):
    """Send / stop / load / shutdown. It owns the one request queue (``requests``: window replies, comparisons
    and API requests wait in order behind ``reply``: one pipeline, one worker), the open conversation and the
    list's actions (``conversations``), and the branch operations (``branches``)."""

    sig_state = Signal(str)
    """The engine's state changed: "empty", "loading", "ready" or "generating"."""
    sig_loaded = Signal(LoadedPipeline)
    """The pipeline asked for is ready: the LoadedPipeline."""
    sig_load_failed = Signal(int, str, bool)
    """A load failed: its id, the reason, and whether a model is still loaded (the one before it)."""
    sig_error = Signal(str)
    """Something failed; a sentence for the user."""
    sig_conversations_changed = Signal()
    """The list of conversations changed (new, renamed, deleted, reordered)."""
    sig_conversation_touched = Signal(Conversation)
    """The Conversation was just written to: it is now the most recent, and its title may be new."""
    sig_conversation_opened = Signal(Conversation)
    """A conversation was opened: the Conversation with its messages."""
    sig_message_added = Signal(Message)
    """A message was added to the open conversation (the user's, or an assistant reply starting)."""
    sig_path_changed = Signal(Conversation)
    """The open Conversation shows another path through its branches (regenerate, edit, delete, switch)."""
    sig_reply_text = Signal(Message, str)
    """The reply in flight has new text (at display rate): the Message (None if ephemeral) and all text so far."""
    sig_reply_finished = Signal(Message, GenerationResult)
    """A conversation's reply ended: the Message and the GenerationResult (None if it failed). Any other reply's
    end is on its ReplyHandle."""
    sig_reply_started = Signal(ReplyHandle)
    """A reply someone asked for started to run (a conversation's, a comparison's, an API request's): its
    ReplyHandle (text, steps, speed and its end are on the handle). Never a background one: a listener drawing,
    timing or recording "the reply" would take the warm start or a prefill for it."""
    sig_background_started = Signal(ReplyHandle)
    """A background reply started to run (the warm start, the next-turn prefill): its ReplyHandle. It streams
    nothing to anyone (no sig_reply_text; its handle no text, steps or speed) and ends on its handle."""
    sig_queue_changed = Signal(int)
    """How many requests wait behind the reply in flight."""
    sig_draft_free_ready = Signal(bool, str)
    """The draft-free reference pipeline is loaded (True), or could not be (False, the reason)."""
    sig_engine_lost = Signal(str, bool)
    """The engine host ended outside a load (a crash, a restart): a sentence for the user, and whether it is
    starting again with the same model (False: nothing is loaded now)."""
    sig_engine_restarted = Signal(LoadedPipeline)
    """The engine host is back with the same model after a crash or a restart: the LoadedPipeline."""
    sig_engine_hung = Signal(object)
    """A reply has ignored Stop for seconds: its ReplyHandle (None if it is over already; offer
    restart_engine())."""
    sig_unloaded = Signal()
    """The model was unloaded (unload()): its engine host ends and its memory goes back to the system."""

    def __init__(self, store: ConversationStore, parent: QObject | None = None, *, marker: ReplyMarker | None = None):
        super().__init__(parent)
        self.store = store
        self.marker = marker  # exists on disk while a reply is generated (crash detection)
        self.loaded: LoadedPipeline | None = None
        self.draft_free_loaded = False
        self.state = "empty"
        self._load_ids = itertools.count(1)
        self._load_id: int | None = None  # the load whose result counts; any other is stale
        self.engine = EngineLink(self, {
            "sig_loaded": self._on_loaded, "sig_load_failed": self._on_load_failed,
            "sig_draft_free_loaded": self._on_draft_free_loaded,
            "sig_finished": self._on_finished, "sig_failed": self._on_failed,
            "sig_engine_lost": self._on_engine_lost, "sig_engine_restarted": self._on_engine_restarted,
            "sig_engine_hung": self._on_engine_hung})
        track(self.engine.generation_thread, self.shutdown)  # an exit that skipped closing must not abort the process
        self._shut_down = False
        self.requests = RequestQueue(self, self.engine, self)
        self.engine.connect_worker({"sig_chunk": self.requests.take_chunk, "sig_steps": self.requests.take_steps})
        for mine, theirs in ((self.requests.sig_error, self.sig_error),
                             (self.requests.sig_queue_changed, self.sig_queue_changed),
                             (self.requests.sig_reply_started, self.sig_reply_started),
                             (self.requests.sig_background_started, self.sig_background_started)):
            mine.connect(theirs)
        events = ConversationEvents(
            error=self.sig_error, conversations_changed=self.sig_conversations_changed,
            conversation_opened=self.sig_conversation_opened, conversation_touched=self.sig_conversation_touched,
            path_changed=self.sig_path_changed, message_added=self.sig_message_added, reply_text=self.sig_reply_text)
        self.conversations = ConversationActions(store, self.requests, events)
        self.branches = BranchActions(store, self.conversations, self.requests, lambda: self.loaded, events)
        self.next_turn = NextTurnPrefill(self)  # caches the conversation for its next turn after each reply

    # --- public API (GUI thread) -----------------------------------------------------------------
    def load(self, spec: PipelineSpec) -> int | None:
        """Build a pipeline in a new engine host; returns the load's id, matched by ``sig_loaded`` /
        ``sig_load_failed``. A load under way is cancelled (its host ended at once) for this one. Refused
        (None) while a reply runs."""
        self.requests.preempt_background(everything=True)
        if self.reply is not None or self._shut_down:
            self.sig_error.emit(self.tr("Wait for the reply to finish (or stop it) before loading another model."))
            return None
        if self.state == "loading":
            self.engine.cancel_load()  # the load under way fails as cancelled; this one follows it
        self._load_id = next(self._load_ids)
        self.set_state("loading")
        self.engine.load(self._load_id, spec)
        return self._load_id

    def run_ephemeral(self, prompt: str | list, settings: GenerationSettings, *, draft_free: bool = False,
                      background: bool = False, finish: bool = False) -> ReplyHandle | None:
        """Run a reply that is not stored in any conversation (comparisons): its handle, or None if refused
        (``sig_error`` says why).

        ``draft_free`` runs it on the draft-free reference pipeline (see ``load_draft_free``); a ``background``
        one (the warm start) keeps the state "ready" and gives way to any request (its handle fails as
        stopped, possibly before this returns: see ``ReplyHandle.ended``), and a short background one
        (``finish``) is let run to its end first."""
        if not self.requests.can_generate():
            return None
        return self.requests.start(prompt, settings, None, draft_free=draft_free, background=background,
                                   finish=finish)

    def unload(self) -> bool:
        """Unload the model: its engine host ends, so its memory goes back to the system. False if refused
        (a reply runs: stop it first)."""
        self.requests.preempt_background(everything=True)
        if self.reply is not None or self._shut_down or self.loaded is None:
            if self.reply is not None:
                self.sig_error.emit(self.tr("Wait for the reply to finish (or stop it) before unloading the model."))
            return False
        if self.state == "loading":
            self.engine.cancel_load()
        self._load_id = None
        self.loaded, self.draft_free_loaded = None, False
        self.engine.unload()
        self.set_state("empty")
        self.sig_unloaded.emit()
        return True

    def restart_engine(self) -> bool:
        """End the engine host now (a reply that ignores Stop): the reply keeps what it wrote, and the host
        starts again with the same model. False if there was no host."""
        return self.engine.end_host(RESTART)

    def engine_pid(self) -> int | None:
        """The engine host's process id while a local model is loaded (tests, the About box)."""
        return self.engine.host_pid()

    def load_draft_free(self) -> bool:
        """Load the target a second time without the draft, for fair comparisons (``sig_draft_free_ready``).
        False if refused now (busy; ``sig_error`` says why): then no ``sig_draft_free_ready`` follows."""
        if not self.requests.can_generate():
            return False
        self.set_state("loading")
        self.engine.load_draft_free()
        return True

    def unload_draft_free(self) -> None:
        self.draft_free_loaded = False
        self.engine.unload_draft_free()

    def submit_job(self, job) -> ReplyHandle | None:
        """Queue an API request (core.serving Job; it hears the reply's events, the handle too): its handle, or
        None if not ready."""
        if self._shut_down or self.state not in ("ready", "generating"):
            return None
        self.requests.preempt_background()
        return self.requests.start(job.prompt, job.settings, None, job=job)

    def begin_shutdown(self) -> None:
        """Stop any reply and ask the worker to release the pipeline and end its thread; returns at once
        (``shut_down()`` says when it is over). A load in progress ends first: OpenVINO cannot stop one."""
        if self._shut_down:
            return
        self._shut_down = True
        for reply in self.requests.replies():  # every reply, the API's too
            reply.stop.set()
        self.requests.stop_rendering()
        if self.state == "loading":  # OpenVINO cannot stop a load: its host is ended instead
            self.engine.cancel_load()
        self.engine.begin_shutdown()  # after the running request, which the stop flag ends within a step

    def shut_down(self) -> bool:
        return self._shut_down and not self.engine.is_running()  # the thread ended after begin_shutdown()

    @property
    def shutting_down(self) -> bool:
        """begin_shutdown() was called: nothing new is taken (the API answers 503)."""
        return self._shut_down

    def shutdown(self) -> None:
        """Stop any reply, release the pipeline on its thread, end the thread and wait for it."""
        self.begin_shutdown()
        self.engine.wait()
        for reply in self.requests.replies():
            if reply.job is not None:
                reply.job.on_failed("The server is shutting down.", failure=UNAVAILABLE)  # protocol text: English
            self._save_partial(reply, status="stopped")
        self.requests.clear()
        mark_ended(self.marker)

    # --- worker signals (GUI thread) -----------------------------------------------------------------
    @Slot(object)
    def _on_loaded(self, info: LoadedPipeline) -> None:
        self.loaded = info
        if info.load_id != self._load_id:
            return  # a load nobody waits for any more: the worker has it, the window is not told
        self.draft_free_loaded = False  # a new load releases the reference pipeline
        self._load_id = None
        self.set_state("ready")
        self.sig_loaded.emit(info)

    @Slot(bool, str)
    def _on_draft_free_loaded(self, ok: bool, message: str) -> None:
        self.draft_free_loaded = ok
        self.set_state("ready" if self.loaded else "empty")
        if not ok:
            self.sig_error.emit(message)
        self.sig_draft_free_ready.emit(ok, message)

    @Slot(int, str, object)
    def _on_load_failed(self, load_id: int, message: str, still_loaded: LoadedPipeline | None) -> None:
        self.loaded = still_loaded
        self.draft_free_loaded = bool(still_loaded and still_loaded.draft_free)
        if load_id != self._load_id:
            return
        self._load_id = None
        self.set_state("ready" if still_loaded else "empty")
        self.sig_load_failed.emit(load_id, message, still_loaded is not None)

    @Slot(int, object)
    def _on_finished(self, request_id: int, result: GenerationResult) -> None:
        reply = self.requests.end(request_id)
        if reply is None:
            return
        if reply.job is not None:
            reply.job.on_finished(result)
        elif reply.message is not None:
            message = reply.message
            assert reply.live is not None  # a conversation's reply streams into one (RequestQueue.start)
            reply.live.finish(result, reply.settings, self.loaded.spec if self.loaded else None)
            message.status = "stopped" if result.stopped else "complete"
            self.store.update_message(message)
            if self.conversation is not None and message in self.conversation.messages:
                self.store.update_conversation(self.conversation)
            self.sig_reply_finished.emit(message, result)
        reply.handle.finish(result)

    @Slot(int, str, str, str)
    def _on_failed(self, request_id: int, failure: str, error: str, shown: str) -> None:
        """``failure`` says why (an API client's HTTP status); ``error`` in English (the API's protocol text);
        ``shown`` in the user's language."""
        reply = self.requests.end(request_id)
        if reply is None:
            return
        if reply.job is not None:  # the API client hears it; the window's notice bar stays for the window
            reply.job.on_failed(error, failure=failure)
        elif reply.background:  # the warm start or a prefill: nobody asked for it, so nobody is told
            log.warning("a background reply failed: %s", error)
        else:
            self.sig_error.emit(shown)
        if reply.message is not None:
            assert reply.live is not None  # a conversation's reply streams into one (RequestQueue.start)
            reply.live.apply()
            reply.message.status = "interrupted" if failure == CRASHED else "failed"  # kept as far as it got
            reply.message.error = shown  # the chat shows it under the reply
            self.store.update_message(reply.message)
            self.sig_reply_finished.emit(reply.message, None)
        reply.handle.fail(failure, shown)

    @Slot(int)
    def _on_engine_hung(self, request_id: int) -> None:
        reply = self.requests.in_flight(request_id)
        self.sig_engine_hung.emit(reply.handle if reply is not None else None)

    @Slot(str, bool)
    def _on_engine_lost(self, message: str, restarting: bool) -> None:
        if not restarting and self._load_id is None:  # nothing is loaded now: the window says so
            self.loaded, self.draft_free_loaded = None, False
            if self.reply is None:
                self.set_state("empty")
        self.sig_engine_lost.emit(message, restarting)

    @Slot(object)
    def _on_engine_restarted(self, info: LoadedPipeline) -> None:
        if self._load_id is not None:  # a load the user asked for since: it decides what is loaded
            return
        self.loaded, self.draft_free_loaded = info, info.draft_free
        if self.reply is None and self.state == "empty":
            self.set_state("ready")
        self.sig_engine_restarted.emit(info)

    # --- the concerns' public API, on the controller for its callers ---------------------------------------
    @property
    def reply(self) -> ReplyInFlight | None:
        """The reply in flight (the queue's)."""
        return self.requests.reply

    @property
    def queue(self):
        """The replies waiting behind it, in order (the queue's)."""
        return self.requests.waiting

    @property
    def foreground(self) -> ReplyInFlight | None:
        return self.requests.foreground

    def is_busy(self) -> bool:
        return self.requests.foreground is not None or self.state == "loading"

    def stop(self) -> None:
        self.requests.stop()

    def send(self, text: str, settings: GenerationSettings) -> bool:
        return self.branches.send(text, settings)

    # --- the queue's owner (RequestQueue calls these) -----------------------------------------------------
    @property
    def conversation(self) -> Conversation | None:
        """The open conversation (``conversations`` owns it)."""
        return self.conversations.conversation

    def render(self, reply: ReplyInFlight) -> None:
        """Push what ``reply`` streamed since the last time to its handle and the views, and save a
        conversation's reply now and then (the queue calls this at display rate and as the reply ends)."""
        reply.dirty = False
        handle = reply.handle
        if reply.steps_dirty:
            reply.steps_dirty = False
            handle.sig_steps.emit(reply.steps)
        if reply.live is not None:
            reply.live.apply()
        handle.text = reply.live.message.content if reply.live else reply.text
        handle.sig_text.emit(handle.text)
        self.sig_reply_text.emit(reply.message, handle.text)
        if reply.pending_points:
            points, reply.pending_points = reply.pending_points, []
            handle.sig_rate_points.emit(points)
        if reply.message is not None and time.monotonic() - reply.last_save >= SAVE_INTERVAL_S:
            self._save_partial(reply, status="streaming")

    def set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.sig_state.emit(state)

    # --- internals -----------------------------------------------------------------------------------
    def _save_partial(self, reply: ReplyInFlight, *, status: str) -> None:
        if reply.message is None:
            return
        assert reply.live is not None  # a conversation's reply streams into one (RequestQueue.start)
        reply.live.apply()
        reply.message.status = status
        self.store.update_message(reply.message)
        reply.last_save = time.monotonic()
