"""What the HTTP side needs from whoever runs the model: a queue that takes :class:`Job`s in order.

The window and ``eagle-chat serve`` both hand jobs to the ChatController's one request queue, so API
requests and the window's own replies share one pipeline and one worker. A backend calls a job's
``on_*`` methods as the reply starts, streams and ends — from any thread; the events reach the HTTP
handler on its event loop.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from eagle_chat.core.generation.engine import GenerationResult, GenerationSettings
from eagle_chat.core.generation.metrics import GenerationStats
# Why a reply failed (never read from the English sentence), re-exported for the HTTP side:
from eagle_chat.core.generation.failure_kinds import (  # noqa: F401
    CRASHED, FAILURES, FAULT, REFUSED, STOPPED, UNAVAILABLE,
)
from eagle_chat.core.serving.requests import ServedModel


SHUTDOWN = "shutdown"  # Job.cut: the server's shutdown deadline ended it


@dataclass(frozen=True)
class Event:
    kind: str  # "started", "chunk", "finished", "failed"
    text: str = ""
    tokens: int = 0
    t: float = 0.0
    result: GenerationResult | None = None
    failure: str = REFUSED  # for "failed": why (one of FAILURES)

    @property
    def stats(self) -> GenerationStats:
        """The figures of a "finished" event, the one kind that carries a result."""
        if self.result is None:
            raise ValueError(f"a {self.kind!r} event carries no result")
        return self.result.stats


class Job:
    """One API request in the backend's queue. Create it on the event loop that will read its events."""

    def __init__(self, prompt, settings: GenerationSettings, *, label: str = ""):
        self.prompt = prompt  # a raw prompt string, or a list of {"role", "content"} messages
        self.settings = settings
        self.label = label
        self.stop = threading.Event()  # set it and the engine ends the reply within a decoding step
        self.created = time.perf_counter()
        self.started_at: float | None = None
        self.request_id: int | None = None
        self.ended = False
        self.cut: str | None = None  # why the server ended it early (SHUTDOWN), if it did: see cut_short
        self.dispatched = False  # the backend has handed it to the engine (on_started was called)
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._events: asyncio.Queue[Event] = asyncio.Queue()
        self._lock = threading.Lock()
        self._in_transit = 0

    # --- backend side (any thread) ----------------------------------------------------------------
    def on_started(self, request_id: int) -> None:
        self.dispatched = True
        self._post(Event("started", tokens=request_id, t=time.perf_counter()))

    def on_chunk(self, text: str, tokens: int, t: float) -> None:
        self._post(Event("chunk", text, tokens, t))

    def on_finished(self, result: GenerationResult) -> None:
        self._post(Event("finished", result=result))

    def on_failed(self, message: str, *, failure: str = REFUSED) -> None:
        self._post(Event("failed", message, failure=failure))

    # --- the server's side -----------------------------------------------------------------------------
    def cut_short(self, cause: str) -> None:
        """End the reply within a decoding step for ``cause`` (SHUTDOWN): its client is told it was cut.
        One still waiting in the queue is answered at once (503, retry) rather than when its turn comes,
        which may be after a reply that is not the API's (the window's). Call it on the loop's thread: the
        ControllerBackend calls ``on_started`` there too, so "still waiting" is never a guess."""
        if self.cut is not None:
            return
        self.cut = cause
        self.stop.set()
        if not self.dispatched:
            self._post(Event("failed", "Stopped before it started.", failure=STOPPED))

    # --- HTTP side (the event loop) -----------------------------------------------------------------
    async def next_event(self) -> Event:
        event = await self._events.get()
        if event.kind == "started":
            self.request_id, self.started_at = event.tokens, event.t
        elif event.kind in ("finished", "failed"):
            self.ended = True
        return event

    @property
    def queue_ms(self) -> float:
        return ((self.started_at or time.perf_counter()) - self.created) * 1000.0

    def _post(self, event: Event) -> None:
        # Events must arrive in order: one posted from the loop's thread while another thread's is still on
        # its way through call_soon_threadsafe takes the same way behind it.
        if threading.get_ident() == self._thread and not self._in_transit:
            self._events.put_nowait(event)
            return
        with self._lock:
            self._in_transit += 1
        self._loop.call_soon_threadsafe(self._arrive, event)

    def _arrive(self, event: Event) -> None:
        with self._lock:
            self._in_transit -= 1
        self._events.put_nowait(event)


class Backend(Protocol):
    def served_model(self) -> ServedModel | None:
        """The model requests are served with, or None while none is loaded."""

    def default_settings(self) -> GenerationSettings:
        """What a request gets for what it does not say (K, tree, thinking)."""

    def submit(self, job: Job) -> None:
        """Queue the job, or raise ApiError (429 when the queue is full, 503 when not ready)."""

    def load(self) -> dict:
        """What ``/health`` reports besides readiness: ``{"running": bool, "queued": int}``."""

    def prefill_next_turn(self, messages: list[dict], settings: GenerationSettings) -> bool:
        """After a chat reply: run ``messages`` (the request's and the reply just given) through the model as
        its next turn will send them, in the background, so that the next request finds them in the prefix
        cache (``core.generation.prefill``), once the backend has been idle a moment (a request that comes
        first cancels it). True if one was scheduled; optional for a backend."""
