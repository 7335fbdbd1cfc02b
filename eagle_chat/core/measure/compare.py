"""One prompt, baseline and EAGLE-3: how a comparison is run, the figures it shows, and where two answers part.

Honest by construction, in both directions:

- **Warm-up first.** The first inference after a load pays for memory allocation and kernel selection; timed,
  it would flatter whichever mode ran second. :func:`plan_runs` starts with one short run of each mode on the
  same prompt (:data:`WARMUP_MAX_TOKENS`), recorded as a warm-up and never counted.
- **Alternating order.** Counted rounds go baseline-first, then EAGLE-3-first, and so on, so slow drifts (heat,
  another program starting) hit both modes alike.
- **Medians and spread.** Figures are medians over the counted runs; the spread is each mode's min–max.
- **The noise rule** (:meth:`Comparison.verdict`). A difference counts only when *every* counted run of one
  mode was faster than *every* counted run of the other — the two modes' min–max tokens/s ranges do not
  overlap — and the medians differ by more than :data:`NOISE_FLOOR` (5 %). Anything else is "no measurable
  difference". With at least :data:`MIN_COUNTED_RUNS` runs per mode non-overlap is a real test: if both
  modes had the same speed, the chance that n runs of one all beat n of the other is 2/C(2n, n) — 33 % at
  n = 2, 10 % at n = 3, 3 % at n = 4 — so three repeats is the default. With fewer runs there is no spread
  to judge by and the verdict says so ("too few runs").

Run one after the other on the same device (at once, each would slow the other). At f32 greedy answers must
be identical; at reduced precision verifying several tokens at once rounds differently from one at a time,
so answers can part after a while — report where, rather than a bare pass/fail.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Literal

from eagle_chat.core.generation.metrics import GenerationStats

MODES = ("baseline", "speculative")
WARMUP_MAX_TOKENS = 32  # enough for the prompt's shapes and a few verification steps of each mode
NOISE_FLOOR = 0.05  # medians closer than this count as equal whatever the spread says
MIN_COUNTED_RUNS = 2  # per mode, for the spread to mean anything
DEFAULT_REPEATS = 3

Verdict = Literal["faster", "slower", "no-difference", "too-few-runs"]


@dataclass(frozen=True)
class Divergence:
    """Where two texts stop agreeing: character offset, and a little of each side from there."""

    index: int
    baseline: str
    speculative: str


def find_divergence(baseline: str, speculative: str, context: int = 24) -> Divergence | None:
    """None if equal; else the first differing character (a prefix counts as differing at its end)."""
    if baseline == speculative:
        return None
    index = next(
        (i for i, (a, b) in enumerate(zip(baseline, speculative)) if a != b), min(len(baseline), len(speculative))
    )
    return Divergence(index, baseline[index:index + context], speculative[index:index + context])


@dataclass(frozen=True)
class PlannedRun:
    """One run of a comparison, in the order it is to run: ``position`` 0, 1, 2, …"""

    position: int
    mode: str  # "baseline" or "speculative"
    repeat: int  # -1 for a warm-up
    warmup: bool = False


def plan_runs(repeats: int, *, warmup: bool = True) -> list[PlannedRun]:
    """Warm-up of both modes (not counted), then ``repeats`` rounds, alternating which mode goes first."""
    order: list[tuple[str, int, bool]] = [(mode, -1, True) for mode in MODES] if warmup else []
    for repeat in range(repeats):
        modes = MODES if repeat % 2 == 0 else MODES[::-1]
        order += [(mode, repeat, False) for mode in modes]
    return [PlannedRun(i, mode, repeat, is_warmup) for i, (mode, repeat, is_warmup) in enumerate(order)]


@dataclass(frozen=True)
class ComparisonSetup:
    """Exactly what was compared, so the summary can say it."""

    precision: str = "default"
    draft_free_baseline: bool = False  # True: a draft-free pipeline; False: the same one at 0 draft tokens
    k: int = 0  # draft tokens per step for EAGLE-3
    tree: str | None = None  # "DEPTHxBRANCHING" when EAGLE-3 drafted a tree
    max_new_tokens: int = 0
    device: str = "CPU"
    warmup_tokens: int = WARMUP_MAX_TOKENS


@dataclass(frozen=True)
class ComparisonRun:
    """One recorded run: where it came in the order, whether it was a warm-up, its figures and text."""

    position: int
    mode: str
    repeat: int
    warmup: bool
    stats: GenerationStats
    text: str

    def to_row(self) -> dict:
        return {"position": self.position, "mode": self.mode, "repeat": self.repeat, "warmup": self.warmup,
                **{k: v for k, v in self.stats.to_dict().items() if k != "mode"}}


@dataclass
class Comparison:
    """Every run of one prompt (warm-ups included and marked); the figures come from the counted ones."""

    prompt: str
    runs: list[ComparisonRun]
    setup: ComparisonSetup = ComparisonSetup()

    def counted(self, mode: str) -> list[ComparisonRun]:
        return [r for r in self.runs if r.mode == mode and not r.warmup]

    @property
    def warmups(self) -> list[ComparisonRun]:
        return [r for r in self.runs if r.warmup]

    @property
    def baseline(self) -> list[GenerationStats]:
        return [r.stats for r in self.counted("baseline")]

    @property
    def speculative(self) -> list[GenerationStats]:
        return [r.stats for r in self.counted("speculative")]

    @property
    def repeats(self) -> int:
        """Counted runs per mode (the smaller count, if a cancelled comparison left them uneven)."""
        return min(len(self.counted(mode)) for mode in MODES)

    @property
    def precision(self) -> str:
        return self.setup.precision

    @property
    def draft_free_baseline(self) -> bool:
        return self.setup.draft_free_baseline

    @property
    def baseline_text(self) -> str:
        runs = self.counted("baseline")
        return runs[0].text if runs else ""

    @property
    def speculative_text(self) -> str:
        runs = self.counted("speculative")
        return runs[0].text if runs else ""

    @property
    def divergence(self) -> Divergence | None:
        """Where the first counted answer that differs from the first baseline answer parts from it."""
        reference = self.baseline_text
        for run in self.counted("speculative") + self.counted("baseline"):
            divergence = find_divergence(reference, run.text)
            if divergence is not None:
                return divergence
        return None

    @property
    def identical(self) -> bool:
        return self.divergence is None

    def values(self, mode: str, field: str) -> list[float]:
        runs = [r.stats for r in self.counted(mode)]
        return [getattr(s, field) for s in runs if getattr(s, field) is not None]

    def median(self, mode: str, field: str) -> float | None:
        values = self.values(mode, field)
        return statistics.median(values) if values else None

    def spread(self, mode: str, field: str = "tokens_per_s") -> tuple[float, float] | None:
        """(min, max) over the counted runs."""
        values = self.values(mode, field)
        return (min(values), max(values)) if values else None

    @property
    def speedup(self) -> float:
        base = self.median("baseline", "tokens_per_s") or 0.0
        fast = self.median("speculative", "tokens_per_s") or 0.0
        return fast / base if base else 0.0

    @property
    def verdict(self) -> Verdict:
        """See the module's noise rule: faster / slower only when the ranges do not overlap and the medians
        differ by more than the noise floor."""
        if self.repeats < MIN_COUNTED_RUNS:
            return "too-few-runs"
        base, fast = self.spread("baseline"), self.spread("speculative")
        if base is None or fast is None:
            return "too-few-runs"
        (base_lo, base_hi), (fast_lo, fast_hi) = base, fast
        if abs(self.speedup - 1.0) <= NOISE_FLOOR:
            return "no-difference"
        if fast_lo > base_hi:
            return "faster"
        if fast_hi < base_lo:
            return "slower"
        return "no-difference"

    def to_rows(self) -> list[dict]:
        """One row per run, warm-ups included (``warmup`` says which), in the order they ran: the figures,
        the compact step record (``steps``, ``step_chars``) and the histogram of accepted lengths."""
        return [{**run.to_row(), **run.stats.step_columns()} for run in sorted(self.runs, key=lambda r: r.position)]

    def step_summaries(self) -> list[dict]:
        """Per counted run, the step record as lists with its histogram and acceptance by draft position."""
        summaries = []
        for mode in ("baseline", "speculative"):
            for run in self.counted(mode):
                if run.stats.steps is not None:
                    summaries.append({"mode": mode, "repeat": run.repeat,
                                      **run.stats.steps.summary(run.stats.max_accepted)})
        return summaries
