"""ChatController: owns the worker thread and the conversation state; all cross-thread wiring is here.

The window asks the controller; the controller hands requests to the worker thread as queued signals;
chunks and results come back as signals to the controller's slots on the GUI thread, where the
conversation and the store are updated. Streamed text is buffered and pushed to the views at display rate
(``RENDER_INTERVAL_MS``), not per token: small models stream 1,000+ tokens/s.
"""

from __future__ import annotations

import collections
import itertools
import threading
import time
import weakref
from dataclasses import replace

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot

from eagle_chat.core.generation.engine import (
    GenerationResult,
    GenerationSettings,
    PipelineSpec,
)
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.core.storage.reply_marker import ReplyMarker
from eagle_chat.core.storage.store import ConversationStore
from eagle_chat.ui.replies import ReplyInFlight, failure_status, mark_ended, mark_started
from eagle_chat.ui.branching import BranchActions, LiveReply
from eagle_chat.ui.conversations import ConversationActions
from eagle_chat.ui.worker import GenerationWorker

RENDER_INTERVAL_MS = 66  # ~15 Hz: smooth enough to read, and on a 2-core laptop every repaint is taken from inference
SAVE_INTERVAL_S = 1.0  # how often the reply in flight is written to disk

# Every controller thread ever started, so tests can assert none outlives its test.
LIVE_THREADS: "weakref.WeakSet[QThread]" = weakref.WeakSet()


class ChatController(ConversationActions, BranchActions, QObject):
    """Send / stop / load / shutdown, the one request queue (window, comparisons and API requests wait in
    ``queue``, in order, behind ``reply``: one pipeline, one worker) and the current conversation
    (its branches: :class:`BranchActions`)."""

    sig_state = Signal(str)
    """The engine's state changed: "empty", "loading", "ready" or "generating"."""
    sig_loaded = Signal(object)
    """A pipeline is ready: dict with has_draft, supports_thinking, load_time_ms, device, spec."""
    sig_error = Signal(str)
    """Something failed; a sentence for the user."""
    sig_conversations_changed = Signal()
    """The list of conversations changed (new, renamed, deleted, reordered)."""
    sig_conversation_touched = Signal(object)
    """The Conversation was just written to: it is now the most recent, and its title may be new."""
    sig_conversation_opened = Signal(object)
    """A conversation was opened: the Conversation with its messages."""
    sig_message_added = Signal(object)
    """A message was added to the open conversation (the user's, or an assistant reply starting)."""
    sig_path_changed = Signal(object)
    """The open Conversation shows another path through its branches (regenerate, edit, delete, switch)."""
    sig_reply_text = Signal(object, str)
    """The reply in flight has new text (at display rate): the Message (None if ephemeral) and all text so far."""
    sig_reply_finished = Signal(object, object)
    """A reply ended: the Message (None if ephemeral) and the GenerationResult (None if it failed)."""
    sig_rate_points = Signal(int, str, object)
    """Live speed: request id, mode, list of (seconds, tokens/s) points since the last batch."""
    sig_reply_steps = Signal(int, object)
    """The reply in flight's steps so far (display rate, just before its sig_reply_text): request id and
    the StepRecord (the controller's own; read it, do not change it)."""
    sig_reply_started = Signal(int, str, object)
    """A reply started: request id, mode ("speculative"/"baseline") and its GenerationSettings."""
    sig_ephemeral_finished = Signal(int, object)
    """A reply that is not part of a conversation ended: request id and GenerationResult (None if failed)."""

    sig_job_finished = Signal(int, object)
    """An API request's reply ended: request id and GenerationResult (None if it failed)."""
    sig_queue_changed = Signal(int)
    """How many requests wait behind the reply in flight."""
    sig_draft_free_ready = Signal(bool, str)
    """The draft-free reference pipeline is loaded (True), or could not be (False, the reason)."""

    sig_request_load = Signal(object)
    sig_request_load_draft_free = Signal()
    sig_request_unload_draft_free = Signal()
    sig_request_generate = Signal(int, object, object, object, bool)
    sig_request_shutdown = Signal()

    def __init__(self, store: ConversationStore, parent: QObject | None = None, *, marker: ReplyMarker | None = None):
        super().__init__(parent)
        self.store = store
        self.marker = marker  # exists on disk while a reply is generated (crash detection)
        self.conversation: Conversation | None = None
        self.loaded: dict | None = None
        self.draft_free_loaded = False
        self.state = "empty"
        self.reply: ReplyInFlight | None = None
        self.queue: collections.deque[ReplyInFlight] = collections.deque()
        self._ids = itertools.count(1)
        self._thread = QThread()
        self._thread.setObjectName("GenerationThread")
        self._worker = GenerationWorker()
        self._worker.moveToThread(self._thread)
        self._wire()
        self._thread.start()
        LIVE_THREADS.add(self._thread)
        self._render_timer = QTimer(self)
        self._render_timer.setInterval(RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self._flush)
        self._shut_down = False

    # --- public API (GUI thread) -----------------------------------------------------------------
    def load(self, spec: PipelineSpec) -> None:
        """Build a pipeline on the worker thread. Refused while a reply is being generated."""
        self._preempt_background()
        if self.reply is not None:
            self.sig_error.emit("Wait for the reply to finish (or stop it) before loading another model.")
            return
        self._set_state("loading")
        self.sig_request_load.emit(spec)

    def send(self, text: str, settings: GenerationSettings) -> bool:
        """Add the user's message to the open conversation and start the reply. False if refused."""
        if not self._can_generate():
            return False
        if not text.strip():
            self.sig_error.emit("The message is empty; type something to send.")
            return False
        if self.conversation is None:
            self.new_conversation()
        conversation = self.conversation
        if not any(m.role == "user" for m in conversation.messages):
            conversation.title = conversation.title_from(text)
        self.store.add_message(conversation, Message("user", text))
        return self._reply_to_path(settings)

    def run_ephemeral(self, prompt: str | list, settings: GenerationSettings, *, draft_free: bool = False,
                      background: bool = False) -> int | None:
        """Run a reply that is not stored in any conversation (comparisons). Returns its request id.

        ``draft_free`` runs it on the draft-free reference pipeline (see ``load_draft_free``); a ``background``
        one (the warm start) keeps the state "ready" and gives way to any request (``_preempt_background``)."""
        if not self._can_generate():
            return None
        return self._start(prompt, settings, None, draft_free=draft_free, background=background)

    def load_draft_free(self) -> None:
        """Load the target a second time without the draft, for fair comparisons (``sig_draft_free_ready``)."""
        if self._can_generate():
            self._set_state("loading")
            self.sig_request_load_draft_free.emit()

    def unload_draft_free(self) -> None:
        self.draft_free_loaded = False
        self.sig_request_unload_draft_free.emit()

    def submit_job(self, job) -> int | None:
        """Queue an API request (core.serving Job; it hears the reply's events): its id, or None if not ready."""
        if self._shut_down or self.state not in ("ready", "generating"):
            return None
        self._preempt_background()
        return self._start(job.prompt, job.settings, None, job=job)

    def stop(self) -> None:
        """Stop the window's own reply (in flight or queued), else the one in flight; within a step."""
        own = [r for r in self._replies() if r.job is None]
        for reply in own or ([self.reply] if self.reply is not None else []):
            reply.stop.set()

    def is_busy(self) -> bool:
        return self.reply is not None or self.state == "loading"

    def _replies(self) -> list[ReplyInFlight]:
        return [r for r in (self.reply, *self.queue) if r is not None]

    def shutdown(self) -> None:
        """Stop any reply, release the pipeline on its thread, end the thread and wait for it."""
        if self._shut_down:
            return
        self._shut_down = True
        self.stop()
        self._render_timer.stop()
        if self._thread.isRunning():
            # Queued after the running request (which the stop flag ends within a step); the worker
            # releases the pipeline on its own thread and quits the thread's loop.
            self.sig_request_shutdown.emit()
            self._thread.wait()
        for reply in self._replies():
            if reply.job is not None:
                reply.job.on_failed("The server is shutting down.", status=503)
            self._save_partial(reply, status="stopped")
        self.reply, self.queue = None, collections.deque()
        mark_ended(self.marker)

    # --- worker signals (GUI thread) -----------------------------------------------------------------
    @Slot(object)
    def _on_loaded(self, info: dict) -> None:
        self.loaded = info
        self.draft_free_loaded = False  # a new load releases the reference pipeline
        self._set_state("ready")
        self.sig_loaded.emit(info)

    @Slot(bool, str)
    def _on_draft_free_loaded(self, ok: bool, message: str) -> None:
        self.draft_free_loaded = ok
        self._set_state("ready" if self.loaded else "empty")
        if not ok:
            self.sig_error.emit(message)
        self.sig_draft_free_ready.emit(ok, message)

    @Slot(object, str)
    def _on_load_failed(self, _spec, message: str) -> None:
        self.loaded = None
        self._set_state("empty")
        self.sig_error.emit(message)

    @Slot(int, str, int, float)
    def _on_chunk(self, request_id: int, text: str, tokens: int, t: float) -> None:
        reply = self.reply
        if reply is None or reply.request_id != request_id:
            return
        reply.parts.append(text)
        if reply.live is not None:
            reply.live.feed(text)
        reply.tokens = tokens
        reply.meter.add(t, tokens)
        if len(reply.meter.times) > 1:
            reply.pending_points.append((t, reply.meter.rate()))
        reply.dirty = True
        if reply.job is not None:
            reply.job.on_chunk(text, tokens, t)

    @Slot(int, object)
    def _on_steps(self, request_id: int, steps) -> None:
        reply = self.reply
        if reply is not None and reply.request_id == request_id:
            reply.steps.extend(steps)
            reply.steps_dirty = True

    @Slot(int, object)
    def _on_finished(self, request_id: int, result: GenerationResult) -> None:
        reply = self._end_reply(request_id)
        if reply is None:
            return
        if reply.job is not None:
            reply.job.on_finished(result)
            self.sig_job_finished.emit(request_id, result)
            return
        if reply.message is None:
            self.sig_ephemeral_finished.emit(request_id, result)
            return
        message = reply.message
        reply.live.finish(result, reply.settings, (self.loaded or {}).get("spec"))
        message.status = "stopped" if result.stopped else "complete"
        self.store.update_message(message)
        if self.conversation is not None and message in self.conversation.messages:
            self.store.update_conversation(self.conversation)
        self.sig_reply_finished.emit(message, result)

    @Slot(int, str)
    def _on_failed(self, request_id: int, error: str) -> None:
        reply = self._end_reply(request_id)
        if reply is None:
            return
        if reply.job is not None:  # the API client hears it; the window's notice bar stays for the window
            reply.job.on_failed(error, status=failure_status(error))
            self.sig_job_finished.emit(request_id, None)
            return
        self.sig_error.emit(error)
        if reply.message is None:
            self.sig_ephemeral_finished.emit(request_id, None)
            return
        reply.live.apply()
        reply.message.status = "failed"
        reply.message.error = error
        self.store.update_message(reply.message)
        self.sig_reply_finished.emit(reply.message, None)

    def _end_reply(self, request_id: int) -> ReplyInFlight | None:
        """Close the books on the reply in flight (flush, ready again) before anyone hears it ended,
        so that a listener may start the next reply at once."""
        reply = self.reply
        if reply is None or reply.request_id != request_id:
            return None
        self._flush()
        self.reply = None
        self._render_timer.stop()
        mark_ended(self.marker)
        self._dispatch(self.queue.popleft()) if self.queue else self._set_state("ready" if self.loaded else "empty")
        return reply

    # --- internals -----------------------------------------------------------------------------------
    def _wire(self) -> None:
        queued = Qt.ConnectionType.QueuedConnection
        self.sig_request_load.connect(self._worker.load, queued)
        self.sig_request_generate.connect(self._worker.generate, queued)
        self.sig_request_load_draft_free.connect(self._worker.load_draft_free, queued)
        self.sig_request_unload_draft_free.connect(self._worker.unload_draft_free, queued)
        self._worker.sig_draft_free_loaded.connect(self._on_draft_free_loaded, queued)
        self.sig_request_shutdown.connect(self._worker.shutdown, queued)
        self._worker.sig_loaded.connect(self._on_loaded, queued)
        self._worker.sig_load_failed.connect(self._on_load_failed, queued)
        self._worker.sig_chunk.connect(self._on_chunk, queued)
        self._worker.sig_steps.connect(self._on_steps, queued)
        self._worker.sig_finished.connect(self._on_finished, queued)
        self._worker.sig_failed.connect(self._on_failed, queued)
        self._thread.finished.connect(self._worker.deleteLater)

    def _can_generate(self) -> bool:
        if self._shut_down:
            return False
        self._preempt_background()
        if any(reply.job is None for reply in self._replies()):  # API requests only wait their turn
            self.sig_error.emit("A reply is still being generated; stop it first.")
            return False
        if self.state not in ("ready", "generating"):
            self.sig_error.emit(
                "The model is still loading; wait a moment." if self.state == "loading"
                else "No model is loaded. Choose a model folder first."
            )
            return False
        return True

    def _preempt_background(self) -> None:
        """Stop background replies (the warm start) and forget them: the worker runs the next request as soon
        as the one in flight returns (within a step); its late signals carry an old id and are ignored; its
        listeners hear it ended without a result."""
        for reply in [r for r in self.queue if r.background]:
            self.queue.remove(reply)
            self.sig_ephemeral_finished.emit(reply.request_id, None)
        reply = self.reply
        if reply is None or not reply.background:
            return
        reply.stop.set()
        self.reply = None
        self._render_timer.stop()
        mark_ended(self.marker)
        self._dispatch(self.queue.popleft()) if self.queue else self._set_state("ready" if self.loaded else "empty")
        self.sig_ephemeral_finished.emit(reply.request_id, None)

    def _start(self, prompt, settings: GenerationSettings, message: Message | None, *, draft_free: bool = False,
               job=None, live: LiveReply | None = None, background: bool = False) -> int:
        has_draft = bool(self.loaded and self.loaded.get("has_draft")) and not draft_free
        if settings.speculative and not has_draft:
            settings = replace(settings, speculative=False)
        mode = "speculative" if settings.speculative else "baseline"
        request_id = next(self._ids)
        stop = job.stop if job is not None else threading.Event()
        live = live or (LiveReply(message, inside=False) if message is not None else None)
        reply = ReplyInFlight(request_id, mode, settings, stop, message, job, prompt, draft_free, live=live,
                              background=background)
        if self.reply is None:
            self._dispatch(reply)
        else:
            self.queue.append(reply)
            self.sig_queue_changed.emit(len(self.queue))
        return request_id

    def _dispatch(self, reply: ReplyInFlight) -> None:
        """Hand ``reply`` to the worker (the queue's head, or a request arriving while nothing runs)."""
        self.reply = reply
        self.sig_queue_changed.emit(len(self.queue))
        mark_started(self.marker, reply, self.conversation, self.loaded)
        self._set_state("ready" if reply.background else "generating")
        if reply.job is not None:
            reply.job.on_started(reply.request_id)
        self.sig_reply_started.emit(reply.request_id, reply.mode, reply.settings)
        self._render_timer.start()
        self.sig_request_generate.emit(reply.request_id, reply.prompt, reply.settings, reply.stop, reply.draft_free)

    @Slot()
    def _flush(self) -> None:
        reply = self.reply
        if reply is None or not reply.dirty:
            return
        reply.dirty = False
        if reply.steps_dirty:
            reply.steps_dirty = False
            self.sig_reply_steps.emit(reply.request_id, reply.steps)
        if reply.live is not None:
            reply.live.apply()
        self.sig_reply_text.emit(reply.message, reply.message.content if reply.live else reply.text)
        if reply.pending_points:
            points, reply.pending_points = reply.pending_points, []
            self.sig_rate_points.emit(reply.request_id, reply.mode, points)
        if reply.message is not None and time.monotonic() - reply.last_save >= SAVE_INTERVAL_S:
            self._save_partial(reply, status="streaming")

    def _save_partial(self, reply: ReplyInFlight, *, status: str) -> None:
        if reply.message is None:
            return
        reply.live.apply()
        reply.message.status = status
        self.store.update_message(reply.message)
        reply.last_save = time.monotonic()

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.sig_state.emit(state)
