"""Tool calls in a reply: an incremental parser for Qwen3's (Hermes) ``<tool_call>`` blocks.

Qwen3 and Hermes-style models write each call as ``<tool_call>\\n{"name": "f", "arguments": {…}}\\n</tool_call>``,
several in a row for parallel calls, with or without prose around them. GenAI 2026.4.1 has no parser for
this format (its ``Llama3JsonToolParser`` takes the first ``{`` to the last ``}`` and raises on two calls), so
this one, fed the answer's text (after the ``<think>`` split) in chunks of any size:

- text outside the blocks is content; whitespace right before a block and right after one is dropped, and
  text that could be the start of ``<tool_call>`` is held back, so a half-written tag never reaches content;
- a block's call is announced (:attr:`Delta.started`) once its header ``{"name": "…", "arguments":`` is
  read, and its arguments follow as they arrive (:attr:`Delta.arguments`), as OpenAI streams them;
- a block whose header does not read that way is still a call if the whole block is a JSON object with
  ``name`` and ``arguments`` (another key order), else it stays content as written;
- a call whose arguments turn out not to be valid JSON, or that the reply ends inside, keeps the arguments
  as written and says what is wrong in :attr:`ToolCall.error` (the whole and streamed replies agree);
- a reply that ends inside a ``<tool_call>`` block before the call's name is complete gives neither a call
  nor content: :attr:`ToolCallParser.cut` says so.

Plain Python, no OpenVINO.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

OPEN, CLOSE = "<tool_call>", "</tool_call>"
_HEADER = re.compile(r'\s*\{\s*"name"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"(?:arguments|parameters)"\s*:')


def new_call_id() -> str:
    return "call_" + uuid.uuid4().hex[:24]


@dataclass
class ToolCall:
    index: int
    id: str
    name: str
    arguments: str = ""
    closed: bool = False  # its </tool_call> was read
    error: str | None = None  # what is wrong with it, if anything


@dataclass
class Delta:
    """What one :meth:`ToolCallParser.feed` adds: ``content`` text, calls ``started`` (name known), and
    argument text per call index, in order."""

    content: str = ""
    started: list[ToolCall] = field(default_factory=list)
    arguments: list[tuple[int, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.content or self.started or self.arguments)


class ToolCallParser:
    def __init__(self, new_id: Callable[[], str] = new_call_id):
        self.calls: list[ToolCall] = []
        self._new_id = new_id
        self._state = "text"  # text | head | args | after
        self._held = ""  # text not yet assigned (a possible tag prefix, whitespace before a possible block)
        self._block = ""  # a block's text after <tool_call>, while its header is read
        self._gap = ""  # the whitespace before that <tool_call>: content again if the block is no call
        self._depth = 0
        self._in_string = self._escaped = False
        self._space = ""  # whitespace inside the arguments at depth 0, kept only if more arguments follow
        self._after_call = False  # drop whitespace right after a </tool_call>
        self._value_ended = False  # the current call's arguments were followed by the object's closing brace
        self.content = ""  # all content so far
        self.cut: str | None = None  # a block the reply ended in before its call's name (withheld), if any
        self._delta = Delta()

    def feed(self, text: str) -> Delta:
        self._delta = Delta()
        rest = self._held + text
        self._held = ""
        while rest:
            rest = getattr(self, "_" + self._state)(rest)
        return self._delta

    def finish(self) -> Delta:
        """The end of the reply: held text goes out; a call still open is marked as cut."""
        self._delta = Delta()
        if self._state == "text":
            held = self._held if not self.calls else self._held.rstrip()
            self._emit(held)
        elif self._state == "head":  # no header, no close tag
            block = (self._block + self._held).lstrip()
            if block and not block.startswith("{"):
                self._emit(self._gap + OPEN + self._block + self._held)  # not the start of a call: text
            else:  # a call cut before its name was complete: no call, and not content either
                self.cut = "the reply ended inside a <tool_call> block, before the call's name"
        else:  # in a call: complete if its JSON object was (a missing </tool_call> is forgiven), else cut
            call = self.calls[-1]
            if self._state == "after" and self._value_ended:
                self._check(call)
            else:
                call.error = call.error or "the reply ended inside this call"
        self._held = ""
        self._state = "text"
        return self._delta

    # --- states: each takes the text still to read and returns what it did not consume ---------------------
    def _text(self, rest: str) -> str:
        if self._after_call:
            rest = rest.lstrip()
            if not rest:
                return ""
            self._after_call = False
        at = rest.find(OPEN)
        if at >= 0:
            before = rest[:at].rstrip()
            self._emit(before)
            self._state, self._block, self._gap = "head", "", rest[len(before):at]
            return rest[at + len(OPEN):]
        keep = _partial_tag(rest, OPEN)
        body, tail = rest[:len(rest) - keep], rest[len(rest) - keep:]
        stripped = body.rstrip()  # trailing whitespace waits: a block may follow it
        self._emit(stripped)
        self._held = body[len(stripped):] + tail
        return ""

    def _head(self, rest: str) -> str:
        self._block += rest
        match = _HEADER.match(self._block)
        if match:
            call = ToolCall(len(self.calls), self._new_id(), _unescape(match.group(1)))
            self.calls.append(call)
            self._delta.started.append(call)
            self._state, self._depth, self._in_string, self._escaped, self._space = "args", 0, False, False, ""
            self._value_ended = False
            return self._block[match.end():].lstrip()
        end = self._block.find(CLOSE)
        if end < 0:
            return ""
        block, after = self._block[:end], self._block[end + len(CLOSE):]
        whole = _json_object(block)
        if whole is not None and isinstance(whole.get("name"), str) and "arguments" in whole:
            arguments = whole["arguments"]
            call = ToolCall(len(self.calls), self._new_id(), whole["name"],
                            arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False),
                            closed=True)
            self.calls.append(call)
            self._delta.started.append(call)
            self._delta.arguments.append((call.index, call.arguments))
            self._after_call = True
        else:
            self._emit(self._gap + OPEN + block + CLOSE)
        self._state = "text"
        return after

    def _args(self, rest: str) -> str:
        call = self.calls[-1]
        out: list[str] = []
        for i, char in enumerate(rest):
            if self._in_string:
                if self._escaped:
                    self._escaped = False
                elif char == "\\":
                    self._escaped = True
                elif char == '"':
                    self._in_string = False
            elif char == '"':
                self._in_string = True
            elif char in "{[":
                self._depth += 1
            elif char in "}]":
                if self._depth == 0:
                    self._finish_args(call, out, ended=True)
                    self._state = "after"
                    return rest[i + 1:]
                self._depth -= 1
            elif self._depth == 0 and char.isspace():
                if call.arguments or out:  # whitespace before the value is dropped
                    self._space += char
                continue
            elif self._depth == 0 and char == "<":
                tail = rest[i:]
                if tail.startswith(CLOSE) or CLOSE.startswith(tail):
                    self._finish_args(call, out, ended=False)
                    self._state = "after"
                    return tail
            if self._space:
                out.append(self._space)
                self._space = ""
            out.append(char)
        self._add_arguments(call, "".join(out))
        return ""

    def _after(self, rest: str) -> str:
        call = self.calls[-1]
        stripped = rest.lstrip()
        if stripped.startswith(CLOSE):
            if call.error is None and not self._value_ended:
                call.error = "the call's JSON object is not closed"
            call.closed = True
            self._check(call)
            self._state, self._after_call = "text", True
            return stripped[len(CLOSE):]
        if CLOSE.startswith(stripped):
            self._held = stripped
            return ""
        at = stripped.find(CLOSE)
        call.error = call.error or "unexpected text after the call's JSON"
        if at < 0:
            keep = _partial_tag(stripped, CLOSE)
            self._held = stripped[len(stripped) - keep:] if keep else ""
            return ""
        return stripped[at:]

    # --- helpers ----------------------------------------------------------------------------------------
    def _finish_args(self, call: ToolCall, out: list[str], *, ended: bool) -> None:
        self._add_arguments(call, "".join(out))
        self._space = ""
        self._value_ended = ended

    def _add_arguments(self, call: ToolCall, piece: str) -> None:
        if piece:
            call.arguments += piece
            self._delta.arguments.append((call.index, piece))

    def _check(self, call: ToolCall) -> None:
        if call.error is None and _json_object(call.arguments) is None:
            call.error = "the arguments are not a JSON object"

    def _emit(self, text: str) -> None:
        if text:
            self.content += text
            self._delta.content += text


def _partial_tag(text: str, tag: str) -> int:
    """How many characters at the end of ``text`` could be the start of ``tag``."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0


def _json_object(text: str) -> dict | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _unescape(name: str) -> str:
    try:
        return json.loads(f'"{name}"')
    except ValueError:
        return name
