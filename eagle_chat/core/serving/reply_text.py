"""A reply's text on its way to an API client: reasoning split off, tool calls read, stop sequences applied.

In that order: ``<think>`` comes first in a reply, tool calls follow it, and ``stop`` applies to the answer's
prose only (a stop string inside the thinking or inside a call's arguments must not end the reply). The same
object serves a streamed reply (:meth:`ReplyText.feed` per chunk, deltas out) and a whole one (the parts
joined), so both say the same.

A request that allows no parallel calls ends once its first call is complete: the rest is not read, and
:attr:`ReplyText.ended` tells the caller to stop the engine (as a matched stop sequence does).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from eagle_chat.core.generation.reasoning import ReasoningSplitter
from eagle_chat.core.generation.tool_calls import Delta, ToolCallParser
from eagle_chat.core.serving.responses import call_deltas
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
        self.reasoning: list[str] = []
        self.content: list[str] = []
        self.ended = False  # a stop sequence matched, or the one call allowed is complete: stop the engine

    @property
    def calls(self) -> list:
        return list(self.parser.calls) if self.parser is not None else []

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
        return [f"tool call {c.index} ({c.name}): {c.error}" for c in self.calls if c.error]

    def _answer(self, reasoning: str, answer: str, *, final: bool) -> Piece:
        calls: list[dict] = []
        if self.parser is not None and not (self.ended and not self.stops.hit):
            delta = self.parser.feed(answer) if answer else Delta()
            if final:
                rest = self.parser.finish()
                delta = Delta(delta.content + rest.content, delta.started + rest.started,
                              delta.arguments + rest.arguments)
            answer, calls = delta.content, call_deltas(delta)
            if not self.parallel and any(c.closed for c in self.parser.calls):
                self.ended = True
        elif self.ended:
            answer = ""
        content = self.stops.feed(answer) + (self.stops.finish() if final else "")
        self.ended = self.ended or self.stops.hit
        self.reasoning.append(reasoning)
        self.content.append(content)
        return Piece(reasoning, content, calls)
