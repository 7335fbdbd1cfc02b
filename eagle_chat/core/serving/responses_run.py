"""A ``/v1/responses`` job's way to the client: the chat completions' :class:`~eagle_chat.core.serving.runs.Run`
(the same job events, ReplyText, stop handling, schema check, figures, request log and next-turn prefill) with
the Responses API's framing (:mod:`responses_output`).

Streamed, the headers go out once the engine has started the job (a refusal before that is a plain HTTP error,
as for chat completions); then ``response.created`` and ``response.in_progress``, the items' events as the text
arrives, and ``response.completed`` / ``response.incomplete``; a failure mid-reply is an ``error`` event and
``response.failed``. There is no ``[DONE]`` line: the Responses API has none.
"""

from __future__ import annotations

from starlette.requests import Request

from eagle_chat.core.serving.backend import Job
from eagle_chat.core.serving.responses_input import ResponsesRequest
from eagle_chat.core.serving.responses_output import ResponseOutput, sse_event
from eagle_chat.core.serving.runs import Run, engine_error


class ResponsesRun(Run):
    def __init__(self, request: Request, parsed: ResponsesRequest, job: Job, state, model, *, prefill=None):
        super().__init__(request, parsed.chat, job, state, model, prefill=prefill)
        self.output = ResponseOutput(parsed.chat.model, parsed.echo)

    async def _stream(self, send) -> None:
        event = await self._open_stream(send)
        if event is not None:
            await _send(send, self.output.start())
        while event is not None:
            if event.kind == "failed":
                await _send(send, self.output.failed(engine_error(event, self.job).body()["error"]), end=True)
                return self._log(200, "failed")
            if event.kind == "chunk":
                piece = self._feed(event.text)
                await _send(send, self.output.feed(piece.reasoning, piece.content, piece.calls))
                event = await self._next_event()
                continue
            piece = self.text.finish()
            events = self.output.feed(piece.reasoning, piece.content, piece.calls)
            stats, finish = event.stats, self._finish_reason(event)
            if (problem := self._output_error(finish)) is not None:
                await _send(send, events + self.output.failed(problem.body()["error"]), end=True)
                return self._log(200, "invalid_output", stats)
            events += self.output.finish(incomplete=finish == "length", usage=ResponseOutput.usage(stats),
                                         more=self._extras(stats, finish))
            self._prefill_next_turn(stats)
            await _send(send, events, end=True)
            return self._log(200, finish, stats)

    def _piece(self, piece) -> None:
        self.output.feed(piece.reasoning, piece.content, piece.calls)

    def _whole(self, stats, finish: str) -> dict:
        self.output.finish(incomplete=finish == "length", usage={}, more={})  # closes the items
        status = "incomplete" if finish == "length" else "completed"
        return self.output.response(status, ResponseOutput.usage(stats), self._extras(stats, finish))


async def _send(send, events: list[dict], *, end: bool = False) -> None:
    if events or end:
        await send({"type": "http.response.body", "body": b"".join(map(sse_event, events)), "more_body": not end})
