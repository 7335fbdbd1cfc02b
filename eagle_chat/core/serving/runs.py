"""A job's way from the queue to the client: the chat and text completions' responses, streamed or whole.

:class:`Run` reads a job's events, puts the reply's text through :class:`~eagle_chat.core.serving.reply_text.ReplyText`
(reasoning, tool calls, stop sequences) and answers in OpenAI's chat/text completion shapes; the Responses API's
run (``responses_run``) reads the same events through the same ReplyText and answers in its own shapes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.serving import responses as out
from eagle_chat.core.serving.backend import CRASHED, FAULT, SHUTDOWN, STOPPED, UNAVAILABLE, Event, Job
from eagle_chat.core.serving.errors import ApiError, public_message, shutting_down, unavailable
from eagle_chat.core.serving.guards import send_error
from eagle_chat.core.serving.reply_text import ReplyText
from eagle_chat.core.serving.requests import CompletionRequest
from eagle_chat.core.serving.tool_fields import output_error


class Run(Response):
    """One job's way from the queue to the client, streamed (an ASGI app itself) or collected."""

    def __init__(self, request: Request, req: CompletionRequest, job: Job, state, model=None, *,
                 prefill: Callable[[list[dict], GenerationSettings], object] | None = None):
        self.request, self.req, self.job, self.state, self.model = request, req, job, state, model
        self.prefill = prefill  # the backend's next-turn prefill (Backend.prefill_next_turn)
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

    async def _open_stream(self, send) -> Event | None:
        """The job's first event, with the event stream begun (status 200); None if the job failed before
        anything streamed: that is answered as an error response with its own status."""
        event = await self._next_event()
        if event.kind == "failed":
            error = engine_error(event, self.job)
            await send_error(send, error)
            self._log(error.status, error.code)
            return None
        await send({"type": "http.response.start", "status": 200, "headers": out.SSE_HEADERS})
        return event

    async def _next_event(self) -> Event:
        while (event := await self.job.next_event()).kind == "started":
            pass
        return event

    async def _stream(self, send) -> None:
        first, event = True, await self._open_stream(send)
        while event is not None:
            if event.kind == "failed":
                payload = out.sse({"error": engine_error(event, self.job).body()["error"]}) + out.SSE_DONE
                await send({"type": "http.response.body", "body": payload, "more_body": False})
                return self._log(200, "failed")
            if event.kind == "chunk":
                piece = self._feed(event.text)
                if first or piece.reasoning or piece.content or piece.calls:
                    data = self._chunk(piece, first)
                    if self.req.continuous_usage:
                        data["usage"] = {"completion_tokens": event.tokens}
                    await send({"type": "http.response.body", "more_body": True, "body": out.sse(data)})
                first, event = False, await self._next_event()
                continue
            piece = self.text.finish()
            stats, finish = event.stats, self._finish_reason(event)
            more = self._extras(stats, finish)
            payload = out.sse(self._chunk(piece, first)) if (first or piece.reasoning or piece.content or piece.calls) else b""
            if (problem := self._output_error(finish)) is not None:  # the output fails its schema: say so, not "stop"
                payload += out.sse({"error": problem.body()["error"]}) + out.SSE_DONE
                await send({"type": "http.response.body", "body": payload, "more_body": False})
                return self._log(200, "invalid_output", stats)
            payload += out.sse({**out.chunk(self.reply, finish=finish), **more})
            if self.req.include_usage:
                payload += out.sse(out.usage_chunk(self.reply, stats, more))
            self._prefill_next_turn(stats)  # queued before the client can send its next turn
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
                    self._piece(self._feed(event.text))
                elif event.kind == "failed":
                    error = engine_error(event, self.job)
                    self._log(error.status, error.code)
                    return error_response(error)
                elif event.kind == "finished":
                    break
        finally:
            watcher.cancel()
            self._done()
        self._piece(self.text.finish())
        stats, finish = event.stats, self._finish_reason(event)
        if (problem := self._output_error(finish)) is not None:
            self._log(problem.status, problem.code, stats)
            return error_response(problem)
        body = self._whole(stats, finish)
        self._log(200, finish, stats)
        self._prefill_next_turn(stats)
        return body

    def _piece(self, piece) -> None:
        """A piece of a collected reply (the Responses API's run builds its output items from them)."""

    def _whole(self, stats, finish: str) -> dict:
        reasoning = "".join(self.text.reasoning) if self.text.has_thinking else None
        return out.completion(self.reply, content="".join(self.text.content), reasoning=reasoning, finish=finish,
                              stats=stats, more=self._extras(stats, finish), tool_calls=self.text.calls)

    # --- book-keeping --------------------------------------------------------------------------------
    def _prefill_next_turn(self, stats) -> None:
        """Have the conversation prefilled for its likely next turn: the request's messages and this reply as
        the assistant message a client sends back (its content without the reasoning, its tool calls), ready
        for a tool result or a user message. An agent's next step then prefills only what it adds. Not after a
        reply cut short or a client gone; the grammar is left out (it constrains the reply, not the prompt)."""
        if self.prefill is None or self.req.kind != "chat" or self.disconnected or self._cut(stats):
            return
        content, calls = "".join(self.text.content), self.text.calls
        said: dict[str, Any] = {"role": "assistant", "content": content}
        if calls:
            said["tool_calls"] = out.message_calls(calls)
        self.prefill([*(dict(m) for m in self.job.prompt), said], replace(self.job.settings, constraint=None))

    def _finish_reason(self, event: Event) -> str:
        finish = out.finish_reason(event.stats, self.req.max_tokens, self.text.ended, self._cut(event.stats))
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

    def _log(self, status: int, outcome: str | None, stats=None) -> None:
        if self.disconnected:
            outcome = "disconnected"
        elif stats is not None and (cut := self._cut(stats)):
            outcome = "cut_by_shutdown" if cut == SHUTDOWN else "stopped"
        fields = dict(method="POST", endpoint=self.request.url.path, client=client_name(self.request.scope), stream=self.req.stream,
                      status=status, outcome=outcome, queue_ms=self.job.queue_ms,
                      total_ms=(time.perf_counter() - self.job.created) * 1000.0)
        if stats is not None:
            fields.update(prompt_tokens=stats.input_tokens, completion_tokens=stats.generated_tokens,
                          tokens_per_s=stats.tokens_per_s, mode=stats.mode, accepted_tokens=stats.accepted_tokens,
                          draft_tokens=stats.draft_tokens)
            constraint = self.req.tool_use.constraint if self.req.kind == "chat" else None
            if constraint is not None and self.model is not None:  # as the response's eagle_chat object says it
                limited = out.output_figures(constraint.name, self.model, stats)["drafting_limited_by_grammar"]
                fields.update(grammar=constraint.name, drafting_off_by_grammar=limited)
        self.state.record(**fields)


def engine_error(event: Event, job: Job) -> ApiError:
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


def json_response(body: dict | Response) -> Response:
    return body if isinstance(body, Response) else Response(out.dumps(body), media_type="application/json")


def error_response(error: ApiError) -> Response:
    return Response(error.json_bytes(), status_code=error.status, media_type="application/json",
                    headers=error.headers)


def client_name(scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "?"
