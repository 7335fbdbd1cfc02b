"""ApiServer: the HTTP API on uvicorn, in the caller's asyncio loop (qasync's, in the app).

No thread of its own: uvicorn's server runs as a task in the running loop, so requests and the window's
controller meet on one thread. The socket is bound here, not by uvicorn, so a taken port is a clear
``ServerError`` instead of uvicorn's ``sys.exit``. Connections run on uvicorn's h11 protocol with the
header, body and keep-alive clocks of ``timeouts``. Stopping answers what is running (up to ``grace_s``)
and refuses new work with 503; past the deadline a reply in flight is cut (its client is told so:
``finish_reason`` "length", ``eagle_chat.cut`` "shutdown") and those still waiting get 503 with
``Retry-After``; then the listener closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass, field

import uvicorn

from eagle_chat.core.errors import UserError
from eagle_chat.core.serving.backend import SHUTDOWN, Backend
from eagle_chat.core.serving.http import LOOPBACK_NAMES, ApiState, HttpOptions, build_app
from eagle_chat.core.serving.records import RequestRecord
from eagle_chat.core.serving.timeouts import Timeouts, timed_protocol

DEFAULT_PORT = 8000


class ServerError(UserError):
    """The server cannot start as asked (port taken, unsafe bind); the message says what to change."""


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT  # 0: any free port (the URL tells which)
    http: HttpOptions = field(default_factory=HttpOptions)
    grace_s: float = 30.0  # how long stopping waits for replies in flight
    timeouts: Timeouts = field(default_factory=Timeouts)

    def check(self) -> None:
        if not is_loopback(self.host) and not self.http.api_key:
            raise ServerError(
                "Serving on {host} makes the API reachable from other machines; set an API key (--api-key) to do "
                "that, or serve on 127.0.0.1.", host=self.host
            )
        if not 0 <= self.port <= 65535:
            raise ServerError("{port} is not a port number (0–65535).", port=self.port)
        for name, seconds in (("--header-timeout", self.timeouts.header_s), ("--body-timeout", self.timeouts.body_s),
                              ("--keep-alive-timeout", self.timeouts.keep_alive_s)):
            if not 0 < seconds < float("inf"):
                raise ServerError("{name} must be a number of seconds above 0; it is {seconds}.",
                                  name=name, seconds=seconds)
        if not 0 <= self.grace_s < float("inf"):
            raise ServerError("--grace must be a number of seconds, 0 or more; it is {seconds}.", seconds=self.grace_s)


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listening_socket(host: str, port: int, family: int) -> socket.socket:
    """A bound, listening TCP socket whose accepted connections asyncio sets to ``TCP_NODELAY``.

    ``socket.create_server`` leaves ``proto`` 0, accepted sockets inherit it, and asyncio only sets
    ``TCP_NODELAY`` on sockets whose ``proto`` says TCP; without it Nagle holds every small write (an SSE
    event) behind the client's delayed ACK of the one before: 40 ms added to the first token, measured here
    (benchmarks/api_overhead.py). Re-wrapping the descriptor with ``proto=IPPROTO_TCP`` (documented: explicit
    arguments overrule what is detected) keeps create_server's platform handling.
    """
    sock = socket.create_server((host, port), family=family)
    return socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, fileno=sock.detach())


class _Uvicorn(uvicorn.Server):
    def capture_signals(self):  # the host (window or `serve`) owns the process's signals
        return contextlib.nullcontext()


class ApiServer:
    def __init__(self, config: ServerConfig, backend: Backend,
                 on_record: Callable[[RequestRecord], None] | None = None, embeddings=None):
        self.config = config
        self.backend = backend
        self.embeddings = embeddings  # serves /v1/embeddings when given (serving.embeddings.Embeddings)
        self.state = ApiState(on_record)
        self.url: str | None = None
        self._server: _Uvicorn | None = None
        self._task: asyncio.Task | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> str:
        """Bind, start serving, return the base URL (``http://127.0.0.1:8000/v1``)."""
        self.config.check()
        host = self.config.host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            sock = listening_socket(host.strip("[]"), self.config.port, family)
        except OSError as error:
            raise ServerError("Cannot serve on {host}:{port}: {reason}. Choose another port.",
                              host=host, port=self.config.port, reason=error.strerror or error) from error
        sock.setblocking(False)
        options = self.config.http
        if not is_loopback(host) and host not in ("0.0.0.0", "::"):
            options = HttpOptions(**{**options.__dict__, "allowed_hosts": (*options.allowed_hosts, host)})
        app = build_app(options, self.backend, self.state, self.embeddings)
        uv_config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="off", ws="none",
                                   http=timed_protocol(self.config.timeouts),
                                   # uvicorn hands it to loop.call_later, which takes seconds as a float
                                   timeout_keep_alive=self.config.timeouts.keep_alive_s,  # type: ignore[arg-type, unused-ignore]
                                   timeout_graceful_shutdown=1, server_header=False)
        self.state.draining = False
        self._server = _Uvicorn(uv_config)
        self._task = asyncio.ensure_future(self._server.serve(sockets=[sock]))
        while not self._server.started:
            if self._task.done():
                sock.close()
                failure = self._task.exception()
                raise ServerError("The API server did not start: {error}", error=failure)
            await asyncio.sleep(0.005)
        port = sock.getsockname()[1]
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        self.url = f"http://{shown}:{port}/v1"
        return self.url

    async def stop(self, grace_s: float | None = None) -> None:
        """Refuse new work (503), let replies in flight finish for up to ``grace_s``, then cut them (and answer
        those still waiting 503) and close."""
        if self._server is None:
            return
        self.state.draining = True
        grace = self.config.grace_s if grace_s is None else grace_s
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while self.state.jobs and loop.time() < deadline:
            await asyncio.sleep(0.02)
        for job in list(self.state.jobs):
            job.cut_short(SHUTDOWN)  # past the grace period: end within a step, the client gets what was made
        deadline = loop.time() + 5.0
        while self.state.jobs and loop.time() < deadline:
            await asyncio.sleep(0.02)
        self._server.should_exit = True
        with contextlib.suppress(Exception):
            if self._task is not None:
                await self._task
        self._server = None
        self._task = None
        self.url = None

    def abort(self) -> None:
        """Close now, without awaiting (the window is closing): replies stop within a step, the listener
        and every connection close, and uvicorn's task is cancelled."""
        if self._server is None:
            return
        self.state.draining = True
        for job in list(self.state.jobs):
            job.cut_short(SHUTDOWN)
        for listener in getattr(self._server, "servers", []):
            listener.close()
        for connection in list(self._server.server_state.connections):
            transport = getattr(connection, "transport", None)
            if transport is not None:
                transport.close()
        if self._task is not None:
            self._task.cancel()
        self._server = None
        self._task = None
        self.url = None
