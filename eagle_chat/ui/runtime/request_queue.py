"""RequestQueue: the controller's one request queue, an object the controller owns.

Window replies, comparisons and API requests wait in ``waiting``, in order, behind ``reply`` — the one the
worker runs: one pipeline, one worker. Each request gets a :class:`ReplyHandle` when it is taken; the queue
is the one place that matches the worker's request ids to a reply (``in_flight``, ``end``). A *background*
reply (the warm start) gives way to any other; a short one (the next-turn prefill, ``finish``) is not stopped
for a reply or an API request, which waits the fraction of a second it has left instead of losing what it
caches — but it is for a load. While a reply someone asked for runs, the queue's timer has the owner render
it at display rate (``RENDER_INTERVAL_MS``), not per token: small models stream 1,000+ tokens/s.
"""

from __future__ import annotations

import collections
import itertools
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from eagle_chat.core.generation import speculation, structured
from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.failure_kinds import STOPPED
from eagle_chat.core.storage.conversation import Message
from eagle_chat.ui.runtime.live_reply import LiveReply
from eagle_chat.ui.runtime.reply_handle import ReplyHandle
from eagle_chat.ui.runtime.replies import ReplyInFlight, mark_ended, mark_started
from eagle_chat.ui.words.i18n import translate

if TYPE_CHECKING:
    from eagle_chat.core.generation.loaded import LoadedPipeline
    from eagle_chat.core.storage.conversation import Conversation
    from eagle_chat.core.storage.reply_marker import ReplyMarker
    from eagle_chat.ui.runtime.engine_link import EngineLink

RENDER_INTERVAL_MS = 66  # ~15 Hz: smooth enough to read, and on a 2-core laptop every repaint is taken from inference


class QueueOwner(Protocol):
    """What the queue needs from its owner (the controller): the engine's state and what is loaded, the open
    conversation and the crash marker (for the marker's note), and the rendering of a reply in flight."""

    state: str
    loaded: LoadedPipeline | None
    marker: ReplyMarker | None

    @property
    def conversation(self) -> Conversation | None: ...
    @property
    def shutting_down(self) -> bool: ...
    def set_state(self, state: str) -> None: ...
    def render(self, reply: ReplyInFlight) -> None: ...


class RequestQueue(QObject):
    """Start, queue, dispatch, preempt and end replies."""

    sig_queue_changed = Signal(int)
    """How many requests wait behind the reply in flight."""
    sig_reply_started = Signal(ReplyHandle)
    """A reply someone asked for started to run: its handle (see ChatController.sig_reply_started)."""
    sig_background_started = Signal(ReplyHandle)
    """A background reply started to run: its handle (see ChatController.sig_background_started)."""
    sig_error = Signal(str)
    """A request was refused: a sentence for the user."""

    def __init__(self, owner: QueueOwner, engine: EngineLink, parent: QObject | None = None):
        super().__init__(parent)
        self._owner = owner
        self._engine = engine
        self.reply: ReplyInFlight | None = None
        self.waiting: collections.deque[ReplyInFlight] = collections.deque()
        self.newest: ReplyHandle | None = None  # the newest request's handle, queued or running
        self._ids = itertools.count(1)
        self._render_timer = QTimer(self)
        self._render_timer.setInterval(RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self.render_now)

    def stop(self) -> None:
        """Stop the window's own reply (in flight or queued), else the one in flight; within a step."""
        own = [r for r in self.replies() if r.job is None]
        for reply in own or ([self.reply] if self.reply is not None else []):
            reply.stop.set()

    @property
    def foreground(self) -> ReplyInFlight | None:
        """The reply in flight unless it is a background one (the state stays "ready" for those)."""
        return self.reply if self.reply is not None and not self.reply.background else None

    def replies(self) -> list[ReplyInFlight]:
        """The reply in flight and those waiting, in order."""
        return [r for r in (self.reply, *self.waiting) if r is not None]

    def in_flight(self, request_id: int) -> ReplyInFlight | None:
        """The reply in flight if the worker's ``request_id`` is its: a late message of a reply that gave
        way (a preempted background one) carries an old id and matches nothing."""
        reply = self.reply
        return reply if reply is not None and reply.request_id == request_id else None

    @Slot(int, str, int, float)
    def take_chunk(self, request_id: int, text: str, tokens: int, t: float) -> None:
        """The worker's next chunk of a reply (rendered at display rate; an API request hears it at once)."""
        reply = self.in_flight(request_id)
        if reply is None:
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
    def take_steps(self, request_id: int, steps) -> None:
        """The worker's next verification steps of a reply (rendered with its next text)."""
        reply = self.in_flight(request_id)
        if reply is not None:
            reply.steps.extend(steps)
            reply.steps_dirty = True

    def end(self, request_id: int) -> ReplyInFlight | None:
        """Close the books on the reply in flight (rendered, ready again) before anyone hears it ended,
        so that a listener may start the next reply at once."""
        reply = self.in_flight(request_id)
        if reply is None:
            return None
        self.render_now()
        self._next()
        return reply

    def can_generate(self) -> bool:
        """Whether the window may start a reply now; if not, ``sig_error`` says why."""
        if self._owner.shutting_down:
            return False
        self.preempt_background()
        if any(r.job is None and not r.background for r in self.replies()):  # API requests only wait their turn
            self.sig_error.emit(translate("RequestQueue", "A reply is still being generated; stop it first."))
            return False
        state = self._owner.state
        if state not in ("ready", "generating"):
            self.sig_error.emit(
                translate("RequestQueue", "The model is still loading; wait a moment.") if state == "loading"
                else translate("RequestQueue", "No model is loaded. Choose a model folder first.")
            )
            return False
        return True

    def preempt_background(self, *, everything: bool = False) -> None:
        """Stop background replies (the warm start) and forget them: the worker runs the next request as soon
        as the one in flight returns (within a step); its late messages match nothing (``in_flight``); its
        handle fails as stopped. A short one in flight (``finish``) runs to its end unless ``everything`` goes
        (a load)."""
        for waiting in [r for r in self.waiting if r.background]:
            self.waiting.remove(waiting)
            waiting.handle.fail(STOPPED)
        reply = self.reply
        if reply is None or not reply.background or (reply.finish and not everything):
            return
        reply.stop.set()
        self._next()
        reply.handle.fail(STOPPED)

    def start(self, prompt, settings: GenerationSettings, message: Message | None, *, draft_free: bool = False,
              job=None, live: LiveReply | None = None, background: bool = False, finish: bool = False) -> ReplyHandle:
        """Take a request: run it now if nothing runs, else queue it. Its handle (which may have started)."""
        loaded = self._owner.loaded
        has_draft = bool(loaded and loaded.has_draft) and not draft_free
        # Prompt lookup needs no draft: without one, Automatic and a prompt-lookup pin still speculate (the draft-free
        # reference of a comparison never does)
        draftless = not draft_free and settings.method in (speculation.AUTO, speculation.PROMPT_LOOKUP)
        if settings.speculative and not has_draft and not draftless:
            settings = replace(settings, speculative=False)
        # A grammar on a reduced-vocabulary draft: the engine decodes it without drafting (structured.stops_drafting)
        held = (settings.speculative and loaded is not None and settings.method != speculation.PROMPT_LOOKUP
                and structured.stops_drafting(settings.constraint, loaded.draft_reduced_vocab))
        # What the reply is expected to run as (its stats say what it ran as): without a draft, Automatic plain
        drafts = has_draft or settings.method == speculation.PROMPT_LOOKUP
        mode = "speculative" if settings.speculative and drafts and not held else "baseline"
        stop = job.stop if job is not None else threading.Event()
        handle = ReplyHandle(mode, settings, stop, message=message, api=job is not None, background=background,
                             draft_free=draft_free)
        self.newest = handle
        live = live or (LiveReply(message, inside=False) if message is not None else None)
        reply = ReplyInFlight(next(self._ids), handle, stop, prompt, job, finish=finish, live=live)
        if self.reply is None:
            self._dispatch(reply)
        else:
            self.waiting.append(reply)
            self.sig_queue_changed.emit(len(self.waiting))
            if not background and self.reply.background:  # waits behind a prefill: Stop must work already,
                self._owner.set_state("generating")  # and a crash meanwhile is a crash mid-reply
                mark_started(self._owner.marker, reply, self._owner.conversation, loaded)
        return handle

    def stop_rendering(self) -> None:
        """No more display-rate rendering (shutting down); a reply's end still renders it once."""
        self._render_timer.stop()

    def clear(self) -> None:
        """Forget every reply (shutting down: the engine's thread has ended)."""
        self._render_timer.stop()
        self.reply, self.waiting = None, collections.deque()

    @Slot()
    def render_now(self) -> None:
        """Have the owner render the reply in flight if it has news (and someone asked for it)."""
        reply = self.reply
        if reply is not None and reply.dirty and not reply.background:  # nobody shows a background reply
            self._owner.render(reply)

    def _next(self) -> None:
        """The reply in flight is over: the next one runs, or the engine is free."""
        self.reply = None
        self._render_timer.stop()
        mark_ended(self._owner.marker)
        if self.waiting:
            self._dispatch(self.waiting.popleft())
        else:
            self._owner.set_state("ready" if self._owner.loaded else "empty")

    def _dispatch(self, reply: ReplyInFlight) -> None:
        """Hand ``reply`` to the worker (the queue's head, or a request arriving while nothing runs).

        The host is asked first: the book-keeping and the views below (~1 ms of the GUI thread) run while it
        reads the prompt in, not before. Its chunks come back as queued calls to this thread, so every
        listener has heard the reply start before the first of them."""
        self.reply = reply
        self._engine.generate(reply.request_id, reply.prompt, reply.settings, reply.stop, reply.draft_free)
        self.sig_queue_changed.emit(len(self.waiting))
        mark_started(self._owner.marker, reply, self._owner.conversation, self._owner.loaded)
        self._owner.set_state("ready" if reply.background else "generating")
        if reply.job is not None:
            reply.job.on_started(reply.request_id)
        if reply.background:  # its own signal: listeners of sig_reply_started mean a reply someone asked for
            self.sig_background_started.emit(reply.handle)
        else:
            self.sig_reply_started.emit(reply.handle)
            self._render_timer.start()
