"""The Responses API's output: the ``response`` object and its streaming events, built from a reply's pieces.

A reply's text reaches here already split by :class:`~eagle_chat.core.serving.reply_text.ReplyText` (reasoning,
answer, tool-call deltas in chat completions' shape). :class:`ResponseOutput` turns the pieces into output items —
a ``reasoning`` item (its ``reasoning_text``), a ``message`` item (one ``output_text`` part), a ``function_call``
item per call (``call_id`` is the call's id) — in the order they appear, and into the events a streaming client
reads: ``response.created``, ``response.in_progress``, ``response.output_item.added``,
``response.content_part.added``, ``response.output_text.delta`` / ``.done``, ``response.reasoning_text.delta`` /
``.done``, ``response.function_call_arguments.delta`` / ``.done``, ``response.content_part.done``,
``response.output_item.done``, then ``response.completed`` (or ``response.incomplete`` when
``max_output_tokens`` cut the reply, or ``error`` + ``response.failed``). Whole or streamed, the final object
is the same; it carries ``eagle_chat`` and ``timings`` as chat completions do.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from eagle_chat.core.serving.responses_input import echo_tools


def _id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:24]}"


class ResponseOutput:
    def __init__(self, model: str, echo: dict):
        self.model, self.echo = model, echo
        self.id, self.created = _id("resp"), int(time.time())
        self.items: list[dict] = []
        self._open: dict | None = None  # the item text is being added to (reasoning or message)
        self._calls: dict[int, dict] = {}  # a call's index in the reply → its item
        self._seq = 0

    # --- events ----------------------------------------------------------------------------------------
    def start(self) -> list[dict]:
        return [self._event("response.created", response=self.response("in_progress")),
                self._event("response.in_progress", response=self.response("in_progress"))]

    def feed(self, reasoning: str = "", content: str = "", calls: list[dict] | None = None) -> list[dict]:
        """The events for one piece of the reply (and its items, kept for the final object)."""
        events: list[dict] = []
        if reasoning:
            events += self._text("reasoning", reasoning)
        if content:
            events += self._text("message", content)
        for delta in calls or []:
            function = delta.get("function", {})
            item = self._calls.get(delta["index"])
            if item is None:
                events += self._close()
                item = {"id": _id("fc"), "type": "function_call", "status": "in_progress", "call_id": delta["id"],
                        "name": function.get("name", ""), "arguments": ""}
                self._calls[delta["index"]] = item
                events += self._add(item)
            if function.get("arguments"):
                item["arguments"] += function["arguments"]
                events.append(self._event("response.function_call_arguments.delta", item_id=item["id"],
                                          output_index=self.items.index(item), delta=function["arguments"]))
        return events

    def finish(self, *, incomplete: bool, usage: dict, more: dict) -> list[dict]:
        """Close every item; ``response.completed`` (or ``.incomplete``: ``max_output_tokens`` cut the reply)."""
        events = self._close()
        for item in self._calls.values():
            if item["status"] == "in_progress":
                index = self.items.index(item)
                item["status"] = "completed"
                events += [self._event("response.function_call_arguments.done", item_id=item["id"], output_index=index,
                                       name=item["name"], arguments=item["arguments"]),
                           self._event("response.output_item.done", output_index=index, item=item)]
        status = "incomplete" if incomplete else "completed"
        return [*events, self._event(f"response.{status}", response=self.response(status, usage, more))]

    def failed(self, error: dict) -> list[dict]:
        body = {k: error.get(k) for k in ("code", "message", "param")}
        failed = {**self.response("failed"), "error": {"code": body["code"] or "server_error", "message": body["message"]}}
        return [self._event("error", **body), self._event("response.failed", response=failed)]

    # --- the object ----------------------------------------------------------------------------------
    def response(self, status: str, usage: dict | None = None, more: dict | None = None) -> dict:
        echo = self.echo
        return {
            "id": self.id, "object": "response", "created_at": self.created, "status": status, "error": None,
            "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
            "model": self.model, "output": json.loads(json.dumps(self.items)), "instructions": echo["instructions"],
            "tools": echo_tools(echo["tools"]), "tool_choice": echo["tool_choice"],
            "parallel_tool_calls": echo["parallel_tool_calls"], "max_output_tokens": echo["max_output_tokens"],
            "temperature": echo["temperature"], "top_p": echo["top_p"], "text": echo["text"],
            "reasoning": echo["reasoning"], "metadata": echo["metadata"], "previous_response_id": None,
            "store": False,  # stateless: nothing is kept, whatever the request's ``store`` said
            "truncation": "disabled", "usage": usage, **(more or {}),
        }

    @staticmethod
    def usage(stats) -> dict:
        prompt, completion = int(stats.input_tokens), int(stats.generated_tokens)
        return {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": int(getattr(stats, "cached_tokens", 0) or 0)}, "output_tokens": completion,
                "output_tokens_details": {"reasoning_tokens": int(stats.thinking_tokens or 0)},
                "total_tokens": prompt + completion}

    # --- internals -----------------------------------------------------------------------------------
    def _text(self, kind: str, text: str) -> list[dict]:
        events: list[dict] = []
        if self._open is None or self._open["type"] != kind:
            events += self._close()
            if kind == "reasoning":
                item: dict[str, Any] = {"id": _id("rs"), "type": "reasoning", "status": "in_progress", "summary": [],
                        "content": [{"type": "reasoning_text", "text": ""}]}
                events += self._add(item)
            else:
                item = {"id": _id("msg"), "type": "message", "status": "in_progress", "role": "assistant", "content": []}
                events += self._add(item)  # the event is a snapshot: its content is still empty
                item["content"] = [{"type": "output_text", "text": "", "annotations": [], "logprobs": []}]
                events.append(self._event("response.content_part.added", item_id=item["id"],
                                          output_index=len(self.items) - 1, content_index=0,
                                          part={"type": "output_text", "text": "", "annotations": []}))
            self._open = item
        item = self._open
        item["content"][0]["text"] += text
        name = "response.reasoning_text.delta" if kind == "reasoning" else "response.output_text.delta"
        extra: dict[str, list] = {} if kind == "reasoning" else {"logprobs": []}
        events.append(self._event(name, item_id=item["id"], output_index=self.items.index(item), content_index=0,
                                  delta=text, **extra))
        return events

    def _close(self) -> list[dict]:
        item, self._open = self._open, None
        if item is None:
            return []
        index, part = self.items.index(item), item["content"][0]
        item["status"] = "completed"
        if item["type"] == "reasoning":
            events = [self._event("response.reasoning_text.done", item_id=item["id"], output_index=index,
                                  content_index=0, text=part["text"])]
        else:
            events = [self._event("response.output_text.done", item_id=item["id"], output_index=index,
                                  content_index=0, text=part["text"], logprobs=[]),
                      self._event("response.content_part.done", item_id=item["id"], output_index=index,
                                  content_index=0, part={"type": "output_text", "text": part["text"], "annotations": []})]
        return [*events, self._event("response.output_item.done", output_index=index, item=item)]

    def _add(self, item: dict) -> list[dict]:
        self.items.append(item)
        return [self._event("response.output_item.added", output_index=len(self.items) - 1, item=item)]

    def _event(self, kind: str, **fields) -> dict:
        event = {"type": kind, "sequence_number": self._seq, **fields}
        self._seq += 1
        return json.loads(json.dumps(event))  # a snapshot: the items change as the reply goes on


def sse_event(event: dict) -> bytes:
    """One server-sent event with its ``event:`` name, as OpenAI sends the Responses API's."""
    data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event['type']}\ndata: {data}\n\n".encode("utf-8")
