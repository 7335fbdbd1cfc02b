"""GenerationWorker: lives on its own QThread and drives the engine host process (core.hosting).

The OpenVINO pipelines live in the engine host, a child process: a GenAI abort there costs the reply in
flight, and the worker starts the host again with the same model. Requests arrive as queued slot calls from
the controller; results leave as signals. The worker never touches a widget. Its thread blocks in the
host's calls; Stop does not go through its event loop: the controller sets the request's
``threading.Event``, which the host client passes on within ``STOP_POLL_S``. The GUI thread may end the
host at once with :meth:`GenerationWorker.end_host` (a load to cancel, a reply that ignores Stop, closing).

A remote server's model (RemoteSpec) runs here, in-process: there is no OpenVINO in it to crash.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal, Slot

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.core.generation.chunk_batcher import ChunkBatcher
from eagle_chat.core.generation.engine import (
    EngineError,
    GenerationResult,
    GenerationSettings,
    PipelineSpec,
)
from eagle_chat.core.generation.failure_kinds import (
    CRASHED,
    FAULT,
    REFUSED,
    STOPPED,
    UNAVAILABLE,
)
from eagle_chat.core.generation.loaded import LoadedPipeline, describe
from eagle_chat.core.generation.replier import Replier
from eagle_chat.core.hosting.client import EngineHost, HostCrashed, RequestFailed
from eagle_chat.core.hosting.restarts import RestartPolicy
from eagle_chat.core.serving.remote import RemoteEngine, RemoteSpec
from eagle_chat.ui.words.core_text import user_error_text

log = logging.getLogger(__name__)

RESTART = "restart"  # end_host's reason when the user restarts a hung engine
CANCEL = "cancel"  # … when a load is cancelled (another model chosen, or the app closes)
# Ends that are not the engine's own fault (the kernel's OOM killer, a kill from outside): restarted every
# time. An abort or a segfault counts towards RestartPolicy's limit. Windows has no SIGKILL: multiprocessing
# reports a TerminateProcess (Task Manager, taskkill /F) as -SIGTERM there.
if sys.platform == "win32":
    _NOT_COUNTED = {-signal.SIGTERM}
else:
    _NOT_COUNTED = {-signal.SIGKILL, -signal.SIGTERM}


class GenerationWorker(QObject):
    """Loads a pipeline in an engine host and runs replies on it, from the thread it was moved to."""

    sig_loading = Signal(object)
    """A load passed its checks and the previous pipeline is released: the PipelineSpec."""
    sig_loaded = Signal(LoadedPipeline)
    """A load finished: the LoadedPipeline (its load_id says which load)."""
    sig_load_failed = Signal(int, str, LoadedPipeline)
    """A load failed: its id, a sentence for the user, and the LoadedPipeline still loaded (the one before,
    kept or loaded again) or None."""
    sig_chunk = Signal(int, str, int, float)
    """Streamed text (chunks gathered over at most 15 ms): request id, text, running token count,
    seconds since the request started."""
    sig_steps = Signal(int, object)
    """Verification steps recorded since the last such signal, sent just before the chunk that shows their
    text: request id and a tuple of (tokens, drafted_chars, own_chars)."""
    sig_finished = Signal(int, GenerationResult)
    """A reply ended (completed or stopped): request id and the GenerationResult."""
    sig_failed = Signal(int, str, str, str)
    """A reply failed: request id, its kind (core.generation.failure_kinds: an API client's HTTP status, the
    window's wording), the English sentence (API clients, the log) and the one the window shows."""
    sig_draft_free_loaded = Signal(bool, str)
    """The draft-free reference pipeline for comparisons: loaded (True) or not, and why not."""
    sig_engine_lost = Signal(str, bool)
    """The engine host ended outside a load: a sentence for the user, and whether it is being started again
    with the same model (False: nothing is loaded now)."""
    sig_engine_restarted = Signal(LoadedPipeline)
    """The engine host is back with the same pipeline: the LoadedPipeline (load_id None)."""
    sig_engine_hung = Signal(int)
    """A reply has ignored Stop for ``HUNG_AFTER_S``: its request id (the window offers a restart)."""

    def __init__(self, log_path: Path | None = None) -> None:
        super().__init__()
        self.log_path = Path(log_path) if log_path is not None else paths.engine_log_file()
        self._loaded: LoadedPipeline | None = None
        self._host: EngineHost | None = None  # the host of the loaded pipeline
        self._remote: Replier | None = None  # or a remote server's model (a RemoteEngine), run in-process
        self._starting: EngineHost | None = None  # a host being loaded: end_host cancels it
        self._hosts_lock = threading.Lock()
        self.restarts = RestartPolicy()
        self.wanted_load: int | None = None  # the latest load asked for (set from the GUI thread)

    # --- any thread -----------------------------------------------------------------------------------
    def end_host(self, reason: str) -> bool:
        """End the engine host(s) at once: a load in progress fails as cancelled, a reply in flight ends where
        it is. True if there was a host to end. Safe from any thread (the worker's is blocked in the host)."""
        with self._hosts_lock:
            hosts = [h for h in (self._starting, self._host) if h is not None]
        for host in hosts:
            host.kill(reason)
        return bool(hosts)

    def host_pid(self) -> int | None:
        """The engine host's process id (the loaded pipeline's), or None."""
        host = self._host
        return host.pid if host is not None and host.is_alive() else None

    # --- slots (the worker's thread) ------------------------------------------------------------------
    @Slot(int, object)
    def load(self, load_id: int, spec: PipelineSpec) -> None:
        """Load ``spec`` as a transaction: its folders are checked (in a new host) before the running
        pipeline is released, and if OpenVINO then cannot build it, the previous pipeline is loaded again."""
        if self.wanted_load is not None and load_id != self.wanted_load:  # another load was asked for since
            self.sig_load_failed.emit(load_id, self.tr("Loading was cancelled."), self._loaded)
            return
        self.restarts.reset()
        previous = self._loaded.spec if self._loaded is not None else None
        released = []

        def release() -> None:
            self._release()
            released.append(True)
            self.sig_loading.emit(spec)

        try:
            self._loaded = self._open(spec, load_id, release)
        except HostCrashed as crash:
            if crash.cancelled:
                self._forget_dead_host()
                self.sig_load_failed.emit(load_id, self.tr("Loading was cancelled."), self._loaded)
                return
            message = self.tr("The engine stopped while loading ({cause}). Its log: {path}").format(
                cause=crash.cause, path=self.log_path)
            self.sig_load_failed.emit(load_id, message, self._restore(previous) if released else self._loaded)
            return
        except Exception as error:  # noqa: BLE001 - a bad folder or an OpenVINO error must not end the thread
            self.sig_load_failed.emit(load_id, self._load_error_text(error),
                                      self._restore(previous) if released else self._loaded)
            return
        self.sig_loaded.emit(self._loaded)

    @Slot()
    def load_draft_free(self) -> None:
        """Load the current target again without its draft: plain decoding exactly as LLMPipeline does it,
        the fair reference for a comparison. Costs a second copy of the model in memory (in the host)."""
        if self._loaded is None:
            self.sig_draft_free_loaded.emit(False, self.tr("No model is loaded yet."))
            return
        if self._remote is not None or self._host is None:
            error = EngineError("A draft-free reference pipeline needs a local model; the remote server has none.")
            self.sig_draft_free_loaded.emit(False, user_error_text(error))
            return
        try:
            self._host.load_draft_free()
        except RequestFailed as failure:
            self.sig_draft_free_loaded.emit(False, user_error_text(failure.error))
            return
        except HostCrashed as crash:
            self.sig_draft_free_loaded.emit(False, self._crash_text(crash))
            self._recover(crash)
            return
        self._loaded = self._loaded.with_changes(draft_free=True)
        self.sig_draft_free_loaded.emit(True, "")

    @Slot()
    def unload_draft_free(self) -> None:
        if self._loaded is None or not self._loaded.draft_free:
            return
        self._loaded = self._loaded.with_changes(draft_free=False)
        if self._host is not None:
            try:
                self._host.unload_draft_free()
            except HostCrashed as crash:
                self._recover(crash)

    @Slot(int, object, object, object, bool)
    def generate(self, request_id: int, messages, settings: GenerationSettings, stop: threading.Event,
                 draft_free: bool = False) -> None:
        if stop.is_set():  # stopped while queued
            self.sig_failed.emit(request_id, STOPPED, "Stopped before it started.",
                                 self.tr("Stopped before it started."))
            return
        if self._remote is not None:
            self._generate_remote(self._remote, request_id, messages, settings, stop)
            return
        for attempt in (1, 2):  # a host found dead before the reply started: restart it, then run the reply
            if self._host is None:
                self.sig_failed.emit(request_id, UNAVAILABLE, "No model is loaded yet.",
                                     self.tr("No model is loaded yet."))
                return
            try:
                result = self._host.generate(
                    messages, settings, stop, draft_free=draft_free,
                    on_chunk=lambda text, tokens, t: self.sig_chunk.emit(request_id, text, tokens, t),
                    on_steps=lambda steps: self.sig_steps.emit(request_id, steps),
                    on_hung=lambda: self.sig_engine_hung.emit(request_id))
            except RequestFailed as failure:
                self._emit_failure(request_id, failure.kind, failure.error)
                return
            except HostCrashed as crash:
                if crash.started or crash.cancelled or attempt == 2:
                    self.sig_failed.emit(request_id, CRASHED, f"The engine stopped mid-reply ({crash.cause}).",
                                         self._crash_text(crash))
                    self._recover(crash)
                    return
                self._recover(crash)  # it died while idle: nothing of this reply ran yet
                continue
            self.sig_finished.emit(request_id, result)
            return

    @Slot()
    def shutdown_host(self) -> None:
        """Unload: end the engine host (its memory goes back to the system); the thread goes on."""
        self._release()

    @Slot()
    def shutdown(self) -> None:
        """End the engine host, then this thread's event loop."""
        self._release()
        QThread.currentThread().quit()

    # --- internals ------------------------------------------------------------------------------------
    def _open(self, spec, load_id: int | None, release) -> LoadedPipeline:
        """A new pipeline for ``spec``: a new host (local) or a remote server's model; ``release`` runs once
        the spec checks out, before the model is built."""
        if isinstance(spec, RemoteSpec):
            engine = RemoteEngine(spec)  # raises a UserError the user can act on
            release()
            self._remote = engine
            return describe(engine, load_id=load_id)
        host = EngineHost(self.log_path)
        with self._hosts_lock:
            self._starting = host
        if load_id is not None and self.wanted_load not in (None, load_id):  # cancelled before it was here
            host.kill(CANCEL)
        try:
            loaded = host.load(spec, load_id, on_valid=release)
        except BaseException:
            host.close()
            raise
        finally:
            with self._hosts_lock:
                self._starting = None
        with self._hosts_lock:
            self._host = host
        return loaded

    def _restore(self, spec) -> LoadedPipeline | None:
        self._loaded = None
        if spec is not None:
            try:
                self._loaded = self._open(spec, None, lambda: None)
            except Exception:
                log.exception("could not load the previous model %s again", spec)
        return self._loaded

    def _recover(self, crash: HostCrashed) -> None:
        """The host ended mid-call: start a new one with the same pipeline, unless crashes come too often."""
        loaded = self._loaded
        self._forget_dead_host(everything=True)
        if loaded is None or crash.cancelled == CANCEL:
            return
        log.warning("the engine host ended (%s); the log: %s", crash.cause, self.log_path)
        counted = crash.cancelled is None and crash.exitcode not in _NOT_COUNTED
        if counted and not self.restarts.crashed():
            self.sig_engine_lost.emit(self.tr(
                "The engine crashed {count} times within {minutes} minutes, so it is not restarted again. What "
                "is known to help: turn prefix caching off (Reuse earlier turns, under the options), or use the "
                "full-vocabulary draft of this model. The log: {path}").format(
                    count=self.restarts.max_crashes, minutes=round(self.restarts.window_s / 60), path=self.log_path),
                False)
            return
        self.sig_engine_lost.emit(self.tr("The engine stopped ({cause}); starting it again with the same model…")
                                  .format(cause=crash.cause), True)
        try:
            self._loaded = self._open(loaded.spec, None, lambda: None)
            if loaded.draft_free and self._host is not None:  # a remote model has no draft-free pipeline
                self._host.load_draft_free()
                self._loaded = self._loaded.with_changes(draft_free=True)
        except Exception as error:
            log.exception("restarting the engine failed")
            self._release()
            self.sig_engine_lost.emit(self.tr("The engine could not be started again: {error}").format(
                error=self._load_error_text(error)), False)
            return
        self.sig_engine_restarted.emit(self._loaded)

    def _forget_dead_host(self, everything: bool = False) -> None:
        with self._hosts_lock:
            host = self._host
            if host is not None and (everything or not host.is_alive()):
                self._host = None
            else:
                host = None
        if host is not None:
            host.close()
            self._loaded = None

    def _release(self) -> None:
        with self._hosts_lock:
            host, self._host = self._host, None
        if host is not None:
            host.close()
        if self._remote is not None:
            self._remote.close()
            self._remote = None
        self._loaded = None

    def _generate_remote(self, remote: Replier, request_id: int, messages, settings: GenerationSettings,
                         stop) -> None:
        batch = ChunkBatcher(lambda text, tokens, t: self.sig_chunk.emit(request_id, text, tokens, t),
                             lambda steps: self.sig_steps.emit(request_id, steps))
        try:
            result = remote.generate(messages, settings, on_chunk=batch.add, stop=stop)
        except EngineError as error:
            batch.flush()
            self._emit_failure(request_id, REFUSED, error)
            return
        except Exception as error:
            log.exception("generation failed")
            batch.flush()
            self._emit_failure(request_id, FAULT, error)
            return
        batch.flush()
        self.sig_finished.emit(request_id, result)

    def _emit_failure(self, request_id: int, kind: str, error: Exception) -> None:
        if isinstance(error, UserError):  # English for API clients, translated for the window
            self.sig_failed.emit(request_id, kind, str(error), user_error_text(error))
        else:
            self.sig_failed.emit(request_id, kind, f"Generation failed unexpectedly: {error}",
                                 self.tr("Generation failed unexpectedly: {error}").format(error=error))

    def _crash_text(self, crash: HostCrashed) -> str:
        if crash.cancelled == RESTART:
            return self.tr("The engine was restarted; this reply is kept as far as it got.")
        return self.tr("The engine stopped mid-reply ({cause}); the reply is kept as far as it got, and the "
                       "engine starts again with the same model. The log: {path}").format(
                           cause=crash.cause, path=self.log_path)

    def _load_error_text(self, error: BaseException) -> str:
        if isinstance(error, RequestFailed):
            error = error.error
        if isinstance(error, UserError):
            return user_error_text(error)
        log.error("loading failed: %s", error)
        return self.tr("Loading failed unexpectedly: {error}").format(error=error)

