"""A ``POST /v1/responses`` body (OpenAI's Responses API, stateless) as the chat request it amounts to.

The Responses API says the same things as chat completions in other words: ``input`` items are messages
(``message`` items with ``input_text`` / ``output_text`` parts), assistant tool calls (``function_call`` items)
and tool results (``function_call_output`` items); ``instructions`` is a system message; tools are flat
(``{"type": "function", "name", "parameters"}``); ``text.format`` is ``response_format``; ``max_output_tokens``
is ``max_completion_tokens``; ``reasoning.effort`` is ``reasoning_effort``. So the body is translated into a
chat body and checked by :func:`~eagle_chat.core.serving.requests.parse_chat` — the same checks, tool parser,
grammars and schema validation as ``/v1/chat/completions``; a refusal names the Responses field.

Stateless: nothing is kept after a response. ``store`` is accepted either way (Codex and the SDK send it) and
the response says ``"store": false``; ``previous_response_id`` and ``conversation`` are refused, since no
earlier response can be found. ``reasoning`` items a client sends back are dropped (the chat template drops
earlier turns' reasoning too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from eagle_chat.core.serving.errors import ApiError, invalid
from eagle_chat.core.serving.fields import bool_field
from eagle_chat.core.serving.requests import CompletionRequest, Limits, ServedModel, parse_chat

# Accepted and ignored (they change nothing in the answer here), besides those chat completions ignore.
IGNORED = {"metadata", "user", "safety_identifier", "prompt_cache_key", "prompt_cache_retention", "service_tier",
           "store", "include", "truncation", "background", "stream_options", "top_logprobs", "max_tool_calls"}
FIELDS = IGNORED | {"model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls", "max_output_tokens",
                    "stream", "temperature", "top_p", "text", "reasoning", "previous_response_id", "conversation",
                    "num_assistant_tokens", "speculation", "chat_template_kwargs", "greedy_fallback",
                    "prompt_cache_options"}
ROLES = {"user", "system", "developer", "assistant"}
TEXT_PARTS = {"input_text", "output_text", "text"}
_NOTHING = {"previous_response_id": "this server keeps no responses (it is stateless): send the whole conversation "
                                    "in 'input'",
            "conversation": "this server keeps no conversations (it is stateless): send the whole conversation in "
                            "'input'",
            "background": "background responses are not supported", "top_logprobs": None}


@dataclass(frozen=True)
class ResponsesRequest:
    """The chat request a Responses body amounts to, and what the response object echoes back."""

    chat: CompletionRequest
    echo: dict  # instructions, tools, tool_choice, parallel_tool_calls, max_output_tokens, temperature, top_p, text…


def parse_responses(body: object, model: ServedModel, limits: Limits) -> ResponsesRequest:
    """A ``POST /v1/responses`` body → the checked chat request; raises ApiError (400/404) naming its field."""
    if not isinstance(body, dict):
        raise invalid("The request body must be a JSON object.")
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        raise invalid(f"Unrecognized request argument supplied: {', '.join(unknown)}", param=unknown[0],
                      code="unknown_parameter")
    for name, why in _NOTHING.items():
        value = body.get(name)
        if value not in (None, False, 0):
            raise invalid(f"'{name}' is not supported: {why or 'leave it out'}.", param=name)
    bool_field(body, "store", None)
    chat: dict = {"model": body.get("model"), "messages": _messages(body.get("input"), body.get("instructions"))}
    for ours, theirs in (("stream", "stream"), ("temperature", "temperature"), ("top_p", "top_p"),
                         ("parallel_tool_calls", "parallel_tool_calls"), ("max_output_tokens", "max_completion_tokens"),
                         ("num_assistant_tokens", "num_assistant_tokens"), ("speculation", "speculation"),
                         ("greedy_fallback", "greedy_fallback"),
                         ("chat_template_kwargs", "chat_template_kwargs")):
        if body.get(ours) is not None:
            chat[theirs] = body[ours]
    if body.get("tools") is not None:
        chat["tools"] = _tools(body["tools"])
    if body.get("tool_choice") is not None:
        chat["tool_choice"] = _tool_choice(body["tool_choice"])
    text = body.get("text")
    if text is not None:
        if not isinstance(text, dict) or set(text) - {"format", "verbosity"}:
            raise invalid("'text' may hold format and verbosity.", param="text")
        if text.get("format") is not None:
            chat["response_format"] = _format(text["format"])
        if text.get("verbosity") is not None:
            chat["verbosity"] = text["verbosity"]
    reasoning = body.get("reasoning")
    if reasoning is not None:
        if not isinstance(reasoning, dict) or set(reasoning) - {"effort", "summary", "generate_summary"}:
            raise invalid("'reasoning' may hold effort and summary.", param="reasoning")
        if reasoning.get("effort") is not None:
            chat["reasoning_effort"] = reasoning["effort"]
    try:
        request = parse_chat(chat, model, limits)
    except ApiError as error:
        error.param = _their_name(error.param)
        error.args = (error.message,)
        raise
    echo = {"instructions": body.get("instructions"), "tools": body.get("tools") or [],
            "tool_choice": body.get("tool_choice", "auto"), "parallel_tool_calls": request.tool_use.parallel,
            "max_output_tokens": body.get("max_output_tokens"), "temperature": body.get("temperature"),
            "top_p": body.get("top_p"), "text": text or {"format": {"type": "text"}},
            "reasoning": reasoning, "metadata": body.get("metadata") or {}}
    return ResponsesRequest(replace(request, include_usage=False), echo)


def _messages(value: object, instructions: object) -> list[dict]:
    messages: list[dict] = []
    if instructions is not None:
        if not isinstance(instructions, str):
            raise invalid("'instructions' must be a string.", param="instructions")
        messages.append({"role": "system", "content": instructions})
    if isinstance(value, str):
        return [*messages, {"role": "user", "content": value}]
    if not isinstance(value, list) or not value:
        raise invalid("'input' must be a string or a non-empty list of input items.", param="input")
    for i, item in enumerate(value):
        at = f"input[{i}]"
        if not isinstance(item, dict):
            raise invalid(f"{at} must be an object (an input item).", param=at)
        kind = item.get("type", "message")
        if kind == "message":
            role = item.get("role")
            if role not in ROLES:
                raise invalid(f"{at}.role must be user, system, developer or assistant.", param=f"{at}.role")
            messages.append({"role": role, "content": _content(item.get("content"), at)})
        elif kind == "function_call":
            call = {"id": _text(item, "call_id", at), "type": "function",
                    "function": {"name": _text(item, "name", at), "arguments": _text(item, "arguments", at)}}
            last = messages[-1] if messages else None
            if last is not None and last["role"] == "assistant":  # the calls of one reply: one assistant message
                last.setdefault("tool_calls", []).append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            output = item.get("output")
            content = output if isinstance(output, str) else _content(output, at, name="output")
            messages.append({"role": "tool", "tool_call_id": _text(item, "call_id", at), "content": content})
        elif kind == "reasoning":
            continue  # earlier reasoning: the chat template leaves it out
        else:
            raise invalid(f"{at}.type '{kind}' is not supported here: send message, function_call, "
                          "function_call_output or reasoning items.", param=f"{at}.type")
    return messages


def _content(value: object, at: str, *, name: str = "content") -> str:
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        raise invalid(f"{at}.{name} must be a string or a list of text parts.", param=f"{at}.{name}")
    texts = []
    for j, part in enumerate(value):
        where = f"{at}.{name}[{j}]"
        if not isinstance(part, dict) or part.get("type") not in TEXT_PARTS or not isinstance(part.get("text"), str):
            raise invalid(f"{where}: only input_text and output_text parts are supported (no images or files).",
                          param=where)
        texts.append(part["text"])
    return "\n".join(texts)


def _text(item: dict, name: str, at: str) -> str:
    value = item.get(name)
    if not isinstance(value, str) or (name != "arguments" and not value):
        raise invalid(f"{at}.{name} must be a string.", param=f"{at}.{name}")
    return value


def _tools(value: object) -> list:
    if not isinstance(value, list):
        raise invalid("'tools' must be a list of function tools.", param="tools")
    tools = []
    for i, tool in enumerate(value):
        if not isinstance(tool, dict) or tool.get("type") != "function":
            raise invalid(f"tools[{i}] must be {{\"type\": \"function\", \"name\", \"parameters\"}} (only function "
                          "tools are supported).", param=f"tools[{i}]")
        tools.append({"type": "function", "function": {k: v for k, v in tool.items() if k != "type"}})
    return tools


def _tool_choice(value: object) -> object:
    if isinstance(value, dict) and value.get("type") == "function" and set(value) == {"type", "name"}:
        return {"type": "function", "function": {"name": value["name"]}}
    if isinstance(value, str):
        return value
    raise invalid("tool_choice must be \"none\", \"auto\", \"required\" or {\"type\": \"function\", \"name\": …}.",
                  param="tool_choice")


def _format(value: object) -> object:
    if isinstance(value, dict) and value.get("type") == "json_schema":
        return {"type": "json_schema", "json_schema": {k: v for k, v in value.items() if k != "type"}}
    return value


def _their_name(param: str | None) -> str | None:
    """A chat field's name as the Responses body calls it."""
    if param is None:
        return None
    param = re.sub(r"^tools\[(\d+)\]\.function\b", r"tools[\1]", param)
    param = re.sub(r"^response_format(\.json_schema)?", "text.format", param)
    names = {"max_completion_tokens": "max_output_tokens", "reasoning_effort": "reasoning.effort", "messages": "input"}
    return names.get(param, param if not param.startswith("messages[") else "input")


def echo_tools(tools: list) -> list:
    """The tools as a response object lists them (the SDK reads ``strict`` and ``parameters``)."""
    return [{"strict": None, "description": None, "parameters": None, **t} for t in tools if isinstance(t, dict)]

