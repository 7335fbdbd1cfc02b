"""A reply's text on its way to an API client: reasoning split off, tool calls read, stop sequences applied.

In that order: ``<think>`` comes first in a reply, tool calls follow it, and ``stop`` applies to the answer's
prose only (a stop string inside the thinking or inside a call's arguments must not end the reply). The same
object serves a streamed reply (:meth:`ReplyText.feed` per chunk, deltas out) and a whole one (the parts
joined), so both say the same.

A request that allows no parallel calls ends once its first call is complete: the rest is not read, and
:attr:`ReplyText.ended` tells the caller to stop the engine (as a matched stop sequence does).

A tool call reaches the client only whole and valid: streamed, in one delta (index, id, name and all its
arguments) once its ``</tool_call>`` is read (or the reply ended right after its JSON object); a call the
token limit cut, or whose arguments are not a JSON object, is withheld — from the stream and from the whole
response's ``tool_calls`` — and named in ``eagle_chat.tool_call_errors``. So an agent that trusts
``tool_calls`` (the official SDK's stream accumulation, litellm, LangChain) never runs a cut call; the
reply's ``finish_reason`` is then "length" (or "stop"), not "tool_calls".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from eagle_chat.core.generation.reasoning import ReasoningSplitter
from eagle_chat.core.generation.tool_calls import Delta, ToolCall, ToolCallParser
from eagle_chat.core.serving.stops import StopScanner


@dataclass
class Piece:
    """What one chunk of the reply adds: reasoning and content text, and tool-call deltas (OpenAI's shape)."""

    reasoning: str = ""
    content: str = ""
    calls: list[dict] = field(default_factory=list)


class ReplyText:
    def __init__(self, req):
        self.stops = StopScanner(req.stop)
        self.splitter = ReasoningSplitter() if req.kind == "chat" else None
        self.parser = ToolCallParser() if req.tool_use.parse_calls else None
        self.parallel = req.tool_use.parallel
        constraint = req.tool_use.constraint
        self.forced = constraint is not None and constraint.kind == "tool_calls"  # the grammar allows calls only
        self._cut_text = ""  # a forced reply's text at its end that no call took: a call cut short
        self.reasoning: list[str] = []
        self.content: list[str] = []
        self.ended = False  # a stop sequence matched, or the one call allowed is complete: stop the engine
        self._judged = 0  # the parser's calls judged so far (surfaced or withheld), in order
        self._surfaced: list[ToolCall] = []  # the valid ones, re-numbered from 0: what the client gets

    @property
    def calls(self) -> list[ToolCall]:
        """The complete, valid calls (what ``tool_calls`` holds); a cut or invalid call is not among them."""
        return list(self._surfaced)

    @property
    def has_thinking(self) -> bool:
        return self.splitter is not None and self.splitter.result().has_thinking

    def feed(self, text: str) -> Piece:
        if self.ended:
            return Piece()
        reasoning, answer = self.splitter.feed(text) if self.splitter else ("", text)
        return self._answer(reasoning, answer, final=False)

    def finish(self) -> Piece:
        """The rest, once the reply has ended."""
        reasoning, answer = self.splitter.finish() if self.splitter and not self.ended else ("", "")
        return self._answer(reasoning, answer, final=True)

    def call_errors(self) -> list[str]:
        """The calls withheld and why (numbered as the model wrote them)."""
        calls = self.parser.calls if self.parser is not None else []
        errors = [f"tool call {c.index} ({c.name}) withheld: {c.error}" for c in calls if c.error]
        if self.parser is not None and (self.parser.cut or self._cut_text):
            errors.append(f"tool call {len(calls)} withheld: {self.parser.cut or 'the reply ended inside its tag'}")
        return errors

    def _settled(self, final: bool) -> list[dict]:
        """Calls judged now, in order: each valid one as one whole delta (OpenAI's streamed shape, all its
        arguments at once); a call is judged when its close tag was read, or at the reply's end."""
        assert self.parser is not None
        out = []
        calls = self.parser.calls
        while self._judged < len(calls) and (final or calls[self._judged].closed):
            call = calls[self._judged]
            self._judged += 1
            if call.error is None:
                surfaced = ToolCall(len(self._surfaced), call.id, call.name, call.arguments, True)
                self._surfaced.append(surfaced)
                out.append({"index": surfaced.index, "id": call.id, "type": "function",
                            "function": {"name": call.name, "arguments": call.arguments}})
        return out

    def _answer(self, reasoning: str, answer: str, *, final: bool) -> Piece:
        calls: list[dict] = []
        if self.parser is not None and not (self.ended and not self.stops.hit):
            delta = self.parser.feed(answer) if answer else Delta()
            if final:
                rest = self.parser.finish()
                delta = Delta(delta.content + rest.content, delta.started + rest.started,
                              delta.arguments + rest.arguments)
            answer, calls = delta.content, self._settled(final)
            if final and self.forced:  # only a call can be there (a tag cut short): never content
                self._cut_text, answer = answer, ""
            if not self.parallel and any(c.closed for c in self.parser.calls):
                self.ended = True
        elif self.ended:
            answer = ""
        content = self.stops.feed(answer) + (self.stops.finish() if final else "")
        self.ended = self.ended or self.stops.hit
        self.reasoning.append(reasoning)
        self.content.append(content)
        return Piece(reasoning, content, calls)
