"""One prompt, baseline then EAGLE-3: the figures a comparison shows, and where two answers part.

Run one after the other on the same device (at once, each would slow the other). At f32 greedy answers
must be identical; at reduced precision verifying several tokens at once rounds differently from one at a
time, so answers can part after a while — report where, rather than a bare pass/fail.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from eagle_chat.core.generation.metrics import GenerationStats


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


@dataclass
class Comparison:
    """Baseline and speculative runs of one prompt (one or more repeats each)."""

    prompt: str
    baseline: list[GenerationStats]
    speculative: list[GenerationStats]
    baseline_text: str
    speculative_text: str
    precision: str = "default"
    draft_free_baseline: bool = False  # True: the baseline ran on a draft-free pipeline, not at 0 draft tokens

    @property
    def divergence(self) -> Divergence | None:
        return find_divergence(self.baseline_text, self.speculative_text)

    @property
    def identical(self) -> bool:
        return self.divergence is None

    def median(self, mode: str, field: str) -> float | None:
        runs = self.baseline if mode == "baseline" else self.speculative
        values = [getattr(s, field) for s in runs if getattr(s, field) is not None]
        return statistics.median(values) if values else None

    @property
    def speedup(self) -> float:
        base = self.median("baseline", "tokens_per_s") or 0.0
        fast = self.median("speculative", "tokens_per_s") or 0.0
        return fast / base if base else 0.0

    def to_rows(self) -> list[dict]:
        """One row per run, for CSV/JSON export: the figures, the compact step record (``steps``,
        ``step_chars``) and the histogram of accepted lengths."""
        rows = []
        for mode, runs in (("baseline", self.baseline), ("speculative", self.speculative)):
            for repeat, stats in enumerate(runs):
                rows.append({"mode": mode, "repeat": repeat, **stats.to_dict(), **stats.step_columns()})
        return rows

    def step_summaries(self) -> list[dict]:
        """Per run, the step record as lists with its histogram and acceptance by draft position."""
        summaries = []
        for mode, runs in (("baseline", self.baseline), ("speculative", self.speculative)):
            for repeat, stats in enumerate(runs):
                if stats.steps is not None:
                    summaries.append({"mode": mode, "repeat": repeat, **stats.steps.summary(stats.max_accepted)})
        return summaries
