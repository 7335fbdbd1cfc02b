"""Speed figures: a live rate meter over streamed chunks, and the numbers OpenVINO GenAI reports.

OpenVINO has no per-token timestamp callback, so the live chart is built from the times the streamer is
called; the final figures (TTFT, TPOT, throughput, acceptance) come from GenAI's own perf metrics.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field, fields

from eagle_chat.core.generation.steps import StepRecord, histogram_text


@dataclass(frozen=True)
class Chunk:
    """A piece of streamed text: ``tokens`` is the running token count, ``t`` seconds since the request,
    ``steps`` the steps recorded since the previous chunk as ``(tokens, drafted_chars, own_chars)``."""

    text: str
    tokens: int
    t: float
    steps: tuple[tuple[int, int | None, int | None], ...] = ()


@dataclass
class GenerationStats:
    """The figures of one reply. Times in ms; ``acceptance`` is None for a plain (baseline) reply."""

    mode: str  # "speculative" or "baseline"
    num_assistant_tokens: int
    generated_tokens: int
    input_tokens: int
    ttft_ms: float
    tpot_ms: float
    tokens_per_s: float
    duration_ms: float
    accepted_tokens: int | None = 0  # None: a remote server that does not say
    draft_tokens: int | None = 0
    acceptance: float | None = None
    tokens_per_step: float | None = None
    load_time_ms: float | None = None
    stopped: bool = False
    device: str = "CPU"
    tree: str | None = None  # "DEPTHxBRANCHING" when EAGLE-3 drafted a tree
    thinking_tokens: int | None = None  # of generated_tokens, those inside <think>…</think> (None: no thinking)
    thinking_ms: float | None = None  # from the request until the answer began
    runs: int = 1  # generations this reply took (a continued reply: 2 or more)
    draft_skipped: str | None = None  # why a reply with a draft loaded was decoded without it (short_prompt)
    drafting_off_by_grammar: bool = False  # a grammar met a reduced-vocabulary draft (structured.stops_drafting)
    steps: StepRecord | None = None  # tokens and characters per target step (see core.generation.steps)
    # The context budget: prompt tokens the earlier turns took, and how many earlier messages were left out.
    history_tokens: int | None = None
    history_dropped: int = 0
    # Prompt tokens the next-turn prefill just before this reply had run (core.generation.prefill; None: a prefill)
    prefilled_tokens: int | None = None
    cached_tokens: int = 0  # prompt tokens prefix caching served, in whole KV blocks (core.generation.prefix_record)
    # How the reply speculated (core.generation.speculation): "off", "eagle3", "prompt_lookup", …; "" in replies
    # stored before methods existed (``speculation`` reads those from ``mode``), and the kind and basis of the choice.
    method: str = ""
    method_kind: str | None = None
    method_basis: str | None = None

    @property
    def speculation(self) -> str:
        """The method, also for a reply stored before methods were named."""
        return self.method or ("eagle3" if self.mode == "speculative" else "off")

    @property
    def answer_tokens(self) -> int:
        return self.generated_tokens - (self.thinking_tokens or 0)

    @property
    def max_accepted(self) -> int:
        """The most draft tokens one step can accept: K for a chain, the depth for a tree."""
        if self.tree:
            depth = self.tree.split("x")[0]
            if depth.isdigit():
                return int(depth)
        return self.num_assistant_tokens

    def step_columns(self) -> dict:
        """The step record's summary in flat columns (CSV): steps, mean accepted length, histogram."""
        steps = self.steps
        if steps is None:
            return {"verification_steps": None, "mean_accepted": None, "accepted_histogram": None}
        return {"verification_steps": steps.verification_steps, "mean_accepted": steps.mean_accepted(),
                "accepted_histogram": histogram_text(steps.histogram(self.max_accepted))}

    def to_dict(self) -> dict:
        """Plain data for JSON; the step record in its compact form (``steps``, ``step_chars``)."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "steps"}
        data = {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in data.items()}
        data["steps"] = self.steps.encode_sizes() if self.steps is not None else None
        data["step_chars"] = self.steps.encode_chars() if self.steps is not None else None
        return data

    @classmethod
    def from_dict(cls, data: dict) -> GenerationStats:
        known = {f for f in cls.__dataclass_fields__} - {"steps"}
        stats = cls(**{k: v for k, v in data.items() if k in known})
        stats.steps = StepRecord.decode(data.get("steps"), data.get("step_chars"))
        return stats


@dataclass
class RateMeter:
    """Tokens/s over a sliding window of streamed chunks, for the live chart.

    Feed it ``(t, cumulative_tokens)`` as chunks arrive; ``rate()`` is tokens per second over the last
    ``window_s`` seconds (or since the first token, early on), ``average()`` over the whole reply after
    the first token — the same definition as GenAI's throughput (TTFT excluded).
    """

    window_s: float = 0.5
    times: list[float] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)

    def add(self, t: float, cumulative_tokens: int) -> None:
        self.times.append(t)
        self.tokens.append(cumulative_tokens)

    def rate(self) -> float:
        if len(self.times) < 2:
            return 0.0
        t_end = self.times[-1]
        start = max(0, bisect_left(self.times, t_end - self.window_s) - 1)
        dt = t_end - self.times[start]
        return (self.tokens[-1] - self.tokens[start]) / dt if dt > 0 else 0.0

    def average(self) -> float:
        if len(self.times) < 2:
            return 0.0
        dt = self.times[-1] - self.times[0]
        return (self.tokens[-1] - self.tokens[0]) / dt if dt > 0 else 0.0


def _mean(metric) -> float:
    value = float(metric.mean)
    return value if math.isfinite(value) else 0.0


def _value(metrics, name: str) -> float:
    value = getattr(metrics, name)()
    return float(value) if isinstance(value, (int, float)) else _mean(value)


def _figure(top, main, name: str) -> float:
    """GenAI's top-level figure, or the main model's where the top level has none: NPU EAGLE-3 (2026.4.1)
    reports 0 generated tokens and -1 for TTFT/TPOT/throughput there, while ``main_model_metrics`` has them."""
    value = _value(top, name)
    if value <= 0 and main is not None:
        value = max(value, _value(main, name))
    return max(value, 0.0)


def stats_from_result(
    result, *, mode: str, num_assistant_tokens: int, device: str, streamed_tokens: int, stopped: bool,
    steps: StepRecord | None = None,
) -> GenerationStats:
    """Build GenerationStats from a GenAI ``DecodedResults`` (and the streamer's step record).

    Tokens per verification step = generated tokens / main-model inference steps; above 1 means the draft
    is earning its keep. On a stopped reply GenAI's counts can include draft tokens the target never
    verified, so the streamed token count is used instead. Accepted and draft tokens are GenAI's own
    figures; how they relate to the step record is explained in :mod:`eagle_chat.core.generation.steps`.
    """
    pm = result.perf_metrics
    extended = getattr(result, "extended_perf_metrics", None)
    main = getattr(extended, "main_model_metrics", None) if extended is not None else None
    generated = int(_figure(pm, main, "get_num_generated_tokens"))
    if stopped:
        generated = min(generated, streamed_tokens) if streamed_tokens else generated
    stats = GenerationStats(
        mode=mode,
        num_assistant_tokens=num_assistant_tokens if mode == "speculative" else 0,
        generated_tokens=generated,
        input_tokens=int(_figure(pm, main, "get_num_input_tokens")),
        ttft_ms=_figure(pm, main, "get_ttft"),
        tpot_ms=_figure(pm, main, "get_tpot"),
        tokens_per_s=_figure(pm, main, "get_throughput"),
        duration_ms=_figure(pm, main, "get_generate_duration"),
        stopped=stopped,
        device=device,
        steps=steps,
    )
    if extended is not None and hasattr(extended, "get_num_accepted_tokens"):
        stats.accepted_tokens = int(extended.get_num_accepted_tokens())
        if hasattr(extended, "get_num_draft_tokens"):
            stats.draft_tokens = int(extended.get_num_draft_tokens())
        inferences = len(extended.main_model_metrics.raw_metrics.m_durations)
        if inferences:
            stats.tokens_per_step = generated / inferences
    elif mode == "speculative" and steps is not None and steps.verification_steps:  # prompt lookup: no extended metrics
        stats.accepted_tokens, stats.draft_tokens = steps.accepted(), None
        stats.tokens_per_step = steps.tokens_per_step()
        stats.acceptance = None
        return stats
    if mode == "speculative":
        stats.acceptance = (stats.accepted_tokens or 0) / stats.draft_tokens if stats.draft_tokens else 0.0
    else:
        stats.tokens_per_step = stats.tokens_per_step or (1.0 if generated else None)
    return stats
