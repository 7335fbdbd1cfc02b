"""The app's handle on one engine host process: :class:`EngineHost`.

Blocking calls, made from one thread (the app's generation worker); only :meth:`EngineHost.kill` may be
called from any other (the GUI thread ends a load, a hung reply or the host itself that way). While a reply
streams, the caller's Stop event is checked every ``STOP_POLL_S`` and passed on to the host's shared event,
which its streamer checks each decoding step.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from eagle_chat.core.generation.failure_kinds import FAULT
from eagle_chat.core.hosting import host_process
from eagle_chat.core.hosting.protocol import ErrorInfo, rebuilt_error

STOP_POLL_S = 0.01  # how soon a Stop reaches the host (it then ends the reply within a step)
HUNG_AFTER_S = 10.0  # a reply still running this long after Stop ignores it: the app offers a restart
QUIT_WAIT_S = 2.0  # a host asked to quit that is still there after this is killed
# glibc's and CPython's last words before an abort, looked for in the log (see crash_cause)
_LAST_WORDS = ("malloc", "free(", "corrupted", "double free", "Fatal Python error", "terminate called",
               "Segmentation fault", "Aborted")


class HostCrashed(Exception):
    """The host process ended during a call. ``cancelled``: the app ended it on purpose (``kill``);
    ``started``: the reply had begun (its text so far is all there is); ``cause``: the signal or exit code
    and glibc's last words, if the log has them."""

    def __init__(self, cause: str, *, cancelled: str | None, started: bool, exitcode: int | None = None):
        super().__init__(cause)
        self.cause = cause
        self.exitcode = exitcode  # negative: the signal that ended it
        self.cancelled = cancelled
        self.started = started


class RequestFailed(Exception):
    """The host answered a request with an error: ``kind`` (core.generation.failure_kinds) and ``error``, the
    exception it raised as rebuilt here (the same UserError subclass, or an EngineFault)."""

    def __init__(self, kind: str, error: Exception):
        super().__init__(str(error))
        self.kind = kind
        self.error = error


class EngineHost:
    """Starts the host process at once; ``load`` it, ``generate`` on it, ``close`` it (or ``kill`` it)."""

    def __init__(self, log_path: Path):
        self.log_path = Path(log_path)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        stop_reader, self._stop = context.Pipe(duplex=False)  # Stop goes down its own pipe (host_process.PipeStop)
        self._process = context.Process(target=host_process.run, args=(child, stop_reader, str(self.log_path)),
                                        name="EagleChat engine", daemon=True)
        self._process.start()
        child.close()  # the host's ends: once the host is gone, our reads end (EOF) instead of waiting
        stop_reader.close()
        self._killed: str | None = None
        self._kill_lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def is_alive(self) -> bool:
        return self._process.is_alive()

    # --- calls (the worker's thread) --------------------------------------------------------------------
    def load(self, spec, load_id: int | None = None, on_valid: Callable[[], None] | None = None):
        """Build ``spec`` in the host; ``on_valid`` runs once its folders check out, before OpenVINO builds
        it. Returns the LoadedPipeline; raises RequestFailed or HostCrashed."""
        self._send(("load", spec, load_id))
        while True:
            message = self._receive()
            if message[0] == "valid":
                if on_valid is not None:
                    on_valid()
            elif message[0] == "loaded":
                return message[1]
            else:
                raise self._error(message)

    def load_draft_free(self) -> None:
        """Load the target again without its draft beside it (comparisons); raises as ``load``."""
        self._send(("load_draft_free",))
        message = self._receive()
        if message[1] is not None:
            raise RequestFailed(message[1].kind, rebuilt_error(message[1]))

    def unload_draft_free(self) -> None:
        self._send(("unload_draft_free",))
        self._receive()

    def generate(self, prompt, settings, stop: threading.Event, *, draft_free: bool = False,
                 on_chunk: Callable[[str, int, float], None], on_steps: Callable[[tuple], None],
                 on_hung: Callable[[], None] | None = None):
        """Run one reply; the GenerationResult. Raises RequestFailed, or HostCrashed (``started`` tells
        whether any of it ran)."""
        started = False
        stop_passed_at: float | None = None
        self._send(("generate", prompt, settings, draft_free))
        while True:
            if stop.is_set():
                now = time.monotonic()
                if stop_passed_at is None:
                    self._pass_stop()
                    stop_passed_at = now
                elif on_hung is not None and now - stop_passed_at > HUNG_AFTER_S:
                    on_hung()
                    on_hung = None
            message = self._receive(STOP_POLL_S, started=started)
            if message is None:
                continue
            kind = message[0]
            if kind == "chunk":
                on_chunk(message[1], message[2], message[3])
            elif kind == "steps":
                on_steps(message[1])
            elif kind == "started":
                started = True
            elif kind == "result":
                return message[1]
            else:
                raise self._error(message)

    def close(self) -> None:
        """End the host: ask it to quit, kill it if it does not within ``QUIT_WAIT_S``; wait for it."""
        if self._process.is_alive():
            try:
                self._conn.send(("quit",))
            except (OSError, ValueError):
                pass
            self._process.join(QUIT_WAIT_S)
        if self._process.is_alive():
            self.kill("closed")
        self._process.join()
        self._conn.close()
        self._stop.close()

    # --- any thread -----------------------------------------------------------------------------------
    def kill(self, reason: str) -> None:
        """End the host at once (SIGKILL): a load, a reply that ignores Stop, or the app closing. The call in
        progress on the worker's thread raises HostCrashed with ``cancelled=reason``."""
        with self._kill_lock:
            if self._killed is None:
                self._killed = reason
        if self._process.is_alive():
            self._process.kill()

    # --- internals ------------------------------------------------------------------------------------
    def _pass_stop(self) -> None:
        try:
            self._stop.send_bytes(b"s")
        except (OSError, ValueError):  # the host is gone: the next read says so
            pass

    def _send(self, message: tuple) -> None:
        try:
            self._conn.send(message)
        except (OSError, ValueError):
            raise self._crashed(started=False) from None

    def _receive(self, timeout: float | None = None, *, started: bool = False):
        try:
            if timeout is not None and not self._conn.poll(timeout):
                return None
            return self._conn.recv()
        except (EOFError, OSError, ValueError):
            raise self._crashed(started=started) from None

    def _error(self, message: tuple) -> RequestFailed:
        info = message[1] if len(message) > 1 and isinstance(message[1], ErrorInfo) else None
        if info is None:
            info = ErrorInfo(FAULT, f"The engine host sent an unexpected message {message[0]!r}.")
        return RequestFailed(info.kind, rebuilt_error(info))

    def _crashed(self, *, started: bool) -> HostCrashed:
        self._process.join(5)
        return HostCrashed(self.crash_cause(), cancelled=self._killed, started=started,
                           exitcode=self._process.exitcode)

    def crash_cause(self) -> str:
        """How the host ended: "killed by SIGABRT: malloc(): invalid next size (unsorted)", "exit code 1"…"""
        code = self._process.exitcode
        if code is None:
            how = "still running"
        elif code < 0:
            try:
                how = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exit code {code}"
        words = self._last_words()
        return f"{how}: {words}" if words else how

    def _last_words(self) -> str:
        try:
            with open(self.log_path, "rb") as log:
                log.seek(self._log_start)
                tail = log.read()[-65536:].decode("utf-8", "replace")
        except OSError:
            return ""
        return next((line.strip() for line in tail.splitlines() if any(w in line for w in _LAST_WORDS)), "")
