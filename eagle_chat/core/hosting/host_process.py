"""The engine host's side: runs in its own process, owns the pipelines, serves one request at a time.

Started by :class:`eagle_chat.core.hosting.client.EngineHost` (``multiprocessing``, spawn). Its output goes
to the engine log (append), so a GenAI abort leaves glibc's last words and the Python traceback
(``faulthandler``) where the app can point the user to. One process holds one loaded model (and, for
comparisons, its draft-free twin): another model means another process, so the memory of the last one goes
back to the OS with it.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading
import time

from eagle_chat.core.console_signals import ignore_console_interrupts
from eagle_chat.core.errors import UserError
from eagle_chat.core.generation import devices
from eagle_chat.core.generation.chunk_batcher import ChunkBatcher
from eagle_chat.core.generation.failure_kinds import FAULT, REFUSED, UNAVAILABLE
from eagle_chat.core.hosting.protocol import ErrorInfo, error_info

log = logging.getLogger("eagle_chat.engine_host")


def run(conn, stop_conn, log_path: str) -> None:
    """The host's main: ``conn`` the pipe to the app, ``stop_conn`` the one-way pipe Stop comes down."""
    ignore_console_interrupts()  # a console's Ctrl+C is for serve or the app, which then stop this host
    _log_to(log_path)
    devices.limit_cpu_caches()  # before OpenVINO builds anything: bounded memory under distinct histories
    log.info("engine host %d started", os.getpid())
    Host(conn, PipeStop(stop_conn)).serve()
    log.info("engine host %d ends", os.getpid())


class PipeStop:
    """Stop as the engine's streamer asks for it (``is_set``, once a step): set once anything came down the
    stop pipe. A pipe, not a ``multiprocessing.Event``: that needs multiprocessing's resource-tracker process,
    which outlives the app. ``clear`` (a new reply) drains what an earlier Stop sent."""

    def __init__(self, conn):
        self._conn = conn
        self._set = False

    def is_set(self) -> bool:
        if not self._set:
            try:
                self._set = self._conn.poll()
            except (OSError, EOFError):  # the app is gone
                self._set = True
        return self._set

    def set(self) -> None:
        self._set = True

    def clear(self) -> None:
        try:
            while self._conn.poll():
                self._conn.recv_bytes()
        except (OSError, EOFError):
            return
        self._set = False


class Host:
    def __init__(self, conn, stop):
        self._conn = conn
        self._stop = stop
        self._send_lock = threading.Lock()  # the streaming thread sends chunks, this one the rest
        self._gone = False  # the app hung up: end the reply and the process
        self.engine = None
        self.draft_free = None

    def serve(self) -> None:
        while not self._gone:
            try:
                request = self._conn.recv()
            except (EOFError, OSError):
                return
            if request[0] == "quit":
                return
            handler = getattr(self, "_on_" + request[0], None)
            if handler is None:
                self._send(("error", ErrorInfo(FAULT, f"The engine host does not know {request[0]!r}.")))
                continue
            handler(*request[1:])

    def _send(self, message: tuple) -> None:
        with self._send_lock:
            try:
                self._conn.send(message)
            except (OSError, ValueError):  # the app is gone: stop whatever runs
                self._gone = True
                self._stop.set()

    # --- requests -------------------------------------------------------------------------------------
    def _on_load(self, spec, load_id) -> None:
        from eagle_chat.core.generation.engine import Engine, plan_load
        from eagle_chat.core.generation.loaded import describe

        try:
            plan_load(spec)
        except UserError as error:
            self._send(("error", error_info(error, REFUSED)))
            return
        self._send(("valid",))
        started = time.perf_counter()
        try:
            self.engine = Engine(spec)
        except UserError as error:
            self._send(("error", error_info(error, REFUSED)))
            return
        except Exception as error:
            log.exception("loading %s failed", spec)
            self._send(("error", error_info(error, FAULT)))
            return
        log.info("loaded %s in %.1f s", spec.target_dir, time.perf_counter() - started)
        self._send(("loaded", describe(self.engine, load_id=load_id)))

    def _on_load_draft_free(self) -> None:
        from eagle_chat.core.generation.engine import Engine, EngineError

        if self.engine is None:
            self._send(("draft_free", error_info(EngineError("No model is loaded yet."), UNAVAILABLE)))
            return
        if self.draft_free is None:
            try:
                self.draft_free = Engine(self.engine.spec.with_changes(draft_dir=None))
            except Exception as error:  # noqa: BLE001 - said to the app, which shows it
                self._send(("draft_free", error_info(error)))
                return
        self._send(("draft_free", None))

    def _on_unload_draft_free(self) -> None:
        if self.draft_free is not None:
            self.draft_free.close()
            self.draft_free = None
        self._send(("done",))

    def _on_generate(self, prompt, settings, draft_free: bool) -> None:
        from eagle_chat.core.generation.engine import EngineError

        engine = self.draft_free if draft_free else self.engine
        self._stop.clear()
        if engine is None:
            missing = EngineError("The draft-free reference pipeline is not loaded.") if draft_free \
                else EngineError("No model is loaded yet.")
            self._send(("error", error_info(missing, UNAVAILABLE)))
            return
        self._send(("started",))
        batch = ChunkBatcher(lambda text, tokens, t: self._send(("chunk", text, tokens, t)),
                             lambda steps: self._send(("steps", steps)))
        try:
            result = engine.generate(prompt, settings, on_chunk=batch.add, stop=self._stop)
        except EngineError as error:
            batch.flush()
            self._send(("error", error_info(error, REFUSED)))
            return
        except Exception as error:
            log.exception("generation failed")
            batch.flush()
            self._send(("error", error_info(error, FAULT)))
            return
        batch.flush()
        self._send(("result", result))


def _log_to(path: str) -> None:
    """Send this process's output (Python's and the C libraries' — fd 1 and 2) to the engine log."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    except OSError:
        fd = None
    if fd is None:  # no log: fd 1 and 2 stay what they were, or nothing when there were none
        fd = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    # A windowed program (the Start-menu EagleChat.exe, pythonw) has no standard streams: Python sets
    # sys.stdout and sys.stderr to None, and so does its spawned host. fd 1 and 2 are the log now: Python's
    # streams write to them too, so print, logging and faulthandler below have somewhere to go.
    if sys.stdout is None:
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False)
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False)
    os.environ["LIBC_FATAL_STDERR_"] = "1"  # glibc's abort message to stderr (the log), not the terminal
    faulthandler.enable()  # a native abort or segfault leaves the Python stacks in the log too
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, force=True,
                        format="%(asctime)s %(process)d %(name)s %(levelname)s: %(message)s")
