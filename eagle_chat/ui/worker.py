"""GenerationWorker: lives on its own QThread, owns the engine (and so the OpenVINO pipeline).

Requests arrive as queued slot calls from the controller; results leave as signals. The worker never
touches a widget. Stopping does not go through the worker's event loop (it is blocked inside
``generate()``): the controller sets the request's ``threading.Event`` directly, and the engine's streamer
sees it within a decoding step.
"""

from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QObject, QThread, Signal, Slot

from eagle_chat.core.errors import UserError
from eagle_chat.core.generation.engine import (
    Engine,
    EngineError,
    GenerationSettings,
    PipelineSpec,
    plan_load,
)
from eagle_chat.core.generation.metrics import Chunk
from eagle_chat.core.serving.backend import FAULT, REFUSED, STOPPED, UNAVAILABLE
from eagle_chat.core.serving.remote import RemoteEngine, RemoteSpec
from eagle_chat.core.generation.reasoning import ReasoningSplitter, prompt_opens_reasoning
from eagle_chat.ui.core_text import user_error_text

log = logging.getLogger(__name__)

CHUNK_SIGNAL_INTERVAL_S = 0.015


class GenerationWorker(QObject):
    """Loads a pipeline and runs replies on the thread it was moved to."""

    sig_loading = Signal(object)
    """A load started: the PipelineSpec."""
    sig_loaded = Signal(object)
    """A load finished: dict with load_id, has_draft, supports_thinking, reasoning_in_prompt, load_time_ms,
    device, draft_device, draft_free, spec."""
    sig_load_failed = Signal(int, str, object)
    """A load failed: its id, a sentence for the user, and the info of the pipeline still loaded (the one
    before, kept or loaded again) or None."""
    sig_chunk = Signal(int, str, int, float)
    """Streamed text (chunks gathered over at most 15 ms): request id, text, running token count,
    seconds since the request started."""
    sig_steps = Signal(int, object)
    """Verification steps recorded since the last such signal, sent just before the chunk that shows their
    text: request id and a tuple of (tokens, drafted_chars, own_chars)."""
    sig_finished = Signal(int, object)
    """A reply ended (completed or stopped): request id and the GenerationResult."""
    sig_failed = Signal(int, str, str, str)
    """A reply failed: request id, why (core.serving.backend's REFUSED, FAULT, UNAVAILABLE or STOPPED: an API
    client's HTTP status), the English sentence (API clients, the log) and the one the window shows (in the
    user's language)."""
    sig_draft_free_loaded = Signal(bool, str)
    """The draft-free reference pipeline for comparisons: loaded (True) or not, and why not."""

    def __init__(self) -> None:
        super().__init__()
        self._engine: Engine | None = None
        self._draft_free: Engine | None = None  # optional second, draft-free pipeline (comparisons only)

    @Slot(int, object)
    def load(self, load_id: int, spec: PipelineSpec) -> None:
        """Load ``spec`` as a transaction: its folders are checked before the running pipeline is released,
        and if OpenVINO then cannot build it, the previous pipeline is loaded again."""
        try:
            if not isinstance(spec, RemoteSpec):
                plan_load(spec)
        except UserError as error:  # a bad folder: the running pipeline was never touched
            self.sig_load_failed.emit(load_id, user_error_text(error), self._info(self._engine))
            return
        previous = self._engine.spec if self._engine is not None else None
        self._release()  # two large models at once would not fit: release, then build
        self.sig_loading.emit(spec)
        try:
            engine = _build(spec)
        except Exception as error:  # an unexpected OpenVINO/driver error must not kill the thread
            if not isinstance(error, UserError):
                log.exception("loading %s failed", spec)
            message = user_error_text(error) if isinstance(error, UserError) \
                else self.tr("Loading failed unexpectedly: {error}").format(error=error)
            self.sig_load_failed.emit(load_id, message, self._info(self._restore(previous)))
            return
        self._engine = engine
        self.sig_loaded.emit(self._info(engine, load_id))

    def _restore(self, spec: PipelineSpec | None) -> Engine | None:
        if spec is not None:
            try:
                self._engine = _build(spec)
            except Exception:  # noqa: BLE001 - logged; the window then says nothing is loaded
                log.exception("could not load the previous model %s again", spec)
        return self._engine

    def _info(self, engine: Engine | None, load_id: int | None = None) -> dict | None:
        if engine is None:
            return None
        return {
            "load_id": load_id,
            "spec": engine.spec,
            "has_draft": engine.has_draft,
            "supports_thinking": engine.supports_thinking,
            "reasoning_in_prompt": _reasoning_in_prompt(engine),
            "load_time_ms": engine.load_time_ms,
            "device": engine.plan.device,
            "draft_device": engine.plan.draft_device,
            "draft_free": self._draft_free is not None,
        }

    @Slot()
    def load_draft_free(self) -> None:
        """Load the current target again without its draft: plain decoding exactly as LLMPipeline does it,
        the fair reference for a comparison. Costs a second copy of the model in memory."""
        if self._engine is None:
            self.sig_draft_free_loaded.emit(False, self.tr("No model is loaded yet."))
            return
        if self._draft_free is None:
            try:
                self._draft_free = Engine(self._engine.spec.with_changes(draft_dir=None))
            except UserError as error:
                self.sig_draft_free_loaded.emit(False, user_error_text(error))
                return
        self.sig_draft_free_loaded.emit(True, "")

    @Slot()
    def unload_draft_free(self) -> None:
        if self._draft_free is not None:
            self._draft_free.close()
            self._draft_free = None

    @Slot(int, object, object, object, bool)
    def generate(
        self, request_id: int, messages, settings: GenerationSettings, stop: threading.Event, draft_free: bool = False
    ) -> None:
        engine = self._draft_free if draft_free else self._engine
        if draft_free and engine is None:
            self.sig_failed.emit(request_id, UNAVAILABLE, "The draft-free reference pipeline is not loaded.",
                                 self.tr("The draft-free reference pipeline is not loaded."))
            return
        if engine is None:
            self.sig_failed.emit(request_id, UNAVAILABLE, "No model is loaded yet.", self.tr("No model is loaded yet."))
            return
        if stop.is_set():  # stopped while queued
            self.sig_failed.emit(request_id, STOPPED, "Stopped before it started.",
                                 self.tr("Stopped before it started."))
            return

        batch = _ChunkBatcher(lambda text, tokens, t: self.sig_chunk.emit(request_id, text, tokens, t),
                              lambda steps: self.sig_steps.emit(request_id, steps))
        try:
            result = engine.generate(messages, settings, on_chunk=batch.add, stop=stop)
        except EngineError as error:
            batch.flush()
            self.sig_failed.emit(request_id, REFUSED, str(error), user_error_text(error))  # English for API clients
            return
        except Exception as error:
            log.exception("generation failed")
            batch.flush()
            self.sig_failed.emit(request_id, FAULT, f"Generation failed unexpectedly: {error}",
                                 self.tr("Generation failed unexpectedly: {error}").format(error=error))
            return
        batch.flush()
        self.sig_finished.emit(request_id, result)

    @Slot()
    def shutdown(self) -> None:
        """Release the pipeline on this thread, then end the thread's event loop."""
        self._release()
        QThread.currentThread().quit()

    def _release(self) -> None:
        self.unload_draft_free()
        if self._engine is not None:
            self._engine.close()
            self._engine = None


def _build(spec: PipelineSpec) -> Engine:
    """The engine for ``spec``: a local pipeline, or a remote server's (RemoteSpec)."""
    return RemoteEngine(spec) if isinstance(spec, RemoteSpec) else Engine(spec)


def _reasoning_in_prompt(engine: Engine) -> dict:
    """For each thinking switch (None, True, False): does the template open ``<think>`` in the prompt, so
    replies start inside the thinking (QwQ style)? Tells the GUI how to split the stream from its start."""
    opens = {}
    for thinking in (None, True, False):
        try:
            opens[thinking] = prompt_opens_reasoning(engine.prompt_text([{"role": "user", "content": "hi"}], thinking))
        except Exception:  # noqa: BLE001 - a template that cannot render this probe still chats
            opens[thinking] = False
    return opens


class _ChunkBatcher:
    """Gathers streamed chunks and emits them at most every ``CHUNK_SIGNAL_INTERVAL_S``.

    Runs on OpenVINO's streaming thread. Each signal costs that thread the GIL and the GUI thread a slot
    call; at 1,000+ tokens/s one signal per chunk cost ~10 % of the throughput (benchmarks/ui_overhead.py),
    while the screen refreshes at 30 Hz anyway.

    The first chunk goes at once, and so does the first that shows something: a reply that opens with
    ``<think>\n`` (or blank lines) shows nothing until the next chunk, which would otherwise wait up to the
    interval — time an API client reads as time to first token.
    """

    def __init__(self, emit, emit_steps=None):
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
        if shows or chunk.t - self._last >= CHUNK_SIGNAL_INTERVAL_S:
            self.flush()

    def flush(self) -> None:
        if self._steps and self._emit_steps is not None:
            steps, self._steps = tuple(self._steps), []
            self._emit_steps(steps)
        if self._parts:
            text, self._parts = "".join(self._parts), []
            self._last = self._t
            self._emit(text, self._tokens, self._t)
