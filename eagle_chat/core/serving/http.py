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

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from eagle_chat.core.serving import embeddings as embedding_api
from eagle_chat.core.serving import responses as out
from eagle_chat.core.serving.backend import Backend, Job
from eagle_chat.core.serving.errors import ApiError, internal_error, invalid, not_ready, shutting_down
from eagle_chat.core.serving.guards import LOOPBACK_NAMES, AccessGuard, CallerGuard
from eagle_chat.core.serving.records import RequestRecord
from eagle_chat.core.serving.requests import CompletionRequest, Limits, parse_chat, parse_completion
from eagle_chat.core.serving.responses_input import parse_responses
from eagle_chat.core.serving.responses_run import ResponsesRun
from eagle_chat.core.serving.runs import Run, client_name, error_response, json_response
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


def build_app(options: HttpOptions, backend: Backend, state: ApiState,
              embeddings: embedding_api.Embeddings | None = None) -> Starlette:
    api = _Api(options, backend, state, embeddings)

    def refused(scope, error: ApiError) -> None:
        state.record(method=scope["method"], endpoint=scope["path"], client=client_name(scope), stream=False,
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
        Route("/v1/responses", api.responses, methods=["POST"]),
        Route("/v1/embeddings", api.embeddings, methods=["POST"]),
        Route("/health", api.health, methods=["GET"]),
    ]
    handlers: dict[Any, Callable[..., Any]] = {ApiError: api.refused, HTTPException: api.http_error, ClientGone: api.gone, Exception: api.failed}
    return Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)


class _Api:
    def __init__(self, options: HttpOptions, backend: Backend, state: ApiState, embeddings=None):
        self.options, self.backend, self.state = options, backend, state
        self.embedder = embeddings

    async def health(self, request: Request) -> Response:
        ready = self.backend.served_model() is not None and not self.state.draining
        return JSONResponse({"status": "ok" if ready else "unavailable", **self.backend.load()},
                            status_code=200 if ready else 503)

    async def models(self, request: Request) -> Response:
        listed = out.models_list(self.backend.served_model())
        if self.embedder is not None:
            listed["data"].append(embedding_api.model_entry(self.embedder))
        return JSONResponse(listed)

    async def model(self, request: Request) -> Response:
        if self.embedder is not None and request.path_params["model_id"] == self.embedder.id:
            return JSONResponse(embedding_api.model_entry(self.embedder))
        model = self.backend.served_model()
        if model is None or request.path_params["model_id"] != model.id:
            raise ApiError(404, f"The model '{request.path_params['model_id']}' does not exist here.",
                           param="model", code="model_not_found")
        return JSONResponse(out.models_list(model)["data"][0])

    async def chat(self, request: Request) -> Response:
        return await self._complete(request, parse_chat)

    async def text(self, request: Request) -> Response:
        return await self._complete(request, parse_completion)

    async def responses(self, request: Request) -> Response:
        """OpenAI's Responses API, stateless: the body becomes a chat request (``responses_input``) and runs as
        one; the answer is framed as a ``response`` object or its events (``responses_run``)."""
        body = await _read_json(request, self.options.max_body_bytes)
        model = self._model()
        parsed = parse_responses(body, model, self.options.limits)
        settings = parsed.chat.settings(self.backend.default_settings(), model.has_draft, model.draft_reduced_vocab)
        job = Job(parsed.chat.messages, settings, label=request.url.path)
        self.backend.submit(job)
        run = ResponsesRun(request, parsed, job, self.state, model,
                           prefill=getattr(self.backend, "prefill_next_turn", None))
        return run if parsed.chat.stream else json_response(await run.collect())

    async def embeddings(self, request: Request) -> Response:
        """OpenAI's embeddings endpoint, on the embedder's own process (``serve --embedder DIR``)."""
        body = await _read_json(request, self.options.max_body_bytes)
        if self.state.draining:
            raise shutting_down()
        if self.embedder is None:  # 404 like any endpoint a server lacks (a 503 would promise it later)
            raise ApiError(404, "This server has no embedding model; start it with `eagle-chat serve --embedder DIR`.",
                           code="embeddings_not_served")
        parsed = embedding_api.parse_embeddings(body, self.embedder)
        answer = await embedding_api.embed(parsed, self.embedder)
        self.state.record(method=request.method, endpoint=request.url.path, client=client_name(request.scope),
                          stream=False, status=200, outcome="ok", prompt_tokens=answer["usage"]["prompt_tokens"])
        return JSONResponse(answer)

    def _model(self):
        if self.state.draining:
            raise shutting_down()
        model = self.backend.served_model()
        if model is None:
            raise not_ready("No model is loaded yet; try again when GET /health says ok.")
        return model

    async def refused(self, request: Request, error: ApiError) -> Response:
        self.state.record(method=request.method, endpoint=request.url.path, client=client_name(request.scope),
                          stream=False, status=error.status, outcome=error.code or error.type)
        return error_response(error)

    async def gone(self, request: Request, error: ClientGone) -> Response:
        """One line in the request log, no traceback: 408 if the body timeout cut it off, else 499 (nginx's
        "client closed request"). Nobody hears the response."""
        timed_out = request.scope.get("state", {}).get(TIMED_OUT)
        self.state.record(method=request.method, endpoint=request.url.path, client=client_name(request.scope),
                          stream=False, status=408 if timed_out else 499,
                          outcome="body_timeout" if timed_out else "disconnected_mid_body")
        return Response(status_code=408 if timed_out else 400)

    async def failed(self, request: Request, error: Exception) -> Response:
        """The last resort (Starlette's ServerErrorMiddleware): OpenAI's shape, no details; the traceback
        goes to the log, as Starlette re-raises the error after this response."""
        return await self.refused(request, internal_error())

    async def http_error(self, request: Request, error: HTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        message = {404: f"No route {request.url.path}; this server has /v1/models, /v1/chat/completions, "
                        "/v1/completions, /v1/responses and /v1/embeddings.",
                   405: f"{request.method} is not allowed on {request.url.path}."}.get(error.status_code, error.detail)
        return await self.refused(request, ApiError(error.status_code, message, code=code))

    async def _complete(self, request: Request, parse) -> Response:
        body = await _read_json(request, self.options.max_body_bytes)
        model = self._model()
        req = parse(body, model, self.options.limits)
        if req.batch:
            return await self._batch(request, req, model)
        run = self._submit(request, req, model)
        if req.stream:
            return run
        return json_response(await run.collect())

    def _submit(self, request: Request, req: CompletionRequest, model) -> Run:
        settings = req.settings(self.backend.default_settings(), model.has_draft, model.draft_reduced_vocab)
        prompt = req.messages if req.kind == "chat" else req.prompt
        job = Job(prompt, settings, label=request.url.path)
        self.backend.submit(job)
        return Run(request, req, job, self.state, model, prefill=getattr(self.backend, "prefill_next_turn", None))

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
        return json_response(out.batched(bodies))


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
