"""ToolHub: the MCP servers of ``mcp.json``, connected with the official ``mcp`` SDK, on a thread of their own.

The hub owns one thread running an asyncio loop; each server is one task there that holds its SDK context
managers (stdio process or HTTP session) for its whole life and serves calls from a queue one at a time.
Callers on any thread (the window's GUI thread, a terminal command) get ``concurrent.futures.Future``\\ s, so
nothing ever blocks on a server: a hung tool ends in a timeout, a crashed server in an error result.

What the model gets back is always a :class:`ToolResult` — a tool error, a timeout, a crash, arguments
that do not match the schema, malformed content are results with ``is_error`` set, never exceptions.
:meth:`close` ends every stdio server. The log names servers and tools, never ``env`` / ``headers`` values.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import math
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import anyio

from eagle_chat.core.tools.config import ServerConfig
from eagle_chat.core.tools.results import MAX_RESULT_CHARS, ToolResult, argument_problem, content_text, truncated

log = logging.getLogger(__name__)

START_TIMEOUT_S = 30.0
CALL_TIMEOUT_S = 60.0
# The SDK's default bound on one SSE event is 1 MiB; a tool that returns a few megabytes is cut by us instead
MAX_SSE_EVENT_BYTES = 64 * 1024 * 1024


@dataclass
class ServerState:
    """What is known about one server: ``status`` is starting, ready, failed, disabled or closed."""

    config: ServerConfig
    status: str = "starting"
    error: str = ""
    tools: list[dict[str, Any]] = field(default_factory=list)  # name, description, input_schema

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.config.name, "transport": self.config.transport, "where": self.config.describe(),
                "status": self.status, "error": self.error, "auto_approve": sorted(self.config.auto_approve),
                "tools": self.tools}


class ToolHub:
    def __init__(self, servers: list[ServerConfig], *, start_timeout: float = START_TIMEOUT_S,
                 call_timeout: float = CALL_TIMEOUT_S, max_result_chars: int = MAX_RESULT_CHARS,
                 stderr_dir: Path | None = None):
        self.start_timeout = start_timeout
        self.call_timeout = call_timeout
        self.max_result_chars = max_result_chars
        self._stderr_dir = stderr_dir
        self._states = {s.name: ServerState(s, status="disabled" if s.disabled else "starting") for s in servers}
        self._queues: dict[str, asyncio.Queue] = {}
        self._tasks: list[asyncio.Task] = []
        self._scopes: dict[str, anyio.CancelScope] = {}
        self._closing = False
        self._stopped = asyncio.Event()  # bound to the hub's loop on first use (Python 3.10+)
        self._current: dict[str, tuple] = {}  # server -> the call in flight
        self._started = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="MCP servers", daemon=True)
        self._lock = threading.Lock()

    # -- the caller's side (any thread) -------------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def wait_started(self, timeout: float | None = None) -> bool:
        """True once every enabled server is ready or failed."""
        return self._started.wait(timeout)

    def states(self) -> list[ServerState]:
        with self._lock:
            return list(self._states.values())

    def auto_approved(self, server: str, tool: str) -> bool:
        state = self._states.get(server)
        return state is not None and tool in state.config.auto_approve

    def call(self, server: str, tool: str, arguments: Any) -> concurrent.futures.Future[ToolResult]:
        """The tool's result, later; never raises into the future (errors are results)."""
        future: concurrent.futures.Future[ToolResult] = concurrent.futures.Future()
        if not self._thread.is_alive():
            future.set_result(ToolResult(server, tool, "The tools are not running.", is_error=True))
            return future
        self._loop.call_soon_threadsafe(self._submit, server, tool, arguments, future)
        return future

    def close(self, timeout: float = 10.0) -> None:
        """End every server (stdio processes included) and the thread."""
        if not self._thread.is_alive():
            return
        self._loop.call_soon_threadsafe(self._stop_all)
        self._thread.join(timeout)

    # -- the hub's thread ---------------------------------------------------------------------------------
    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        finally:
            self._loop.close()

    async def _main(self) -> None:
        if self._closing:
            return
        enabled = [s for s in self._states.values() if s.status != "disabled"]
        ready = [asyncio.Event() for _ in enabled]
        for state, event in zip(enabled, ready):
            self._queues[state.config.name] = asyncio.Queue()
            self._tasks.append(asyncio.create_task(self._serve(state, event), name=f"mcp:{state.config.name}"))
        self._watcher = asyncio.create_task(self._all_ready(ready))
        await self._stopped.wait()  # calls to failed servers are still answered (with errors) until close()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _all_ready(self, events: list[asyncio.Event]) -> None:
        await asyncio.gather(*(e.wait() for e in events))
        self._started.set()

    def _stop_all(self) -> None:
        """Cancel every server's scope: a call in flight (a hung tool) must not hold the close up."""
        self._closing = True
        self._stopped.set()
        for scope in self._scopes.values():
            scope.cancel()

    def _submit(self, server: str, tool: str, arguments: Any, future: concurrent.futures.Future) -> None:
        state, queue = self._states.get(server), self._queues.get(server)
        if state is None or queue is None or state.status != "ready":
            why = state.error if state is not None and state.error else "not available"
            future.set_result(ToolResult(server, tool, f"The tool server {server!r} is {why}.", is_error=True))
            return
        queue.put_nowait((tool, arguments, future))

    def _set(self, state: ServerState, **fields: Any) -> None:
        with self._lock:
            for key, value in fields.items():
                setattr(state, key, value)

    async def _serve(self, state: ServerState, ready: asyncio.Event) -> None:
        name = state.config.name
        queue = self._queues[name]
        log.info("MCP server %s: starting (%s)", name, state.config.describe())
        try:
            # close() cancels this scope: anyio's cancellation, which the SDK's own scopes inside expect
            # (an asyncio Task.cancel() leaves them exited out of order)
            # its deadline bounds the start (lifted once the tools are listed): a timeout around the connection
            # alone would be left while the SDK's task groups entered inside it are still open
            with anyio.CancelScope(deadline=anyio.current_time() + self.start_timeout) as self._scopes[name]:
                await self._session_life(state, ready, queue)
            if state.status == "ready" or self._closing:
                self._set(state, status="closed")
                log.info("MCP server %s: closed", name)
            else:
                self._set(state, status="failed", error=f"it did not start within {self.start_timeout:.0f} s")
                log.warning("MCP server %s: did not start within %.0f s", name, self.start_timeout)
        except BaseException as error:  # noqa: BLE001 - the SDK raises groups, timeouts, OSError, MCPError
            reason = _reason(error)
            log.warning("MCP server %s: %s", name, reason)
            self._set(state, status="failed", error=reason)
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
        finally:
            ready.set()
            job = self._current.pop(name, None)
            if job is not None and not job[2].done():
                job[2].set_result(ToolResult(name, job[0], f"The tool server stopped during the call ({state.status}).",
                                             is_error=True))
            while not queue.empty():
                pending = queue.get_nowait()
                if pending is not None:
                    pending[2].set_result(ToolResult(name, pending[0], "The tool server is not running.",
                                                     is_error=True))

    async def _session_life(self, state: ServerState, ready: asyncio.Event, queue: asyncio.Queue) -> None:
        name = state.config.name
        async with contextlib.AsyncExitStack() as stack:
            session = await self._connect(state.config, stack)
            listed = await session.list_tools()
            self._scopes[name].deadline = math.inf
            tools = [{"name": t.name, "description": t.description or "", "input_schema": t.input_schema}
                     for t in listed.tools]
            self._set(state, status="ready", tools=tools)
            log.info("MCP server %s: ready, %d tools", name, len(tools))
            ready.set()
            while (job := await queue.get()) is not None:
                self._current[name] = job
                job[2].set_result(await self._call(session, state, *job[:2]))
                del self._current[name]

    async def _connect(self, config: ServerConfig, stack: contextlib.AsyncExitStack):
        from mcp import ClientSession

        if config.command:
            from mcp import StdioServerParameters
            from mcp.client.stdio import stdio_client

            params = StdioServerParameters(command=config.command, args=list(config.args), env=config.env or None)
            read, write = await stack.enter_async_context(stdio_client(params, errlog=self._errlog(config, stack)))
        else:
            from mcp.client.streamable_http import streamable_http_client
            from mcp.shared._httpx_utils import create_mcp_http_client

            http = await stack.enter_async_context(create_mcp_http_client(headers=config.headers or None))
            read, write = await stack.enter_async_context(
                streamable_http_client(config.url, http_client=http, max_sse_event_size=MAX_SSE_EVENT_BYTES))
        session = await stack.enter_async_context(ClientSession(read, write))
        await session.initialize()
        return session

    def _errlog(self, config: ServerConfig, stack: contextlib.ExitStack | Any) -> TextIO:
        """A stdio server's stderr: a file per server beside the app's log (it is the server's own output)."""
        if self._stderr_dir is None:
            return stack.enter_context(open(os.devnull, "w"))
        self._stderr_dir.mkdir(parents=True, exist_ok=True)
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in config.name)
        return stack.enter_context(open(self._stderr_dir / f"mcp-{safe}.log", "a", encoding="utf-8"))

    async def _call(self, session, state: ServerState, tool: str, arguments: Any) -> ToolResult:
        name = state.config.name
        started = time.monotonic()
        spec = next((t for t in state.tools if t["name"] == tool), None)
        if spec is None:
            return ToolResult(name, tool, f"There is no tool {tool!r} on {name!r}.", is_error=True)
        problem = argument_problem(spec["input_schema"], arguments)
        if problem:
            log.info("MCP %s.%s: arguments do not match the schema", name, tool)
            return ToolResult(name, tool, f"Invalid arguments: {problem}", is_error=True)
        try:
            with anyio.fail_after(self.call_timeout):
                result = await session.call_tool(tool, arguments)
        except TimeoutError:
            log.warning("MCP %s.%s: no answer in %.0f s", name, tool, self.call_timeout)
            return ToolResult(name, tool, f"The tool did not answer within {self.call_timeout:.0f} s.",
                              is_error=True, seconds=time.monotonic() - started)
        except Exception as error:  # noqa: BLE001 - malformed replies, a closed connection, MCP errors
            reason = _reason(error)
            log.warning("MCP %s.%s: %s", name, tool, reason)
            return ToolResult(name, tool, f"The tool call failed: {reason}", is_error=True,
                              seconds=time.monotonic() - started)
        text, before = truncated(content_text(result), self.max_result_chars)
        seconds = time.monotonic() - started
        log.info("MCP %s.%s: %s in %.2f s, %d characters%s", name, tool,
                 "error" if result.is_error else "done", seconds, before or len(text), " (truncated)" if before else "")
        return ToolResult(name, tool, text, is_error=bool(result.is_error), seconds=seconds, truncated_from=before)


def _reason(error: BaseException) -> str:
    """One line for the log and the model: the innermost error of an exception group, its type and message."""
    while group := getattr(error, "exceptions", None):  # an (anyio) exception group: the first real cause
        error = group[0]
    if isinstance(error, (asyncio.TimeoutError, TimeoutError)):
        return "it did not answer in time"
    text = str(error).splitlines()[0][:300] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
