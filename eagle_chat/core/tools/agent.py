"""The agent loop's rules, as plain data: what each model step is offered, what its reply asks for, and
when the loop ends. The window (and anything else) drives it; nothing here waits, calls a server or uses Qt.

- Tool use per conversation: ``off`` (no tools offered), ``auto`` (the model decides), ``required`` (the
  first step of a reply must call a tool: a grammar guarantees it, so even a tiny model does; later steps
  are ``auto`` so the model can answer).
- The enabled tools of every ready server go to the model in OpenAI's function format, as the chat
  template reads them; a name two servers share is offered as ``server__tool`` so each call has one owner.
- A reply's calls are read with the same ``<tool_call>`` parser as the API, at most
  :data:`MAX_CALLS_PER_STEP` per step (a toy model writes dozens when allowed). A call the reply ended
  inside (the token limit cut it) is never run nor offered for approval: it is counted in
  :attr:`StepReply.cut` and dropped, as the API withholds it.
- Approval: a tool listed in the server's ``autoApprove`` or allowed "always" in this conversation runs;
  any other call is asked about (Allow once / Always for this tool / Deny).
- The loop ends with an answer (a step without calls), with Stop (the driver's), or after
  :data:`MAX_STEPS` model steps (said in the reply).
"""

from __future__ import annotations

import json
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from eagle_chat.core.generation.structured import Constraint
from eagle_chat.core.generation.tool_calls import ToolCall, ToolCallParser
from eagle_chat.core.generation.tool_template import tools_text
from eagle_chat.core.tools.results import ToolResult

TOOL_USE_MODES = ("off", "auto", "required")
MAX_STEPS = 10
MAX_CALLS_PER_STEP = 4

RUN, ASK, DENY = "run", "ask", "deny"
DENIED_TEXT = "The user did not allow this tool call."


@dataclass(frozen=True)
class OfferedTool:
    model_name: str  # the name the model sees and calls
    server: str
    tool: str
    description: str
    input_schema: dict[str, Any]

    def function(self) -> dict[str, Any]:
        return {"type": "function", "function": {"name": self.model_name, "description": self.description,
                                                 "parameters": self.input_schema or {"type": "object"}}}


def offered_tools(states: list[Any], disabled: AbstractSet[tuple[str, str]] = frozenset()) -> list[OfferedTool]:
    """The tools of every ready server (``ServerState``), minus those the user turned off."""
    pairs = [(s.config.name, t) for s in states if s.status == "ready" for t in s.tools
             if (s.config.name, t["name"]) not in disabled]
    counts: dict[str, int] = {}
    for _, tool in pairs:
        counts[tool["name"]] = counts.get(tool["name"], 0) + 1
    return [OfferedTool(f"{server}__{t['name']}" if counts[t["name"]] > 1 else t["name"], server, t["name"],
                        t.get("description", ""), t.get("input_schema") or {}) for server, t in pairs]


@dataclass(frozen=True)
class StepOffer:
    """What one model step gets: the tool list (JSON text for GenerationSettings.tools) and, when a call is
    required, the grammar that guarantees one."""

    tools: str | None
    constraint: Constraint | None


def step_offer(mode: str, step: int, tools: list[OfferedTool]) -> StepOffer:
    if mode == "off" or not tools:
        return StepOffer(None, None)
    text = tools_text([t.function() for t in tools])
    if mode == "required" and step == 0:
        offered = json.dumps([{"name": t.model_name, "parameters": grammar_parameters(t.input_schema)}
                              for t in tools], ensure_ascii=False)
        return StepOffer(text, Constraint("tool_calls", offered, 1, 1))
    return StepOffer(text, None)


def grammar_parameters(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The arguments schema the grammar enforces. A tool without declared properties (MCP's parameterless
    tools) gets exactly ``{}``: the grammar would otherwise allow any object, and a small model then writes a
    key that never ends (seen: 512 tokens inside one string, the call cut)."""
    if not isinstance(schema, dict) or (not schema.get("properties") and schema.get("additionalProperties") is not True
                                        and schema.get("type", "object") == "object"):
        return {"const": {}}
    return schema


@dataclass
class StepReply:
    """A finished step's reply: its prose and the calls it asks for (at most MAX_CALLS_PER_STEP)."""

    content: str
    calls: list[ToolCall]
    dropped: int = 0  # calls past the cap, not run
    cut: int = 0  # calls the reply ended inside (cut by the token limit), not run


def read_reply(answer: str) -> StepReply:
    parser = ToolCallParser()
    parser.feed(answer)
    parser.finish()
    whole = [c for c in parser.calls if c.closed or c.error is None]  # not closed with an error: the reply ended in it
    cut = len(parser.calls) - len(whole) + (1 if parser.cut else 0)
    return StepReply(parser.content, whole[:MAX_CALLS_PER_STEP], max(0, len(whole) - MAX_CALLS_PER_STEP), cut)


@dataclass
class Approvals:
    """Per conversation: tools the user allowed "always" (``server``, ``tool``)."""

    always: set[tuple[str, str]] = field(default_factory=set)

    def decide(self, tool: OfferedTool | None, auto_approved: bool) -> str:
        if tool is None:
            return RUN  # an unknown name: the hub answers with an error for the model, nothing runs
        if auto_approved or (tool.server, tool.tool) in self.always:
            return RUN
        return ASK

    def allow_always(self, tool: OfferedTool) -> None:
        self.always.add((tool.server, tool.tool))


def find_tool(tools: list[OfferedTool], name: str) -> OfferedTool | None:
    return next((t for t in tools if t.model_name == name), None)


def call_arguments(call: ToolCall) -> Any:
    """The arguments to send: the parsed object, or the raw text (which the hub reports as invalid)."""
    if call.error:
        return call.arguments
    try:
        return json.loads(call.arguments or "{}")
    except json.JSONDecodeError:
        return call.arguments


def assistant_message(reply: StepReply) -> dict[str, Any]:
    """The step's reply as the chat template reads it on the next step."""
    return {"role": "assistant", "content": reply.content,
            "tool_calls": [{"id": c.id, "type": "function",
                            "function": {"name": c.name, "arguments": c.arguments or "{}"}} for c in reply.calls]}


def tool_message(call: ToolCall, result: ToolResult | None) -> dict[str, Any]:
    """A call's result (None: the user denied it) as the ``tool`` message the next step reads."""
    if result is None:
        text = DENIED_TEXT
    elif result.is_error:
        text = f"Error: {result.text}"
    else:
        text = result.text
    return {"role": "tool", "tool_call_id": call.id, "content": text}


def step_limit_reached(steps_done: int) -> bool:
    return steps_done >= MAX_STEPS
