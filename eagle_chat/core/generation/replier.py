"""Replier: what runs one reply, whatever runs it — the local :class:`~eagle_chat.core.generation.engine.Engine`
(in the engine host) or a :class:`~eagle_chat.core.serving.remote.RemoteEngine` (an OpenAI-compatible server).

The worker, ``describe`` (core.generation.loaded) and the benchmarks rely only on this; a new kind of engine
is a new class that satisfies it (tests/core/test_replier.py checks both do, signatures included).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Replier(Protocol):
    spec: Any  # what was loaded: a PipelineSpec, or a RemoteSpec
    plan: Any  # where it runs: ``device`` and ``draft_device``
    load_time_ms: float

    @property
    def has_draft(self) -> bool:
        """True if replies are drafted (EAGLE-3); a remote server other than EagleChat says nothing: False."""

    @property
    def supports_thinking(self) -> bool:
        """True if the chat template can switch Qwen3-style thinking on and off."""

    def generate(self, prompt: str | Sequence[dict], settings: Any = ..., on_chunk: Callable[[Any], None] | None = None,
                 stop: threading.Event | None = None) -> Any:
        """Run one reply, streaming ``Chunk``s to ``on_chunk``; the ``GenerationResult``. Setting ``stop``
        ends it within a step; the text so far is returned."""

    def prompt_text(self, prompt: str | Sequence[dict], thinking: bool | None = None) -> str:
        """The prompt as the model sees it (the chat template applied), or as near as can be known."""

    def close(self) -> None:
        """Release what it holds (the pipeline's memory, connections)."""
