"""Gathers streamed chunks and sends them on at most every ``CHUNK_INTERVAL_S``.

Runs on OpenVINO's streaming thread in the engine host. Each message costs that thread the GIL and a pipe
write, and the app's GUI thread a slot call; at 1,000+ tokens/s one message per chunk cost ~10 % of the
throughput (benchmarks/ui_overhead.py), while the screen refreshes at 30 Hz anyway.

The first chunk goes at once, and so does the first that shows something: a reply that opens with
``<think>\\n`` (or blank lines) shows nothing until the next chunk, which would otherwise wait up to the
interval — time an API client reads as time to first token.
"""

from __future__ import annotations

from collections.abc import Callable

from eagle_chat.core.generation.metrics import Chunk
from eagle_chat.core.generation.reasoning import ReasoningSplitter

CHUNK_INTERVAL_S = 0.015


class ChunkBatcher:
    """``add`` each chunk as it streams; ``emit(text, tokens, t)`` hears the gathered text, and
    ``emit_steps(steps)`` the steps recorded meanwhile (just before the text they wrote). ``flush`` at the end."""

    def __init__(self, emit: Callable[[str, int, float], None],
                 emit_steps: Callable[[tuple], None] | None = None):
        self._opening: ReasoningSplitter | None = ReasoningSplitter()  # until something visible has come
        self._emit = emit
        self._emit_steps = emit_steps
        self._steps: list[tuple] = []
        self._parts: list[str] = []
        self._tokens = 0
        self._t = 0.0
        self._last = float("-inf")

    def add(self, chunk: Chunk) -> None:
        self._parts.append(chunk.text)
        self._steps.extend(chunk.steps)
        self._tokens, self._t = chunk.tokens, chunk.t
        shows = self._opening is not None and any(self._opening.feed(chunk.text))
        if shows:
            self._opening = None
        if shows or chunk.t - self._last >= CHUNK_INTERVAL_S:
            self.flush()

    def flush(self) -> None:
        if self._steps and self._emit_steps is not None:
            steps, self._steps = tuple(self._steps), []
            self._emit_steps(steps)
        if self._parts:
            text, self._parts = "".join(self._parts), []
            self._last = self._t
            self._emit(text, self._tokens, self._t)
