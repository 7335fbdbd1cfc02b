"""The controller's one request queue (a mixin of :class:`~eagle_chat.ui.runtime.controller.ChatController`).

Window replies, comparisons and API requests wait in ``queue``, in order, behind ``reply`` — the one the
worker runs: one pipeline, one worker. A *background* reply (the warm start) gives way to any other; a
short one (the next-turn prefill, ``finish``) is not stopped for a reply or an API request, which waits the
fraction of a second it has left instead of losing what it caches — but it is for a load.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from eagle_chat.core.generation import speculation, structured
from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.storage.conversation import Message
from eagle_chat.ui.runtime.branching import LiveReply
from eagle_chat.ui.words.i18n import translate
from eagle_chat.ui.runtime.replies import ReplyInFlight, mark_ended, mark_started

if TYPE_CHECKING:
    import collections
    from collections.abc import Iterator

    from PySide6.QtCore import QTimer, SignalInstance

    from eagle_chat.core.generation.loaded import LoadedPipeline
    from eagle_chat.core.storage.conversation import Conversation
    from eagle_chat.core.storage.reply_marker import ReplyMarker
    from eagle_chat.ui.runtime.engine_link import EngineLink


class RequestQueue:
    """Start, queue, dispatch, preempt and end replies; the controller provides the signals and state."""

    if TYPE_CHECKING:  # what the controller provides, declared for the type checker (no runtime effect)
        reply: ReplyInFlight | None
        queue: collections.deque[ReplyInFlight]
        state: str
        loaded: LoadedPipeline | None
        conversation: Conversation | None
        marker: ReplyMarker | None
        engine: EngineLink
        last_request_id: int
        _ids: Iterator[int]
        _shut_down: bool
        _render_timer: QTimer
        sig_error: SignalInstance
        sig_queue_changed: SignalInstance
        sig_reply_started: SignalInstance
        sig_background_started: SignalInstance
        sig_ephemeral_finished: SignalInstance

        def _flush(self, *, final: bool = False) -> None: ...
        def _set_state(self, state: str) -> None: ...

    def stop(self) -> None:
        """Stop the window's own reply (in flight or queued), else the one in flight; within a step."""
        own = [r for r in self._replies() if r.job is None]
        for reply in own or ([self.reply] if self.reply is not None else []):
            reply.stop.set()

    def is_busy(self) -> bool:
        return self.foreground is not None or self.state == "loading"

    @property
    def foreground(self) -> ReplyInFlight | None:
        """The reply in flight unless it is a background one (the state stays "ready" for those)."""
        return self.reply if self.reply is not None and not self.reply.background else None

    def _replies(self) -> list[ReplyInFlight]:
        return [r for r in (self.reply, *self.queue) if r is not None]

    def _end_reply(self, request_id: int) -> ReplyInFlight | None:
        """Close the books on the reply in flight (flush, ready again) before anyone hears it ended,
        so that a listener may start the next reply at once."""
        reply = self.reply
        if reply is None or reply.request_id != request_id:
            return None
        self._flush(final=True)
        self.reply = None
        self._render_timer.stop()
        mark_ended(self.marker)
        self._dispatch(self.queue.popleft()) if self.queue else self._set_state("ready" if self.loaded else "empty")
        return reply

    def _can_generate(self) -> bool:
        if self._shut_down:
            return False
        self._preempt_background()
        if any(r.job is None and not r.background for r in self._replies()):  # API requests only wait their turn
            self.sig_error.emit(translate("RequestQueue", "A reply is still being generated; stop it first."))
            return False
        if self.state not in ("ready", "generating"):
            self.sig_error.emit(
                translate("RequestQueue", "The model is still loading; wait a moment.") if self.state == "loading"
                else translate("RequestQueue", "No model is loaded. Choose a model folder first.")
            )
            return False
        return True

    def _preempt_background(self, *, everything: bool = False) -> None:
        """Stop background replies (the warm start) and forget them: the worker runs the next request as soon
        as the one in flight returns (within a step); its late signals carry an old id and are ignored; its
        listeners hear it ended without a result. A short one in flight (``finish``) runs to its end unless
        ``everything`` goes (a load)."""
        for waiting in [r for r in self.queue if r.background]:
            self.queue.remove(waiting)
            self.sig_ephemeral_finished.emit(waiting.request_id, None)
        reply = self.reply
        if reply is None or not reply.background or (reply.finish and not everything):
            return
        reply.stop.set()
        self.reply = None
        self._render_timer.stop()
        mark_ended(self.marker)
        self._dispatch(self.queue.popleft()) if self.queue else self._set_state("ready" if self.loaded else "empty")
        self.sig_ephemeral_finished.emit(reply.request_id, None)

    def _start(self, prompt, settings: GenerationSettings, message: Message | None, *, draft_free: bool = False,
               job=None, live: LiveReply | None = None, background: bool = False, finish: bool = False) -> int:
        has_draft = bool(self.loaded and self.loaded.has_draft) and not draft_free
        # Prompt lookup needs no draft: without one, Automatic and a prompt-lookup pin still speculate (the draft-free
        # reference of a comparison never does)
        draftless = not draft_free and settings.method in (speculation.AUTO, speculation.PROMPT_LOOKUP)
        if settings.speculative and not has_draft and not draftless:
            settings = replace(settings, speculative=False)
        # A grammar on a reduced-vocabulary draft: the engine decodes it without drafting (structured.stops_drafting)
        held = (settings.speculative and self.loaded is not None and settings.method != speculation.PROMPT_LOOKUP
                and structured.stops_drafting(settings.constraint, self.loaded.draft_reduced_vocab))
        # What the reply is expected to run as (its stats say what it ran as): without a draft, Automatic plain
        drafts = has_draft or settings.method == speculation.PROMPT_LOOKUP
        mode = "speculative" if settings.speculative and drafts and not held else "baseline"
        request_id = next(self._ids)
        self.last_request_id = request_id
        stop = job.stop if job is not None else threading.Event()
        live = live or (LiveReply(message, inside=False) if message is not None else None)
        reply = ReplyInFlight(request_id, mode, settings, stop, message, job, prompt, draft_free, live=live,
                              background=background, finish=finish)
        if self.reply is None:
            self._dispatch(reply)
        else:
            self.queue.append(reply)
            self.sig_queue_changed.emit(len(self.queue))
            if not background and self.reply.background:  # waits behind a prefill: Stop must work already,
                self._set_state("generating")  # and a crash meanwhile is a crash mid-reply
                mark_started(self.marker, reply, self.conversation, self.loaded)
        return request_id

    def _dispatch(self, reply: ReplyInFlight) -> None:
        """Hand ``reply`` to the worker (the queue's head, or a request arriving while nothing runs).

        The host is asked first: the book-keeping and the views below (~1 ms of the GUI thread) run while it
        reads the prompt in, not before. Its chunks come back as queued calls to this thread, so every
        listener has heard the reply start before the first of them."""
        self.reply = reply
        self.engine.generate(reply.request_id, reply.prompt, reply.settings, reply.stop, reply.draft_free)
        self.sig_queue_changed.emit(len(self.queue))
        mark_started(self.marker, reply, self.conversation, self.loaded)
        self._set_state("ready" if reply.background else "generating")
        if reply.job is not None:
            reply.job.on_started(reply.request_id)
        if reply.background:  # its own signal: listeners of sig_reply_started mean a reply someone asked for
            self.sig_background_started.emit(reply.request_id, reply.settings)
        else:
            self.sig_reply_started.emit(reply.request_id, reply.mode, reply.settings)
            self._render_timer.start()
