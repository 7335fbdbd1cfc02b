"""Speed figures: a live rate meter over streamed chunks, and the numbers OpenVINO GenAI reports.

OpenVINO has no per-token timestamp callback, so the live chart is built from the times the streamer is
called; the final figures (TTFT, TPOT, throughput, acceptance) come from GenAI's own perf metrics.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Chunk:
    """A piece of streamed text: ``tokens`` is the running token count, ``t`` seconds since the request."""

    text: str
    tokens: int
    t: float


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
    accepted_tokens: int = 0
    draft_tokens: int = 0
    acceptance: float | None = None
    tokens_per_step: float | None = None
    load_time_ms: float | None = None
    stopped: bool = False
    device: str = "CPU"
    tree: str | None = None  # "DEPTHxBRANCHING" when EAGLE-3 drafted a tree
    # The context budget: prompt tokens the earlier turns took, and how many earlier messages were left out.
    history_tokens: int | None = None
    history_dropped: int = 0

    def to_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict) -> "GenerationStats":
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})



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


def stats_from_result(
    result, *, mode: str, num_assistant_tokens: int, device: str, streamed_tokens: int, stopped: bool
) -> GenerationStats:
    """Build GenerationStats from a GenAI ``DecodedResults``.

    Tokens per verification step = generated tokens / main-model inference steps; above 1 means the draft
    is earning its keep. On a stopped reply GenAI's counts can include draft tokens the target never
    verified, so the streamed token count is used instead.
    """
    pm = result.perf_metrics
    generated = int(pm.get_num_generated_tokens())
    if stopped:
        generated = min(generated, streamed_tokens) if streamed_tokens else generated
    stats = GenerationStats(
        mode=mode,
        num_assistant_tokens=num_assistant_tokens if mode == "speculative" else 0,
        generated_tokens=generated,
        input_tokens=int(pm.get_num_input_tokens()),
        ttft_ms=_mean(pm.get_ttft()),
        tpot_ms=_mean(pm.get_tpot()),
        tokens_per_s=_mean(pm.get_throughput()),
        duration_ms=_mean(pm.get_generate_duration()),
        stopped=stopped,
        device=device,
    )
    extended = getattr(result, "extended_perf_metrics", None)
    if extended is not None and hasattr(extended, "get_num_accepted_tokens"):
        stats.accepted_tokens = int(extended.get_num_accepted_tokens())
        if hasattr(extended, "get_num_draft_tokens"):
            stats.draft_tokens = int(extended.get_num_draft_tokens())
        steps = len(extended.main_model_metrics.raw_metrics.m_durations)
        if steps:
            stats.tokens_per_step = generated / steps
    if mode == "speculative":
        stats.acceptance = stats.accepted_tokens / stats.draft_tokens if stats.draft_tokens else 0.0
    else:
        stats.tokens_per_step = stats.tokens_per_step or (1.0 if generated else None)
    return stats
