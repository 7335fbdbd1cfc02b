"""What an API request asks for, checked field by field: OpenAI's chat and text completion bodies.

Strict about what would change the answer, lenient about the rest. Unknown fields are refused (OpenAI
answers them with "Unrecognized request argument supplied"); known ones this server cannot honour, and
would silently answer differently without, are refused with the reason (``logprobs``, ``n`` > 1,
``verbosity`` other than medium …); tools and ``response_format`` are checked in :mod:`tool_fields`; the ones that change nothing here are accepted and
ignored (:data:`IGNORED`, listed with what each does here in the README). Extensions, named as OpenVINO
Model Server names them: ``num_assistant_tokens`` (EAGLE-3 draft tokens per step; 0 = plain decoding),
``chat_template_kwargs`` (``{"enable_thinking": false}``), and ``greedy_fallback`` (see
:func:`check_sampling`). Every refusal names the field (``messages[2].role``); see also :mod:`fields`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from eagle_chat.core.generation.engine import MAX_ASSISTANT_TOKENS, GenerationSettings
from eagle_chat.core.generation import speculation
from eagle_chat.core.generation.structured import stops_drafting
from eagle_chat.core.serving.errors import ApiError, invalid
from eagle_chat.core.serving.fields import bool_field, check_tree, is_int, number_field, printable, text_field
from eagle_chat.core.serving.tool_fields import ToolUse, assistant_calls, tool_message, tool_use

MAX_STOP_SEQUENCES = 4
MAX_PROMPTS = 32  # a list of prompts in one /v1/completions request (LangChain's OpenAI.batch sends up to 20)
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")  # any but none: thinking on
ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant", "tool": "tool"}
# Accepted and ignored: they change nothing in the answer here (the README says what each does).
IGNORED = {
    "user", "safety_identifier", "metadata", "store", "service_tier", "prompt_cache_key",
    "prompt_cache_options", "prompt_cache_retention", "prediction", "modalities",
}
_COMMON = IGNORED | {
    "model", "stream", "stream_options", "max_tokens", "temperature", "top_p", "seed", "n", "stop",
    "presence_penalty", "frequency_penalty", "logit_bias", "num_assistant_tokens", "greedy_fallback",
    "speculation",
}
CHAT_FIELDS = _COMMON | {
    "messages", "max_completion_tokens", "logprobs", "top_logprobs", "response_format", "tools", "tool_choice",
    "functions", "function_call", "reasoning_effort", "chat_template_kwargs", "verbosity", "audio", "moderation",
    "web_search_options", "parallel_tool_calls",
}
TEXT_FIELDS = _COMMON | {"prompt", "logprobs", "echo", "best_of", "suffix"}
STREAM_OPTIONS = {"include_usage", "continuous_usage_stats", "include_obfuscation"}
# ``cache_control`` ({"type": "ephemeral"}): the prompt-caching mark litellm (its cache_control_injection_points)
# and LangChain pass on to any OpenAI-compatible server, on a message or on a text part. Prefix caching is
# automatic here, so it changes nothing, like OpenAI's own ``prompt_cache_breakpoint``.
MESSAGE_FIELDS = {"role", "content", "name", "reasoning_content", "refusal", "tool_calls", "tool_call_id",
                  "function_call", "audio", "cache_control"}
PART_FIELDS = {"type", "text", "prompt_cache_breakpoint", "cache_control"}
# Fields that would change the answer: only these values (the ones that ask for nothing) are accepted.
_NOTHING = {
    "logprobs": (None, False), "top_logprobs": (None, 0), "functions": (None, []),
    "function_call": (None, "none", "auto"), "audio": (None,),
    "moderation": (None,), "web_search_options": (None,), "verbosity": (None, "medium"),
    "logit_bias": (None, {}),
}
_TEXT_NOTHING = {"logprobs": (None, 0), "echo": (None, False), "best_of": (None, 1), "suffix": (None, "")}


@dataclass(frozen=True)
class ServedModel:
    """What ``/v1/models`` lists and requests are checked against."""

    id: str
    has_draft: bool
    device: str
    draft: str | None = None
    supports_thinking: bool = False
    created: int = 0
    supports_tools: bool = False  # the chat template has a tools branch (tool_template.takes_tools)
    context_length: int | None = None  # prompt + reply tokens one request may take (the context budget)
    max_prompt_tokens: int | None = None  # of which at most this many prompt tokens
    draft_reduced_vocab: bool = False  # the draft predicts over part of the vocabulary (a d2t map)

    @property
    def methods(self) -> tuple[str, ...]:
        """The speculative methods this server's pair runs (``speculation.offered``)."""
        return speculation.offered(draft_kind=speculation.EAGLE3 if self.has_draft else None, device=self.device)


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
    batch: tuple[str, ...] = ()  # /v1/completions given a list of prompts: answered one after another
    tool_use: ToolUse = ToolUse()  # tools, tool_choice and response_format (chat only)
    speculation: str | None = None  # the method asked for ("auto", "eagle3", "prompt_lookup", …); None: the server's
    seed: int | None = None  # a sampled reply's random seed: the same seed, prompt and settings give the same reply

    @property
    def sampling(self) -> bool:
        return bool(self.temperature) and not self.sampling_ignored

    @property
    def messages(self) -> list[dict]:
        """A chat request's messages, each a dict of its own (a text request has none)."""
        return [] if isinstance(self.prompt, str) else [dict(m) for m in self.prompt]

    def settings(self, defaults: GenerationSettings, has_draft: bool, draft_reduced_vocab: bool = False) -> GenerationSettings:
        """The engine settings for this request, starting from the server's (or the window's) defaults.

        A grammar with a reduced-vocabulary (d2t) draft runs without drafting: GenAI 2026.4.1 applies the
        grammar's mask to the draft's logits in the target's id space, which accepted next to no draft tokens,
        changed the output against plain decoding and corrupted the heap (an abort within a few replies on the
        tiny d2t pair; ``benchmarks/grammar_drafting.py``)."""
        settings = replace(
            defaults, max_new_tokens=self.max_tokens, do_sample=self.sampling,
            temperature=self.temperature if self.sampling and self.temperature is not None else defaults.temperature,
            top_p=self.top_p if self.sampling and self.top_p is not None else 1.0, seed=self.seed,
            thinking=self.thinking if self.thinking is not None else defaults.thinking,
            chat_template=self.kind == "chat", tools=self.tool_use.tools, constraint=self.tool_use.constraint,
        )
        if self.tool_use.constraint is not None and settings.thinking is None:  # the grammar leaves no room for <think>
            settings = replace(settings, thinking=False)
        if self.num_assistant_tokens == 0:
            settings = replace(settings, speculative=False)
        elif self.num_assistant_tokens is not None:
            settings = replace(settings, speculative=True, num_assistant_tokens=self.num_assistant_tokens,
                               tree_depth=0, branching_factor=0)
        if self.speculation is not None:
            settings = replace(settings, method=self.speculation, speculative=settings.speculative
                               and self.speculation != speculation.OFF)
        unsafe = stops_drafting(self.tool_use.constraint, draft_reduced_vocab)
        without_draft = settings.method in (speculation.AUTO, speculation.PROMPT_LOOKUP)  # prompt lookup needs none
        return replace(settings, speculative=settings.speculative and (has_draft or without_draft) and not unsafe)


def parse_chat(body: object, model: ServedModel, limits: Limits) -> CompletionRequest:
    """A ``POST /v1/chat/completions`` body → a checked request; raises ApiError (400/404)."""
    data = _object(body, CHAT_FIELDS)
    messages = _messages(data.get("messages"))
    _refuse_what_changes_the_answer(data, _NOTHING)
    use = tool_use(data, model.supports_tools, any(m["role"] == "tool" or m.get("tool_calls") for m in messages))
    modalities = data.get("modalities")
    if modalities is not None and modalities != ["text"]:
        raise invalid("Only text output is supported: send \"modalities\": [\"text\"] or leave it out.",
                      param="modalities")
    max_tokens = data.get("max_completion_tokens")
    name = "max_completion_tokens"
    if max_tokens is None:
        max_tokens, name = data.get("max_tokens"), "max_tokens"
    request = _request(data, "chat", tuple(messages), model, limits, _max_tokens(max_tokens, name, limits),
                       thinking=_thinking(data))
    return replace(request, tool_use=use)


def parse_completion(body: object, model: ServedModel, limits: Limits) -> CompletionRequest:
    """A ``POST /v1/completions`` body (a plain prompt, no chat template) → a checked request."""
    data = _object(body, TEXT_FIELDS)
    prompts = data.get("prompt")
    if isinstance(prompts, str):
        prompts = [prompts]
    if not isinstance(prompts, list) or not 1 <= len(prompts) <= MAX_PROMPTS \
            or not all(isinstance(p, str) for p in prompts):
        raise invalid(f"'prompt' must be a string or a list of 1 to {MAX_PROMPTS} strings (token arrays are not "
                      "supported).", param="prompt")
    for i, prompt in enumerate(prompts):
        if not prompt.strip():
            raise invalid("'prompt' is empty." if len(prompts) == 1 else f"'prompt[{i}]' is empty.",
                          param="prompt" if len(prompts) == 1 else f"prompt[{i}]")
    if len(prompts) > 1 and data.get("stream") is True:
        raise invalid("A list of prompts is answered whole: send \"stream\": false, or one prompt per streamed "
                      "request.", param="stream")
    _refuse_what_changes_the_answer(data, _TEXT_NOTHING)
    if data.get("logit_bias") not in (None, {}):
        raise invalid("'logit_bias' is not supported by this server.", param="logit_bias")
    request = _request(data, "text", prompts[0], model, limits,
                       _max_tokens(data.get("max_tokens"), "max_tokens", limits), thinking=None)
    return replace(request, batch=tuple(prompts)) if len(prompts) > 1 else request


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
    check_tree(body)
    unknown = sorted(set(body) - fields)
    if unknown:
        raise invalid(f"Unrecognized request argument supplied: {', '.join(unknown)}", param=unknown[0],
                      code="unknown_parameter")
    return body


def _asks_nothing(value: object, allowed: tuple) -> bool:
    """``value`` is one of ``allowed`` with the same type (``true`` is not ``1``, ``0`` is not ``false``)."""
    return any(value is None if a is None else type(value) is type(a) and value == a for a in allowed)


def _refuse_what_changes_the_answer(data: dict, nothing: dict[str, tuple]) -> None:
    for name, allowed in nothing.items():
        if not _asks_nothing(data.get(name), allowed):
            shown = " or ".join(json.dumps(a) for a in allowed)
            raise invalid(f"'{name}' is not supported by this server (send {shown}, or leave it out).", param=name)


def _request(data: dict, kind: str, prompt, model: ServedModel, limits: Limits, max_tokens: int, *,
             thinking: bool | None) -> CompletionRequest:
    name = data.get("model")
    if not isinstance(name, str) or not name:
        raise invalid("'model' is required: send the id that GET /v1/models lists.", param="model")
    if name != model.id:
        raise ApiError(404, f"The model '{name}' does not exist here; this server serves '{model.id}'.",
                       param="model", code="model_not_found")
    stream = bool_field(data, "stream", False)
    options = data.get("stream_options")
    if options is not None:
        if not isinstance(options, dict) or set(options) - STREAM_OPTIONS:
            raise invalid(f"'stream_options' may only hold {', '.join(sorted(STREAM_OPTIONS))}.",
                          param="stream_options")
        for option in options:
            bool_field(options, option, None, where="stream_options.")
    if not _asks_nothing(data.get("n"), (None, 1)):
        raise invalid("Only n=1 is supported.", param="n")
    for name_ in ("presence_penalty", "frequency_penalty"):
        if number_field(data, name_, -2.0, 2.0) not in (None, 0.0):
            raise invalid(f"'{name_}' is not supported by this server (send 0 or leave it out).", param=name_)
    k = data.get("num_assistant_tokens")
    if k is not None:
        if not is_int(k) or not 0 <= k <= MAX_ASSISTANT_TOKENS:
            raise invalid(f"'num_assistant_tokens' must be an integer from 0 to {MAX_ASSISTANT_TOKENS}.",
                          param="num_assistant_tokens")
        if k and model.methods == (speculation.OFF,):
            raise invalid("This server has no speculative method here; num_assistant_tokens must be 0.",
                          param="num_assistant_tokens")
    method = data.get("speculation")
    if method is not None and method not in (speculation.AUTO, *model.methods):
        known = method in speculation.METHODS
        raise invalid(f"'speculation' {'is not available here' if known else 'is unknown'}: this server offers "
                      f"{', '.join((speculation.AUTO, *model.methods))}.", param="speculation")
    request = CompletionRequest(
        kind=kind, model=name, prompt=prompt, stream=stream,
        include_usage=bool(stream and options and options.get("include_usage")),
        max_tokens=max_tokens, stop=_stop(data.get("stop")),
        temperature=number_field(data, "temperature", 0.0, 2.0), top_p=number_field(data, "top_p", 0.0, 1.0),
        num_assistant_tokens=k, thinking=thinking, speculation=method, seed=_seed(data.get("seed")),
        continuous_usage=bool(stream and options and options.get("continuous_usage_stats")),
    )
    return check_sampling(request, model, limits, data.get("greedy_fallback"))


def _seed(value: object) -> int | None:
    if value is not None and not is_int(value):
        raise invalid("'seed' must be an integer.", param="seed")
    return value


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
            raise invalid(f"Unrecognized argument in {where}: {', '.join(unknown)}.", param=f"{where}.{unknown[0]}")
        role = message.get("role")
        role = ROLES.get(role) if isinstance(role, str) else None
        if role is None:
            raise invalid(f"{where}.role must be system, developer, user, assistant or tool.", param=f"{where}.role")
        for field_ in ("name", "refusal"):
            text_field(message.get(field_), f"{where}.{field_}")
        if message.get("function_call") is not None:
            raise invalid(f"{where}.function_call: the deprecated function_call is not supported; send tool_calls.",
                          param=f"{where}.function_call")
        calls = message.get("tool_calls")
        if calls not in (None, []) and role != "assistant":
            raise invalid(f"{where}.tool_calls: only assistant messages hold tool calls.", param=f"{where}.tool_calls")
        if message.get("audio") is not None:
            raise invalid(f"{where}.audio: audio is not supported by this server.", param=f"{where}.audio")
        _cache_mark(message, where)
        content = _content(message.get("content"), role, where)
        if role == "tool":
            messages.append(tool_message(message, where, content))
        elif calls:
            messages.append({"role": role, "content": content, "tool_calls": assistant_calls(calls, where)})
        else:
            messages.append({"role": role, "content": content})
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
        for j, part in enumerate(value):
            at = f"{where}.content[{j}]"
            if not isinstance(part, dict) or part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise invalid(f"{at}: only text parts are supported (no images or audio).", param=at)
            if set(part) - PART_FIELDS:
                extra = printable(", ".join(sorted(set(part) - PART_FIELDS)))
                raise invalid(f"Unrecognized argument in {at}: {extra}.", param=at)
            _cache_mark(part, at)
            texts.append(part["text"])
        return "\n".join(texts)
    raise invalid(f"{where}.content must be a string or a list of text parts.", param=f"{where}.content")


def _cache_mark(holder: dict, where: str) -> None:
    """A ``cache_control`` mark is accepted and ignored, but only in its shape: an object (or null)."""
    if holder.get("cache_control") is not None and not isinstance(holder["cache_control"], dict):
        raise invalid(f"{where}.cache_control must be an object such as {{\"type\": \"ephemeral\"}}.",
                      param=f"{where}.cache_control")


def _thinking(data: dict) -> bool | None:
    kwargs = data.get("chat_template_kwargs")
    if kwargs is not None:
        if not isinstance(kwargs, dict) or set(kwargs) - {"enable_thinking"}:
            raise invalid("'chat_template_kwargs' may only hold enable_thinking.", param="chat_template_kwargs")
        if "enable_thinking" in kwargs:
            return bool_field(kwargs, "enable_thinking", None, where="chat_template_kwargs.")
    effort = data.get("reasoning_effort")
    if effort is None:
        return None
    if not isinstance(effort, str) or effort not in REASONING_EFFORTS:
        raise invalid(f"'reasoning_effort' must be one of {', '.join(REASONING_EFFORTS)}.",
                      param="reasoning_effort")
    return effort != "none"


def _max_tokens(value: object, name: str, limits: Limits) -> int:
    if value is None:
        return limits.max_tokens
    if not is_int(value) or value < 1:
        raise invalid(f"'{name}' must be a positive integer.", param=name)
    return min(int(value), limits.max_tokens)


def _stop(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    stops = [value] if isinstance(value, str) else value
    if not isinstance(stops, list) or len(stops) > MAX_STOP_SEQUENCES or not all(isinstance(s, str) for s in stops):
        raise invalid(f"'stop' must be a string or a list of at most {MAX_STOP_SEQUENCES} strings.", param="stop")
    return tuple(s for s in stops if s)
