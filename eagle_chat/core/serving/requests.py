"""What an API request asks for, checked field by field: OpenAI's chat and text completion bodies.

Unknown fields are refused (OpenAI answers them with "Unrecognized request argument supplied"), known
ones this server cannot honour are refused with the reason, and the ones that change nothing here
(``user``, ``seed``, ``metadata`` …) are accepted. Extensions, named as OpenVINO Model Server names them:
``num_assistant_tokens`` (EAGLE-3 draft tokens per step; 0 = plain decoding), ``chat_template_kwargs``
(``{"enable_thinking": false}``), and ``greedy_fallback`` (see :func:`check_sampling`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from eagle_chat.core.generation.engine import MAX_ASSISTANT_TOKENS, GenerationSettings
from eagle_chat.core.serving.errors import ApiError, invalid

MAX_STOP_SEQUENCES = 4
ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}
_COMMON = {
    "model", "stream", "stream_options", "max_tokens", "temperature", "top_p", "n", "stop", "user", "seed",
    "presence_penalty", "frequency_penalty", "logit_bias", "metadata", "store", "service_tier",
    "num_assistant_tokens", "greedy_fallback",
}
CHAT_FIELDS = _COMMON | {
    "messages", "max_completion_tokens", "logprobs", "top_logprobs", "response_format", "tools", "tool_choice",
    "parallel_tool_calls", "reasoning_effort", "chat_template_kwargs", "modalities",
}
TEXT_FIELDS = _COMMON | {"prompt", "logprobs", "echo", "best_of", "suffix"}
MESSAGE_FIELDS = {"role", "content", "name", "reasoning_content"}


@dataclass(frozen=True)
class ServedModel:
    """What ``/v1/models`` lists and requests are checked against."""

    id: str
    has_draft: bool
    device: str
    draft: str | None = None
    supports_thinking: bool = False
    created: int = 0


@dataclass(frozen=True)
class Limits:
    """Server-side bounds on what a request may ask for."""

    max_tokens: int = 4096  # a larger max_tokens is lowered to this (finish_reason then says "length")
    greedy_fallback: bool = False  # serve sampling requests greedily instead of refusing them


@dataclass(frozen=True)
class CompletionRequest:
    kind: str  # "chat" or "text"
    model: str
    prompt: str | tuple[dict, ...]  # the raw prompt, or the messages
    stream: bool
    include_usage: bool
    max_tokens: int
    stop: tuple[str, ...]
    temperature: float | None
    top_p: float | None
    num_assistant_tokens: int | None
    thinking: bool | None
    continuous_usage: bool = False  # vLLM's stream_options.continuous_usage_stats: tokens so far on every chunk
    sampling_ignored: bool = False  # temperature asked for, served greedily (greedy_fallback)

    @property
    def sampling(self) -> bool:
        return bool(self.temperature) and not self.sampling_ignored

    def settings(self, defaults: GenerationSettings, has_draft: bool) -> GenerationSettings:
        """The engine settings for this request, starting from the server's (or the window's) defaults."""
        settings = replace(
            defaults, max_new_tokens=self.max_tokens, do_sample=self.sampling,
            temperature=self.temperature if self.sampling else defaults.temperature,
            top_p=self.top_p if self.sampling and self.top_p is not None else 1.0,
            thinking=self.thinking if self.thinking is not None else defaults.thinking,
            chat_template=self.kind == "chat",
        )
        if self.num_assistant_tokens == 0:
            settings = replace(settings, speculative=False)
        elif self.num_assistant_tokens is not None:
            settings = replace(settings, speculative=True, num_assistant_tokens=self.num_assistant_tokens,
                               tree_depth=0, branching_factor=0)
        return replace(settings, speculative=settings.speculative and has_draft)


def parse_chat(body: object, model: ServedModel, limits: Limits) -> CompletionRequest:
    """A ``POST /v1/chat/completions`` body → a checked request; raises ApiError (400/404)."""
    data = _object(body, CHAT_FIELDS)
    messages = _messages(data.get("messages"))
    for name, allowed in (("logprobs", (None, False)), ("top_logprobs", (None, 0))):
        if data.get(name) not in allowed:
            raise invalid(f"'{name}' is not supported by this server.", param=name)
    fmt = data.get("response_format")
    if fmt is not None and fmt != {"type": "text"}:
        raise invalid("Only response_format {\"type\": \"text\"} is supported.", param="response_format")
    if data.get("tools"):
        raise invalid("Tools (function calling) are not supported by this server.", param="tools")
    if data.get("tool_choice") not in (None, "none", "auto"):
        raise invalid("Tools (function calling) are not supported by this server.", param="tool_choice")
    max_tokens = data.get("max_completion_tokens")
    name = "max_completion_tokens"
    if max_tokens is None:
        max_tokens, name = data.get("max_tokens"), "max_tokens"
    return _request(data, "chat", tuple(messages), model, limits, _max_tokens(max_tokens, name, limits),
                    thinking=_thinking(data))


def parse_completion(body: object, model: ServedModel, limits: Limits) -> CompletionRequest:
    """A ``POST /v1/completions`` body (a plain prompt, no chat template) → a checked request."""
    data = _object(body, TEXT_FIELDS)
    prompt = data.get("prompt")
    if isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], str):
        prompt = prompt[0]
    if not isinstance(prompt, str):
        raise invalid("'prompt' must be a string (token arrays and batches are not supported).", param="prompt")
    if not prompt.strip():
        raise invalid("'prompt' is empty.", param="prompt")
    for name, allowed in (("logprobs", (None, 0)), ("echo", (None, False)), ("best_of", (None, 1)),
                          ("suffix", (None, ""))):
        if data.get(name) not in allowed:
            raise invalid(f"'{name}' is not supported by this server.", param=name)
    return _request(data, "text", prompt, model, limits, _max_tokens(data.get("max_tokens"), "max_tokens", limits),
                    thinking=None)


def check_sampling(request: CompletionRequest, model: ServedModel, limits: Limits, allow: object) -> CompletionRequest:
    """Sampling with an EAGLE-3 draft loaded: refused (400) unless the request or the server allows greedy.

    OpenVINO GenAI decodes EAGLE-3 pipelines greedily only, so honouring ``temperature`` is impossible.
    Refusing is the default because silently ignoring a parameter makes answers differ from what the
    client asked for; ``"greedy_fallback": true`` in the request (or ``--greedy-fallback`` on the server,
    for clients that always send a temperature) serves it greedily, and the response says so.
    """
    if not (model.has_draft and request.temperature):
        return request
    if allow is not None and not isinstance(allow, bool):
        raise invalid("'greedy_fallback' must be true or false.", param="greedy_fallback")
    if allow or (allow is None and limits.greedy_fallback):
        return replace(request, sampling_ignored=True)
    raise ApiError(
        400,
        f"Sampling (temperature {request.temperature:g}) is not available: this server runs an EAGLE-3 "
        "draft model, and OpenVINO GenAI decodes EAGLE-3 greedily only. Send temperature 0 (or leave it "
        "out) for greedy output, or add \"greedy_fallback\": true to have this request served greedily.",
        param="temperature", code="sampling_unsupported_with_draft",
    )


# --- field checks ---------------------------------------------------------------------------------------
def _object(body: object, fields: set[str]) -> dict:
    if not isinstance(body, dict):
        raise invalid("The request body must be a JSON object.")
    unknown = sorted(set(body) - fields)
    if unknown:
        raise invalid(f"Unrecognized request argument supplied: {', '.join(unknown)}", param=unknown[0],
                      code="unknown_parameter")
    return body


def _request(data: dict, kind: str, prompt, model: ServedModel, limits: Limits, max_tokens: int, *,
             thinking: bool | None) -> CompletionRequest:
    name = data.get("model")
    if not isinstance(name, str) or not name:
        raise invalid("'model' is required: send the id that GET /v1/models lists.", param="model")
    if name != model.id:
        raise ApiError(404, f"The model '{name}' does not exist here; this server serves '{model.id}'.",
                       param="model", code="model_not_found")
    stream = _bool(data, "stream", False)
    options = data.get("stream_options")
    if options is not None and (not isinstance(options, dict)
                                or set(options) - {"include_usage", "continuous_usage_stats"}):
        raise invalid("'stream_options' may only hold include_usage and continuous_usage_stats.",
                      param="stream_options")
    if data.get("n") not in (None, 1):
        raise invalid("Only n=1 is supported.", param="n")
    for name_ in ("presence_penalty", "frequency_penalty"):
        if _number(data, name_, -2.0, 2.0) not in (None, 0.0):
            raise invalid(f"'{name_}' is not supported by this server (send 0 or leave it out).", param=name_)
    if data.get("logit_bias") not in (None, {}):
        raise invalid("'logit_bias' is not supported by this server.", param="logit_bias")
    k = data.get("num_assistant_tokens")
    if k is not None:
        if not _is_int(k) or not 0 <= k <= MAX_ASSISTANT_TOKENS:
            raise invalid(f"'num_assistant_tokens' must be an integer from 0 to {MAX_ASSISTANT_TOKENS}.",
                          param="num_assistant_tokens")
        if k and not model.has_draft:
            raise invalid("This server has no EAGLE-3 draft loaded; num_assistant_tokens must be 0.",
                          param="num_assistant_tokens")
    request = CompletionRequest(
        kind=kind, model=name, prompt=prompt, stream=stream,
        include_usage=bool(stream and options and options.get("include_usage")),
        max_tokens=max_tokens, stop=_stop(data.get("stop")),
        temperature=_number(data, "temperature", 0.0, 2.0), top_p=_number(data, "top_p", 0.0, 1.0),
        num_assistant_tokens=k, thinking=thinking,
        continuous_usage=bool(stream and options and options.get("continuous_usage_stats")),
    )
    return check_sampling(request, model, limits, data.get("greedy_fallback"))


def _messages(value: object) -> list[dict]:
    if not isinstance(value, list) or not value:
        raise invalid("'messages' must be a non-empty list.", param="messages")
    messages = []
    for i, message in enumerate(value):
        where = f"messages[{i}]"
        if not isinstance(message, dict):
            raise invalid(f"{where} must be an object with 'role' and 'content'.", param=where)
        unknown = sorted(set(message) - MESSAGE_FIELDS)
        if unknown:
            raise invalid(f"Unrecognized argument in {where}: {', '.join(unknown)} (tool calls are not "
                          "supported).", param=f"{where}.{unknown[0]}")
        role = ROLES.get(message.get("role"))
        if role is None:
            raise invalid(f"{where}.role must be system, developer, user or assistant.", param=f"{where}.role")
        messages.append({"role": role, "content": _content(message.get("content"), role, where)})
    if not any(m["role"] == "user" and m["content"].strip() for m in messages):
        raise invalid("'messages' needs at least one user message with text.", param="messages")
    return messages


def _content(value: object, role: str, where: str) -> str:
    if isinstance(value, str):
        return value
    if value is None and role == "assistant":
        return ""
    if isinstance(value, list):
        texts = []
        for part in value:
            if not isinstance(part, dict) or part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise invalid(f"{where}.content: only text parts are supported (no images or audio).",
                              param=f"{where}.content")
            texts.append(part["text"])
        return "\n".join(texts)
    raise invalid(f"{where}.content must be a string or a list of text parts.", param=f"{where}.content")


def _thinking(data: dict) -> bool | None:
    kwargs = data.get("chat_template_kwargs")
    if kwargs is not None:
        if not isinstance(kwargs, dict) or set(kwargs) - {"enable_thinking"}:
            raise invalid("'chat_template_kwargs' may only hold enable_thinking.", param="chat_template_kwargs")
        if "enable_thinking" in kwargs:
            return _bool(kwargs, "enable_thinking", None)
    effort = data.get("reasoning_effort")
    if effort is None:
        return None
    if effort not in ("none", "minimal", "low", "medium", "high"):
        raise invalid("'reasoning_effort' must be none, minimal, low, medium or high.", param="reasoning_effort")
    return effort != "none"


def _max_tokens(value: object, name: str, limits: Limits) -> int:
    if value is None:
        return limits.max_tokens
    if not _is_int(value) or value < 1:
        raise invalid(f"'{name}' must be a positive integer.", param=name)
    return min(int(value), limits.max_tokens)


def _stop(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    stops = [value] if isinstance(value, str) else value
    if not isinstance(stops, list) or len(stops) > MAX_STOP_SEQUENCES or not all(isinstance(s, str) for s in stops):
        raise invalid(f"'stop' must be a string or a list of at most {MAX_STOP_SEQUENCES} strings.", param="stop")
    return tuple(s for s in stops if s)


def _bool(data: dict, name: str, default):
    value = data.get(name, default)
    if value is not None and not isinstance(value, bool):
        raise invalid(f"'{name}' must be true or false.", param=name)
    return default if value is None else value


def _number(data: dict, name: str, low: float, high: float) -> float | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise invalid(f"'{name}' must be a number.", param=name)
    if not low <= value <= high:
        raise invalid(f"'{name}' must be between {low:g} and {high:g}.", param=name)
    return float(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
