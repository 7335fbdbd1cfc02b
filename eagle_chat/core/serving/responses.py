"""Response bodies in OpenAI's shapes, the speculative figures beside them, and SSE framing.

Every finished response carries two extra objects a client can look for:

- ``eagle_chat``: the speculative-decoding figures of this reply (``mode``, ``num_assistant_tokens`` =
  K, ``tree``, ``accepted_tokens``, ``draft_tokens``, ``acceptance``, ``tokens_per_step``,
  ``tokens_per_s``, ``ttft_ms``, ``tpot_ms``, ``generate_ms``, ``queue_ms``, ``device``, ``stopped``,
  ``cut``, ``sampling``, ``draft_skipped``: why a reply ran without the loaded draft, e.g. a one-token prompt;
  ``grammar``: the grammar the reply was held to (``tool_call``, ``json_object``, ``json_schema``, or null),
  ``prefilled_tokens``: how many of the prompt's first tokens the next-turn prefill had run just before this
  request (after each chat reply the server prefills the conversation for its next turn; 0: none did),
  ``drafting_limited_by_grammar``: true when that grammar meets a reduced-vocabulary (d2t) draft: the reply
  then runs without drafting (GenAI 2026.4.1 masks the draft in the wrong id space: next to no tokens
  accepted, output unlike plain decoding, heap corruption), ``draft_skipped`` says so; and, when there is
  something to say,
  ``tool_call_errors`` (calls whose arguments are not valid JSON) and ``schema_valid``);
- ``timings``: the same in llama.cpp server's names (``draft_n``, ``draft_n_accepted``,
  ``predicted_per_second`` …), which some clients already read.

Streamed, they ride on the chunk that carries ``finish_reason`` (and on the usage chunk, if asked for).
"""

from __future__ import annotations

import json
import math
import time
import uuid
from dataclasses import dataclass
from typing import Any

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.generation.structured import GRAMMAR_D2T_REASON
from eagle_chat.core.serving.requests import ServedModel

SSE_DONE = b"data: [DONE]\n\n"
SSE_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


def sse(payload: dict) -> bytes:
    """One server-sent event carrying ``payload`` as JSON."""
    return b"data: " + dumps(payload) + b"\n\n"


def dumps(payload: dict) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True)
class ReplyIdentity:
    """What every chunk and the final object of one response share."""

    kind: str  # "chat" or "text"
    model: str
    id: str
    created: int

    @classmethod
    def new(cls, kind: str, model: str) -> "ReplyIdentity":
        prefix = "chatcmpl-" if kind == "chat" else "cmpl-"
        return cls(kind, model, prefix + uuid.uuid4().hex[:24], int(time.time()))

    @property
    def chunk_object(self) -> str:
        return "chat.completion.chunk" if self.kind == "chat" else "text_completion"


def finish_reason(stats: GenerationStats, max_tokens: int, stop_hit: bool, cut: str | None = None) -> str:
    """``stop`` (the model ended, or a stop sequence matched), else ``length``: ``max_tokens`` was reached, or
    the server cut the reply short (``cut``: its shutdown deadline, the window's Stop). ``length`` is the one
    value of OpenAI's that clients read as "this text is incomplete"; the ``eagle_chat.cut`` field says why."""
    if stop_hit:
        return "stop"
    return "length" if cut or stats.generated_tokens >= max_tokens else "stop"


def usage(stats: GenerationStats) -> dict:
    prompt, completion = int(stats.input_tokens), int(stats.generated_tokens)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": int(getattr(stats, "cached_tokens", 0) or 0)}}


def figures(stats: GenerationStats, *, queue_ms: float, sampling_ignored: bool = False,
            cut: str | None = None, output: dict | None = None) -> dict:
    """The ``eagle_chat`` object: what EAGLE-3 did for this reply (``output``: the grammar and checks, see
    :func:`output_figures`)."""
    speculative = stats.mode == "speculative"
    return {
        "mode": stats.mode,
        "method": stats.speculation,  # how it speculated: "off", "eagle3", "prompt_lookup", "dflash", "mtp"
        "method_kind": stats.method_kind,  # the kind of work the automatic choice saw ("code_edit", "prose", …)
        "method_basis": stats.method_basis,  # why that method: "asked", "table", "measured", "overlap", "trying"
        "num_assistant_tokens": stats.num_assistant_tokens if speculative else 0,
        "tree": stats.tree,
        "accepted_tokens": stats.accepted_tokens if speculative else 0,
        "draft_tokens": stats.draft_tokens if speculative else 0,
        "acceptance": _number(stats.acceptance),
        "tokens_per_step": _number(stats.tokens_per_step),
        "tokens_per_s": _number(stats.tokens_per_s),
        "ttft_ms": _number(stats.ttft_ms),
        "tpot_ms": _number(stats.tpot_ms),
        "generate_ms": _number(stats.duration_ms),
        "queue_ms": round(queue_ms, 3),
        "device": stats.device,
        "stopped": bool(stats.stopped),
        "cut": cut,  # "shutdown" or "stopped" when the server ended the reply early (finish_reason "length")
        "sampling": "greedy (temperature ignored: EAGLE-3 decodes greedily)" if sampling_ignored else None,
        "draft_skipped": stats.draft_skipped,  # why this reply ran without the loaded draft (a one-token prompt)
        "prefilled_tokens": stats.prefilled_tokens,  # of the prompt, run ahead by the next-turn prefill before it
        **(output or {}),
    }


GRAMMAR_WITH_D2T = GRAMMAR_D2T_REASON  # the engine's draft_skipped for such a reply, word for word


def output_figures(grammar: str | None, model: ServedModel, stats: GenerationStats, *,
                   tool_call_errors: list[str] | None = None, schema_valid: bool | None = None) -> dict:
    """The grammar a reply was held to, what it did to drafting, and what is wrong with the output, if anything."""
    limited = bool(grammar and model.draft_reduced_vocab and model.has_draft)
    more: dict = {"grammar": grammar, "drafting_limited_by_grammar": limited}
    if limited:
        more["draft_skipped"] = GRAMMAR_WITH_D2T
    if tool_call_errors:
        more["tool_call_errors"] = tool_call_errors
    if schema_valid is not None:
        more["schema_valid"] = schema_valid
    return more


def timings(stats: GenerationStats) -> dict:
    """llama.cpp server's ``timings`` names for the same figures."""
    speculative = stats.mode == "speculative"
    decode_ms = max(0.0, (_number(stats.duration_ms) or 0.0) - (_number(stats.ttft_ms) or 0.0))
    return {
        "prompt_n": int(stats.input_tokens),
        "prompt_ms": _number(stats.ttft_ms),
        "predicted_n": int(stats.generated_tokens),
        "predicted_ms": round(decode_ms, 3),
        "predicted_per_token_ms": _number(stats.tpot_ms),
        "predicted_per_second": _number(stats.tokens_per_s),
        "draft_n": stats.draft_tokens if speculative else 0,
        "draft_n_accepted": stats.accepted_tokens if speculative else 0,
    }


def extras(stats: GenerationStats, *, queue_ms: float, sampling_ignored: bool = False, cut: str | None = None,
           output: dict | None = None) -> dict:
    return {"eagle_chat": figures(stats, queue_ms=queue_ms, sampling_ignored=sampling_ignored, cut=cut, output=output),
            "timings": timings(stats)}


def chunk(reply: ReplyIdentity, *, content: str | None = None, reasoning: str | None = None,
          role: bool = False, finish: str | None = None, tool_calls: list[dict] | None = None) -> dict:
    """One streamed chunk; the delta holds only what is set (``tool_calls``: whole calls, see :mod:`reply_text`)."""
    if reply.kind == "chat":
        delta: dict = {}
        if role:
            delta["role"] = "assistant"
        if reasoning:
            delta["reasoning_content"] = reasoning
        if content is not None:
            delta["content"] = content
        if tool_calls:
            delta["tool_calls"] = tool_calls
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    else:
        choice = {"index": 0, "text": content or "", "logprobs": None, "finish_reason": finish}
    return {"id": reply.id, "object": reply.chunk_object, "created": reply.created, "model": reply.model,
            "system_fingerprint": None, "choices": [choice]}


def usage_chunk(reply: ReplyIdentity, stats: GenerationStats, more: dict) -> dict:
    """The last chunk when ``stream_options.include_usage`` is set: no choices, the usage."""
    return {"id": reply.id, "object": reply.chunk_object, "created": reply.created, "model": reply.model,
            "system_fingerprint": None, "choices": [], "usage": usage(stats), **more}


def message_calls(calls) -> list[dict]:
    return [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in calls]


def completion(reply: ReplyIdentity, *, content: str, reasoning: str | None, finish: str,
               stats: GenerationStats, more: dict, tool_calls: list | None = None) -> dict:
    """The whole (non-streamed) response; with tool calls, content is null unless there was prose."""
    if reply.kind == "chat":
        message: dict[str, Any] = {"role": "assistant", "content": content if content or not tool_calls else None}
        if reasoning is not None:
            message["reasoning_content"] = reasoning
        if tool_calls:
            message["tool_calls"] = message_calls(tool_calls)
        choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": finish}
        obj = "chat.completion"
    else:
        choice = {"index": 0, "text": content, "logprobs": None, "finish_reason": finish}
        obj = "text_completion"
    return {"id": reply.id, "object": obj, "created": reply.created, "model": reply.model,
            "system_fingerprint": None, "choices": [choice], "usage": usage(stats), **more}


def batched(bodies: list[dict]) -> dict:
    """Whole responses to a list of prompts → one, as OpenAI answers a list: a choice per prompt (``index`` =
    its place), the usage summed. Each choice carries its own reply's ``eagle_chat`` and ``timings``."""
    choices = [{**body["choices"][0], "index": i, "eagle_chat": body["eagle_chat"], "timings": body["timings"]}
               for i, body in enumerate(bodies)]
    total: dict[str, Any] = {key: sum(body["usage"][key] for body in bodies) for key in ("prompt_tokens",
                             "completion_tokens", "total_tokens")}
    total["prompt_tokens_details"] = {"cached_tokens": sum(b["usage"]["prompt_tokens_details"]["cached_tokens"]
                                                           for b in bodies)}
    first = {key: value for key, value in bodies[0].items() if key not in ("eagle_chat", "timings")}
    return {**first, "choices": choices, "usage": total}


def models_list(model: ServedModel | None) -> dict:
    data = []
    if model is not None:
        data.append({
            "id": model.id, "object": "model", "created": model.created, "owned_by": "eagle-chat",
            # OpenCode reads context_length, Cline and vLLM's clients max_model_len: prompt + reply tokens
            "context_length": model.context_length, "max_model_len": model.context_length,
            "capabilities": {"tools": model.supports_tools, "reasoning": model.supports_thinking,
                             "structured_output": True, "speculative_decoding": model.has_draft},
            "eagle_chat": {"draft": model.draft, "device": model.device,
                           "supports_thinking": model.supports_thinking, "max_prompt_tokens": model.max_prompt_tokens,
                           "draft_reduced_vocabulary": model.draft_reduced_vocab,
                           "speculation": ["auto", *model.methods]},
        })
    return {"object": "list", "data": data}


def _number(value) -> float | None:
    if value is None:
        return None
    value = float(value)
    return round(value, 3) if math.isfinite(value) else None
