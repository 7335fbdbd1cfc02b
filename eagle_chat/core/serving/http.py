"""The Starlette app: routes, the guards in front of them, and the way a job's events become a response.

Guards (``guards``), outermost first: the Host and Origin allowlists, CORS (only when origins are listed),
then the bearer key and JSON as the only POST body type. Bodies are read up to ``max_body_bytes``; a client
that hangs up mid-body (or is cut off by the body timeout, see ``timeouts``) is one line in the request log.
A streamed reply sends its headers once the engine has started it, so a request refused by the engine still
gets a proper status; a client that disconnects, or a ``stop`` sequence that matches, sets the job's stop
event and the engine ends within a decoding step. A reply the server cuts short (shutdown, the window's
Stop) finishes with "length" and says why in ``eagle_chat.cut``; a failure's HTTP status comes from its
kind (``backend.FAILURES``), never from its English sentence.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from eagle_chat.core.serving import responses as out
from eagle_chat.core.serving.backend import CRASHED, FAULT, SHUTDOWN, STOPPED, UNAVAILABLE, Backend, Event, Job
from eagle_chat.core.serving.errors import (
    ApiError, internal_error, invalid, not_ready, public_message, shutting_down, unavailable,
)
from eagle_chat.core.serving.guards import LOOPBACK_NAMES, AccessGuard, CallerGuard, send_error
from eagle_chat.core.serving.records import RequestRecord
from eagle_chat.core.serving.reply_text import ReplyText
from eagle_chat.core.serving.requests import CompletionRequest, Limits, parse_chat, parse_completion
from eagle_chat.core.serving.tool_fields import output_error
from eagle_chat.core.serving.timeouts import TIMED_OUT

__all__ = ["LOOPBACK_NAMES", "ApiState", "HttpOptions", "build_app"]

DEFAULT_MAX_BODY_BYTES = 4 << 20


@dataclass(frozen=True)
class HttpOptions:
    api_key: str | None = field(default=None, repr=False)
    allowed_hosts: tuple[str, ...] = ()  # besides the loopback names; "*" allows any Host
    cors_origins: tuple[str, ...] = ()
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    limits: Limits = Limits()


class ClientGone(Exception):
    """The client hung up before its body had all arrived, or was cut off by the body timeout."""


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

    def refused(scope, error: ApiError) -> None:
        state.record(method=scope["method"], endpoint=scope["path"], client=_client(scope), stream=False,
                     status=error.status, outcome=error.code or error.type)

    middleware = [Middleware(CallerGuard, allowed_hosts=options.allowed_hosts, cors_origins=options.cors_origins,
                             on_refused=refused)]
    if options.cors_origins:
        middleware.append(Middleware(CORSMiddleware, allow_origins=list(options.cors_origins),
                                     allow_methods=["GET", "POST"], allow_headers=["authorization", "content-type"]))
    middleware.append(Middleware(AccessGuard, api_key=options.api_key, on_refused=refused))
    routes = [
        Route("/v1/models", api.models, methods=["GET"]),
        Route("/v1/models/{model_id:path}", api.model, methods=["GET"]),
        Route("/v1/chat/completions", api.chat, methods=["POST"]),
        Route("/v1/completions", api.text, methods=["POST"]),
        Route("/health", api.health, methods=["GET"]),
    ]
    handlers = {ApiError: api.refused, HTTPException: api.http_error, ClientGone: api.gone, Exception: api.failed}
    return Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)


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

    async def gone(self, request: Request, error: ClientGone) -> Response:
        """One line in the request log, no traceback: 408 if the body timeout cut it off, else 499 (nginx's
        "client closed request"). Nobody hears the response."""
        timed_out = request.scope.get("state", {}).get(TIMED_OUT)
        self.state.record(method=request.method, endpoint=request.url.path, client=_client(request.scope),
                          stream=False, status=408 if timed_out else 499,
                          outcome="body_timeout" if timed_out else "disconnected_mid_body")
        return Response(status_code=408 if timed_out else 400)

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
        if req.batch:
            return await self._batch(request, req, model)
        run = self._submit(request, req, model)
        if req.stream:
            return run
        return _json(await run.collect())

    def _submit(self, request: Request, req: CompletionRequest, model) -> "_Run":
        settings = req.settings(self.backend.default_settings(), model.has_draft, model.draft_reduced_vocab)
        prompt = [dict(m) for m in req.prompt] if req.kind == "chat" else req.prompt
        job = Job(prompt, settings, label=request.url.path)
        self.backend.submit(job)
        return _Run(request, req, job, self.state, model)

    async def _batch(self, request: Request, req: CompletionRequest, model) -> Response:
        """A list of prompts (LangChain's ``OpenAI.batch`` sends one): each a job of its own, in turn, so the
        queue stays fair; one choice per prompt, in order. A refusal of any is the response; a client that
        hangs up stops the rest."""
        bodies = []
        for prompt in req.batch:
            run = self._submit(request, replace(req, prompt=prompt, batch=()), model)
            body = await run.collect()
            if isinstance(body, Response) or run.disconnected:
                return body if isinstance(body, Response) else Response(status_code=400)
            bodies.append(body)
        return _json(out.batched(bodies))


class _Run(Response):
    """One job's way from the queue to the client, streamed (an ASGI app itself) or collected."""

    def __init__(self, request: Request, req: CompletionRequest, job: Job, state: ApiState, model=None):
        self.request, self.req, self.job, self.state, self.model = request, req, job, state, model
        self.reply = out.ReplyIdentity.new(req.kind, req.model)
        self.text = ReplyText(req)  # reasoning, tool calls, stop sequences (see reply_text)
        self.disconnected = False
        state.jobs.add(job)

    def _feed(self, text: str):
        piece = self.text.feed(text)
        if self.text.ended:  # a stop sequence, or the one call a request without parallel calls may make
            self.job.stop.set()
        return piece

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
                error = _engine_error(event, self.job)
                await send_error(send, error)
                return self._log(error.status, error.code)
            if first:
                await send({"type": "http.response.start", "status": 200, "headers": out.SSE_HEADERS})
            if event.kind == "failed":
                payload = out.sse({"error": _engine_error(event, self.job).body()["error"]}) + out.SSE_DONE
                await send({"type": "http.response.body", "body": payload, "more_body": False})
                return self._log(200, "failed")
            if event.kind == "chunk":
                piece = self._feed(event.text)
                if first or piece.reasoning or piece.content or piece.calls:
                    payload = self._chunk(piece, first)
                    if self.req.continuous_usage:
                        payload["usage"] = {"completion_tokens": event.tokens}
                    await send({"type": "http.response.body", "more_body": True, "body": out.sse(payload)})
                first = False
                continue
            piece = self.text.finish()
            stats, finish = event.result.stats, self._finish_reason(event)
            more = self._extras(stats, finish)
            payload = out.sse(self._chunk(piece, first)) if (first or piece.reasoning or piece.content or piece.calls) else b""
            if (problem := self._output_error(finish)) is not None:  # the output fails its schema: say so, not "stop"
                payload += out.sse({"error": problem.body()["error"]}) + out.SSE_DONE
                await send({"type": "http.response.body", "body": payload, "more_body": False})
                return self._log(200, "invalid_output", stats)
            payload += out.sse({**out.chunk(self.reply, finish=finish), **more})
            if self.req.include_usage:
                payload += out.sse(out.usage_chunk(self.reply, stats, more))
            await send({"type": "http.response.body", "body": payload + out.SSE_DONE, "more_body": False})
            return self._log(200, finish, stats)

    def _chunk(self, piece, first: bool) -> dict:
        if self.req.kind != "chat":
            return out.chunk(self.reply, content=piece.content)
        content = piece.content if piece.content or (first and not piece.reasoning and not piece.calls) else None
        return out.chunk(self.reply, reasoning=piece.reasoning, role=first, content=content, tool_calls=piece.calls)

    async def _watch(self, receive) -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                self.job.stop.set()
                return

    # --- collected -----------------------------------------------------------------------------------
    async def collect(self) -> dict | Response:
        """The whole response's body, or the error response if the engine refused or failed the job."""
        watcher = asyncio.ensure_future(self._watch(self.request.receive))
        try:
            while True:
                event = await self.job.next_event()
                if event.kind == "chunk":
                    self._feed(event.text)
                elif event.kind == "failed":
                    error = _engine_error(event, self.job)
                    self._log(error.status, error.code)
                    return _error_response(error)
                elif event.kind == "finished":
                    break
        finally:
            watcher.cancel()
            self._done()
        self.text.finish()
        stats, finish = event.result.stats, self._finish_reason(event)
        if (problem := self._output_error(finish)) is not None:
            self._log(problem.status, problem.code, stats)
            return _error_response(problem)
        reasoning = "".join(self.text.reasoning) if self.text.has_thinking else None
        body = out.completion(self.reply, content="".join(self.text.content), reasoning=reasoning, finish=finish,
                              stats=stats, more=self._extras(stats, finish), tool_calls=self.text.calls)
        self._log(200, finish, stats)
        return body

    # --- book-keeping --------------------------------------------------------------------------------
    def _finish_reason(self, event: Event) -> str:
        finish = out.finish_reason(event.result.stats, self.req.max_tokens, self.text.ended, self._cut(event.result.stats))
        return "tool_calls" if finish == "stop" and self.text.calls else finish

    def _output_error(self, finish: str) -> ApiError | None:
        """A JSON response_format whose output, ended by the model, is not JSON or fails its schema."""
        if not self.req.tool_use.json_output or finish != "stop":
            return None
        return output_error("".join(self.text.content), self.req.tool_use.schema)

    def _cut(self, stats) -> str | None:
        """Why the server ended this reply early, if it did: "shutdown" (its deadline) or "stopped" (the window's
        Stop). A stop sequence, the model's end or max_tokens is no cut."""
        if not stats.stopped or self.text.ended:
            return None
        return self.job.cut or "stopped"

    def _extras(self, stats, finish: str) -> dict:
        use = self.req.tool_use
        output = None
        if self.req.kind == "chat" and self.model is not None:
            valid = None if not use.json_output or finish != "stop" else self._output_error(finish) is None
            output = out.output_figures(use.constraint.name if use.constraint else None, self.model, stats,
                                        tool_call_errors=self.text.call_errors(), schema_valid=valid)
        return out.extras(stats, queue_ms=self.job.queue_ms, sampling_ignored=self.req.sampling_ignored,
                          cut=self._cut(stats), output=output)

    def _done(self) -> None:
        if not self.job.ended:
            self.job.stop.set()  # cancelled or disconnected: end the engine's work on it
        self.state.jobs.discard(self.job)

    def _log(self, status: int, outcome: str, stats=None) -> None:
        if self.disconnected:
            outcome = "disconnected"
        elif stats is not None and (cut := self._cut(stats)):
            outcome = "cut_by_shutdown" if cut == SHUTDOWN else "stopped"
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
    try:
        async for part in request.stream():
            body += part
            if len(body) > limit:
                raise too_large
    except ClientDisconnect:
        raise ClientGone() from None
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise invalid(f"We could not parse the JSON body of your request: {error}.", code="invalid_json") from None
    except RecursionError:  # nested deeper than the interpreter's stack; check_tree refuses past 32 levels
        raise invalid("The request body nests objects and lists too deeply to parse.", code="nested_too_deep") from None


def _engine_error(event: Event, job: Job) -> ApiError:
    """The API's answer to a failed reply, from why it failed (never from its English sentence)."""
    if event.failure == FAULT:
        return ApiError(500, public_message(event.text), type="server_error", code="generation_failed")
    if event.failure == CRASHED:  # the engine host died mid-reply; it restarts, the next request runs
        return ApiError(500, public_message(event.text), type="server_error", code="engine_crashed")
    if event.failure == STOPPED and job.cut == SHUTDOWN:
        return shutting_down("The server is shutting down and stopped this request before it started; retry it.")
    if event.failure in (STOPPED, UNAVAILABLE):
        return unavailable(event.text)
    return ApiError(400, event.text, code="generation_refused")


def _json(body: dict | Response) -> Response:
    return body if isinstance(body, Response) else Response(out.dumps(body), media_type="application/json")


def _error_response(error: ApiError) -> Response:
    return Response(error.json_bytes(), status_code=error.status, media_type="application/json",
                    headers=error.headers)


def _client(scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "?"
