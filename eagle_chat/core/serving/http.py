"""The Starlette app: routes, the guards in front of them, and the way a job's events become a response.

Guards, outermost first: CORS (only when origins are listed), then the Host-header allowlist (a web page
on a rebound DNS name cannot reach a loopback server), then the bearer key (``hmac.compare_digest``).
Bodies are read up to ``max_body_bytes``. A streamed reply sends its headers once the engine has started
it, so a request refused by the engine still gets a proper status; a client that disconnects, or a
``stop`` sequence that matches, sets the job's stop event and the engine ends within a decoding step.
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from eagle_chat.core.generation.reasoning import ReasoningSplitter
from eagle_chat.core.serving import responses as out
from eagle_chat.core.serving.backend import Backend, Event, Job
from eagle_chat.core.serving.errors import (
    ApiError, internal_error, invalid, not_ready, public_message, shutting_down, unauthorized,
)
from eagle_chat.core.serving.records import RequestRecord
from eagle_chat.core.serving.requests import CompletionRequest, Limits, parse_chat, parse_completion
from eagle_chat.core.serving.stops import StopScanner

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
DEFAULT_MAX_BODY_BYTES = 4 << 20


@dataclass(frozen=True)
class HttpOptions:
    api_key: str | None = field(default=None, repr=False)
    allowed_hosts: tuple[str, ...] = ()  # besides the loopback names; "*" allows any Host
    cors_origins: tuple[str, ...] = ()
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    limits: Limits = Limits()


class ApiState:
    """What the handlers and the server share: the jobs in flight, draining, the request log."""

    def __init__(self, on_record: Callable[[RequestRecord], None] | None = None):
        self.draining = False
        self.jobs: set[Job] = set()
        self.on_record = on_record
        self._numbers = itertools.count(1)

    def record(self, **fields) -> None:
        if self.on_record is not None:
            self.on_record(RequestRecord(number=next(self._numbers), **fields))


def build_app(options: HttpOptions, backend: Backend, state: ApiState) -> Starlette:
    api = _Api(options, backend, state)
    middleware = []
    if options.cors_origins:
        middleware.append(Middleware(CORSMiddleware, allow_origins=list(options.cors_origins),
                                     allow_methods=["GET", "POST"], allow_headers=["authorization", "content-type"]))
    middleware.append(Middleware(_Guard, options=options, state=state))
    routes = [
        Route("/v1/models", api.models, methods=["GET"]),
        Route("/v1/models/{model_id:path}", api.model, methods=["GET"]),
        Route("/v1/chat/completions", api.chat, methods=["POST"]),
        Route("/v1/completions", api.text, methods=["POST"]),
        Route("/health", api.health, methods=["GET"]),
    ]
    handlers = {ApiError: api.refused, HTTPException: api.http_error, Exception: api.failed}
    return Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)


def host_name(value: str) -> str:
    """The name in a Host header, without the port (``[::1]:8000`` → ``::1``)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class _Guard:
    """Host allowlist, then the API key. Answers refusals itself, in OpenAI's error shape."""

    def __init__(self, app, *, options: HttpOptions, state: ApiState):
        self.app = app
        self.state = state
        self.any_host = "*" in options.allowed_hosts
        self.hosts = {h.lower() for h in (*LOOPBACK_NAMES, *options.allowed_hosts)}
        self.key = options.api_key.encode("utf-8") if options.api_key else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        error = None
        if not self.any_host and host_name(headers.get("host", "")) not in self.hosts:
            error = ApiError(400, "The Host header names a host this server does not answer to (DNS rebinding "
                             "guard); add it with --allowed-host if it is yours.", code="invalid_host")
        elif self.key is not None and scope["path"] != "/health":
            scheme, _, token = headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode("utf-8"), self.key):
                error = unauthorized()
        if error is None:
            return await self.app(scope, receive, send)
        await _send_error(send, error)
        self.state.record(method=scope["method"], endpoint=scope["path"], client=_client(scope), stream=False,
                          status=error.status, outcome=error.code or error.type)


class _Api:
    def __init__(self, options: HttpOptions, backend: Backend, state: ApiState):
        self.options, self.backend, self.state = options, backend, state

    async def health(self, request: Request) -> Response:
        ready = self.backend.served_model() is not None and not self.state.draining
        return JSONResponse({"status": "ok" if ready else "unavailable", **self.backend.load()},
                            status_code=200 if ready else 503)

    async def models(self, request: Request) -> Response:
        return JSONResponse(out.models_list(self.backend.served_model()))

    async def model(self, request: Request) -> Response:
        model = self.backend.served_model()
        if model is None or request.path_params["model_id"] != model.id:
            raise ApiError(404, f"The model '{request.path_params['model_id']}' does not exist here.",
                           param="model", code="model_not_found")
        return JSONResponse(out.models_list(model)["data"][0])

    async def chat(self, request: Request) -> Response:
        return await self._complete(request, parse_chat)

    async def text(self, request: Request) -> Response:
        return await self._complete(request, parse_completion)

    async def refused(self, request: Request, error: ApiError) -> Response:
        self.state.record(method=request.method, endpoint=request.url.path, client=_client(request.scope),
                          stream=False, status=error.status, outcome=error.code or error.type)
        return _error_response(error)

    async def failed(self, request: Request, error: Exception) -> Response:
        """The last resort (Starlette's ServerErrorMiddleware): OpenAI's shape, no details; the traceback
        goes to the log, as Starlette re-raises the error after this response."""
        return await self.refused(request, internal_error())

    async def http_error(self, request: Request, error: HTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        message = {404: f"No route {request.url.path}; this server has /v1/models, /v1/chat/completions and "
                        "/v1/completions.",
                   405: f"{request.method} is not allowed on {request.url.path}."}.get(error.status_code, error.detail)
        return await self.refused(request, ApiError(error.status_code, message, code=code))

    async def _complete(self, request: Request, parse) -> Response:
        body = await _read_json(request, self.options.max_body_bytes)
        if self.state.draining:
            raise shutting_down()
        model = self.backend.served_model()
        if model is None:
            raise not_ready("No model is loaded yet; try again when GET /health says ok.")
        req = parse(body, model, self.options.limits)
        settings = req.settings(self.backend.default_settings(), model.has_draft)
        prompt = [dict(m) for m in req.prompt] if req.kind == "chat" else req.prompt
        job = Job(prompt, settings, label=request.url.path)
        self.backend.submit(job)
        run = _Run(request, req, job, self.state)
        if req.stream:
            return run
        return await run.collect()


class _Run(Response):
    """One job's way from the queue to the client, streamed (an ASGI app itself) or collected."""

    def __init__(self, request: Request, req: CompletionRequest, job: Job, state: ApiState):
        self.request, self.req, self.job, self.state = request, req, job, state
        self.reply = out.ReplyIdentity.new(req.kind, req.model)
        self.stops = StopScanner(req.stop)
        self.splitter = ReasoningSplitter() if req.kind == "chat" else None
        self.reasoning: list[str] = []
        self.content: list[str] = []
        self.disconnected = False
        state.jobs.add(job)

    # --- text ----------------------------------------------------------------------------------------
    # ``stop`` applies to the answer only: the text is split into reasoning and answer first, then the answer
    # is scanned (a stop string inside <think> must not end the reply before its answer).
    def _feed(self, text: str) -> tuple[str, str]:
        if self.stops.hit:
            return self._split(("", ""))
        reasoning, content = self.splitter.feed(text) if self.splitter else ("", text)
        passed = self.stops.feed(content)
        if self.stops.hit:
            self.job.stop.set()
        return self._split((reasoning, passed))

    def _finish_text(self) -> tuple[str, str]:
        reasoning, content = self.splitter.finish() if self.splitter and not self.stops.hit else ("", "")
        return self._split((reasoning, self.stops.feed(content) + self.stops.finish()))

    def _split(self, pair: tuple[str, str]) -> tuple[str, str]:
        self.reasoning.append(pair[0])
        self.content.append(pair[1])
        return pair

    # --- streamed ------------------------------------------------------------------------------------
    async def __call__(self, scope, receive, send) -> None:
        watcher = asyncio.ensure_future(self._watch(receive))
        try:
            await self._stream(send)
        finally:
            watcher.cancel()
            self._done()

    async def _stream(self, send) -> None:
        first = True
        while True:
            event = await self.job.next_event()
            if event.kind == "started":
                continue
            if event.kind == "failed" and first:
                await _send_error(send, _engine_error(event))
                return self._log(_engine_error(event).status, "failed")
            if first:
                await send({"type": "http.response.start", "status": 200, "headers": out.SSE_HEADERS})
            if event.kind == "failed":
                payload = out.sse({"error": _engine_error(event).body()["error"]}) + out.SSE_DONE
                await send({"type": "http.response.body", "body": payload, "more_body": False})
                return self._log(200, "failed")
            if event.kind == "chunk":
                reasoning, content = self._feed(event.text)
                if first or reasoning or content:
                    payload = self._chunk(reasoning, content, first)
                    if self.req.continuous_usage:
                        payload["usage"] = {"completion_tokens": event.tokens}
                    await send({"type": "http.response.body", "more_body": True, "body": out.sse(payload)})
                first = False
                continue
            reasoning, content = self._finish_text()
            stats, finish = event.result.stats, self._finish_reason(event)
            more = out.extras(stats, queue_ms=self.job.queue_ms, sampling_ignored=self.req.sampling_ignored)
            payload = out.sse(self._chunk(reasoning, content, first)) if (first or reasoning or content) else b""
            payload += out.sse({**out.chunk(self.reply, finish=finish), **more})
            if self.req.include_usage:
                payload += out.sse(out.usage_chunk(self.reply, stats, more))
            await send({"type": "http.response.body", "body": payload + out.SSE_DONE, "more_body": False})
            return self._log(200, finish, stats)

    def _chunk(self, reasoning: str, content: str, first: bool) -> dict:
        if self.req.kind != "chat":
            return out.chunk(self.reply, content=content)
        return out.chunk(self.reply, reasoning=reasoning, role=first,
                         content=content if content or (first and not reasoning) else None)

    async def _watch(self, receive) -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                self.job.stop.set()
                return

    # --- collected -----------------------------------------------------------------------------------
    async def collect(self) -> Response:
        watcher = asyncio.ensure_future(self._watch(self.request.receive))
        try:
            while True:
                event = await self.job.next_event()
                if event.kind == "chunk":
                    self._feed(event.text)
                elif event.kind == "failed":
                    self._log(_engine_error(event).status, "failed")
                    return _error_response(_engine_error(event))
                elif event.kind == "finished":
                    break
        finally:
            watcher.cancel()
            self._done()
        self._finish_text()
        stats, finish = event.result.stats, self._finish_reason(event)
        reasoning = "".join(self.reasoning) if self.splitter and self.splitter.result().has_thinking else None
        body = out.completion(self.reply, content="".join(self.content), reasoning=reasoning, finish=finish,
                              stats=stats, more=out.extras(stats, queue_ms=self.job.queue_ms,
                                                           sampling_ignored=self.req.sampling_ignored))
        self._log(200, finish, stats)
        return Response(out.dumps(body), media_type="application/json")

    # --- book-keeping --------------------------------------------------------------------------------
    def _finish_reason(self, event: Event) -> str:
        return out.finish_reason(event.result.stats, self.req.max_tokens, self.stops.hit)

    def _done(self) -> None:
        if not self.job.ended:
            self.job.stop.set()  # cancelled or disconnected: end the engine's work on it
        self.state.jobs.discard(self.job)

    def _log(self, status: int, outcome: str, stats=None) -> None:
        if self.disconnected:
            outcome = "disconnected"
        elif stats is not None and stats.stopped and not self.stops.hit:
            outcome = "stopped"
        fields = dict(method="POST", endpoint=self.request.url.path, client=_client(self.request.scope), stream=self.req.stream,
                      status=status, outcome=outcome, queue_ms=self.job.queue_ms,
                      total_ms=(time.perf_counter() - self.job.created) * 1000.0)
        if stats is not None:
            fields.update(prompt_tokens=stats.input_tokens, completion_tokens=stats.generated_tokens,
                          tokens_per_s=stats.tokens_per_s, mode=stats.mode, accepted_tokens=stats.accepted_tokens,
                          draft_tokens=stats.draft_tokens)
        self.state.record(**fields)


async def _read_json(request: Request, limit: int):
    too_large = ApiError(413, f"The request body is larger than this server's limit of {limit} bytes.",
                         code="request_too_large")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise too_large
    body = bytearray()
    async for part in request.stream():
        body += part
        if len(body) > limit:
            raise too_large
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise invalid(f"We could not parse the JSON body of your request: {error}.", code="invalid_json") from None
    except RecursionError:  # nested deeper than the interpreter's stack; check_tree refuses past 32 levels
        raise invalid("The request body nests objects and lists too deeply to parse.", code="nested_too_deep") from None


def _engine_error(event: Event) -> ApiError:
    if event.status >= 500:
        return ApiError(event.status, public_message(event.text), type="server_error", code="generation_failed")
    return ApiError(event.status, event.text, code="generation_refused")


def _error_response(error: ApiError) -> Response:
    return Response(error.json_bytes(), status_code=error.status, media_type="application/json",
                    headers=error.headers)


async def _send_error(send, error: ApiError) -> None:
    headers = [(b"content-type", b"application/json")]
    headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in error.headers.items()]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": error.json_bytes()})


def _client(scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "?"
