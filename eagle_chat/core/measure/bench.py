"""Headless baseline-versus-speculative runs: warm-up, alternating modes, repeats, medians.

Machines are noisy, so the two modes are always measured side by side in one run, interleaved, and
compared by the ratio of their medians. Every prompt is sent the way ``pipe.generate(prompt)`` sends it (one
user message through the chat template, no system prompt) so the figures compare one-to-one with the
OpenVINO GenAI samples.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from eagle_chat.core.errors import UserError
from eagle_chat.core.generation.engine import (
    Engine,
    GenerationResult,
    GenerationSettings,
    PipelineSpec,
)
from eagle_chat.core.generation.devices import NpuOptions
from eagle_chat.core.generation.npu_drafting import fits, npu_tree
from eagle_chat.core.measure.compare import find_divergence
from eagle_chat.core.measure.tuning import MAX_K, MIN_K

DEFAULT_PROMPTS = (
    "Write a Python function that reverses a string.",
    "def parse_args(argv):",
    "Explain what a context manager is in Python and show an example.",
    "Write quicksort in Python and explain its time complexity.",
)

BaselineSource = Literal["same", "draft-free"]
TUNE_KS = tuple(range(MIN_K, MAX_K + 1))
TUNE_TREES = ((3, 2), (4, 2))  # (depth, branching) auto-tune tries with every K >= depth when trees are asked for


class BenchError(UserError):
    """A benchmark that cannot run as asked (no draft, no prompts, no repeats)."""


@dataclass
class BenchRun:
    mode: str
    k: int | None
    prompt_index: int
    repeat: int
    text: str
    tokens_per_s: float
    ttft_ms: float
    tpot_ms: float
    generated_tokens: int
    accepted_tokens: int
    draft_acceptance: float | None
    tokens_per_step: float | None = None
    draft_tokens: int = 0
    tree: str | None = None  # "DEPTHxBRANCHING" for tree drafting, None for a chain of K
    # Tokens emitted per verification step, the prefill's first (all ones for a baseline run); see
    # eagle_chat.core.generation.steps for how they add up to generated and accepted tokens.
    steps: list[int] = field(default_factory=list)


@dataclass
class BenchSummary:
    k: int
    baseline_tokens_per_s: float
    speculative_tokens_per_s: float
    speedup: float
    identical_output: bool
    accepted_tokens: int = 0
    draft_tokens: int = 0
    draft_acceptance: float | None = None
    tokens_per_step: float | None = None
    # Where the first differing answer parts: {"prompt_index", "index", "baseline", "speculative"}.
    first_difference: dict | None = None
    tree: str | None = None


@dataclass
class BenchReport:
    device: str
    precision: str
    baseline_source: str
    max_new_tokens: int
    prompts: list[str]
    runs: list[BenchRun] = field(default_factory=list)
    summary: list[BenchSummary] = field(default_factory=list)
    chosen_k: int | None = None
    chosen_tree: str | None = None

    def to_json(self) -> dict:
        data = {
            "device": self.device,
            "precision": self.precision,
            "baseline_source": self.baseline_source,
            "max_new_tokens": self.max_new_tokens,
            "prompts": self.prompts,
            "runs": [asdict(r) for r in self.runs],
            "summary": [asdict(s) for s in self.summary],
        }
        if self.chosen_k is not None:
            data["chosen_k"] = self.chosen_k
            data["chosen_tree"] = self.chosen_tree
        return data

    def write_json(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False), encoding="utf-8")

    def table(self) -> str:
        """The summary as a fixed-width text table."""
        header = (
            f"{'K':>9} {'baseline tok/s':>15} {'EAGLE-3 tok/s':>14} {'speed-up':>9} "
            f"{'accepted/drafted':>17} {'accept':>7} {'tok/step':>9} {'identical':>10}"
        )
        lines = [header, "-" * len(header)]
        for s in self.summary:
            acceptance = "-" if s.draft_acceptance is None else f"{s.draft_acceptance:.0%}"
            per_step = "-" if s.tokens_per_step is None else f"{s.tokens_per_step:.2f}"
            lines.append(
                f"{s.k:>3}{(' t' + s.tree) if s.tree else '':>6} {s.baseline_tokens_per_s:>15.1f} {s.speculative_tokens_per_s:>14.1f} "
                f"{s.speedup:>8.2f}x {f'{s.accepted_tokens}/{s.draft_tokens}':>17} {acceptance:>7} "
                f"{per_step:>9} {'yes' if s.identical_output else 'NO':>10}"
            )
        if self.chosen_k is not None:
            lines.append(f"chosen K: {self.chosen_k}" + (f", tree {self.chosen_tree}" if self.chosen_tree else ""))
        return "\n".join(lines)


def run_bench(
    spec: PipelineSpec,
    prompts: Sequence[str],
    *,
    ks: Sequence[int] = (5,),
    repeats: int = 3,
    max_new_tokens: int = 128,
    baseline: BaselineSource = "draft-free",
    trees: Sequence[tuple[int, int]] = (),
    progress: Callable[[str], None] = lambda _msg: None,
) -> BenchReport:
    """Measure baseline and speculative decoding on ``prompts`` for each K in ``ks``, and for each draft
    tree ``(depth, branching)`` in ``trees`` combined with each K it fits (depth <= K).

    ``baseline="same"`` runs baseline replies on the draft-enabled pipeline with zero assistant tokens
    (what the app does, one copy of the target in memory); ``"draft-free"`` loads a second pipeline without
    a draft, the plain ``LLMPipeline`` of the OpenVINO samples.
    """
    if spec.draft_dir is None:
        raise BenchError("The benchmark needs a draft model (--draft).")
    if not prompts:
        raise BenchError("No prompts to run.")
    if repeats < 1:
        raise BenchError("--repeats must be at least 1.")
    progress(f"loading {spec.target_dir} + {spec.draft_dir} on {spec.device} ({spec.precision})")
    speculative_engine = Engine(spec)
    baseline_engine = speculative_engine
    if baseline == "draft-free":
        progress("loading a second, draft-free pipeline for the baseline")
        baseline_engine = Engine(spec.with_changes(draft_dir=None))
    report = BenchReport(spec.device, spec.precision, baseline, max_new_tokens, list(prompts))

    configs = sweep_configs(ks, trees, npu=spec.npu if spec.device == "NPU" else None)

    def once(mode: str, k: int | None, prompt: str, tree: tuple[int, int] | None = None) -> GenerationResult:
        engine = speculative_engine if mode == "speculative" else baseline_engine
        return engine.generate(prompt, sweep_settings(k if mode == "speculative" else None, tree, max_new_tokens))

    progress("warm-up")
    once("baseline", None, prompts[0])
    for k, tree in configs:
        once("speculative", k, prompts[0], tree)

    for repeat in range(repeats):
        for index, prompt in enumerate(prompts):
            # Alternate which mode goes first so slow drifts (heat, other load) hit both alike.
            order: list[tuple[str, int | None, tuple[int, int] | None]] = [("baseline", None, None)]
            order += [("speculative", k, tree) for k, tree in configs]
            if (repeat + index) % 2:
                order.reverse()
            for mode, run_k, tree in order:
                result = once(mode, run_k, prompt, tree)
                report.runs.append(run_record(mode, run_k, index, repeat, result))
            progress(f"repeat {repeat + 1}/{repeats}, prompt {index + 1}/{len(prompts)} done")

    report.summary = [summarise(report.runs, k, tree_label(tree)) for k, tree in configs]
    for engine in {id(e): e for e in (speculative_engine, baseline_engine)}.values():
        engine.close()
    return report


def sweep_configs(
    ks: Sequence[int], trees: Sequence[tuple[int, int]] = (), npu: NpuOptions | None = None
) -> list[tuple[int, tuple[int, int] | None]]:
    """(K, tree or None) to measure: every K as a chain, then every draft tree ``(depth, branching)`` with
    each K it fits (a tree deeper than the drafted tokens cannot be verified).

    With ``npu`` (the limits the NPU models are compiled with) only what GenAI's NPU path can run is kept:
    there a chain of K is a tree K deep with one branch, and every tree must fit the compiled limits.
    """
    configs: list[tuple[int, tuple[int, int] | None]] = [(k, None) for k in ks]
    configs += [(k, tree) for tree in trees for k in ks if tree[0] <= k]
    if npu is None:
        return configs
    return [(k, tree) for k, tree in configs if fits(npu_tree(k, *(tree or (0, 0))), npu)]


def sweep_settings(k: int | None, tree: tuple[int, int] | None, max_new_tokens: int) -> GenerationSettings:
    """Greedy settings for one run of a sweep: baseline when ``k`` is None, else K draft tokens (as a tree
    when ``tree`` is given)."""
    return GenerationSettings(
        max_new_tokens=max_new_tokens,
        speculative=k is not None,
        num_assistant_tokens=k or 1,
        tree_depth=tree[0] if tree else 0,
        branching_factor=tree[1] if tree else 0,
    )


def choose(report: BenchReport) -> BenchSummary:
    """The configuration with the highest median speculative tokens/s among those whose output matched
    baseline."""
    candidates = [s for s in report.summary if s.identical_output] or report.summary
    return max(candidates, key=lambda s: s.speculative_tokens_per_s)


def tree_label(tree: tuple[int, int] | None) -> str | None:
    return f"{tree[0]}x{tree[1]}" if tree else None


def run_record(mode: str, k: int | None, index: int, repeat: int, result: GenerationResult) -> BenchRun:
    s = result.stats
    return BenchRun(
        mode=mode,
        k=k,
        prompt_index=index,
        repeat=repeat,
        text=result.text,
        tokens_per_s=s.tokens_per_s,
        ttft_ms=s.ttft_ms,
        tpot_ms=s.tpot_ms,
        generated_tokens=s.generated_tokens,
        accepted_tokens=s.accepted_tokens or 0,  # a local engine always counts them
        draft_acceptance=s.acceptance,
        tokens_per_step=s.tokens_per_step,
        draft_tokens=s.draft_tokens or 0,
        tree=s.tree,
        steps=list(s.steps.sizes) if s.steps is not None else [],
    )


def summarise(runs: list[BenchRun], k: int, tree: str | None = None) -> BenchSummary:
    base = [r for r in runs if r.mode == "baseline"]
    spec = [r for r in runs if r.mode == "speculative" and r.k == k and r.tree == tree]
    base_text = {r.prompt_index: r.text for r in base}
    mismatch = next((r for r in spec if r.text != base_text.get(r.prompt_index)), None)
    base_rate = statistics.median(r.tokens_per_s for r in base)
    spec_rate = statistics.median(r.tokens_per_s for r in spec)
    accepted = sum(r.accepted_tokens for r in spec)
    drafted = sum(r.draft_tokens for r in spec)
    steps = [r.tokens_per_step for r in spec if r.tokens_per_step is not None]
    return BenchSummary(
        k=k,
        tree=tree,
        baseline_tokens_per_s=base_rate,
        speculative_tokens_per_s=spec_rate,
        speedup=spec_rate / base_rate if base_rate else 0.0,
        identical_output=mismatch is None,
        accepted_tokens=accepted,
        draft_tokens=drafted,
        draft_acceptance=accepted / drafted if drafted else None,
        tokens_per_step=statistics.median(steps) if steps else None,
        first_difference=None if mismatch is None else {
            "prompt_index": mismatch.prompt_index,
            **(asdict(d) if (d := find_divergence(base_text[mismatch.prompt_index], mismatch.text)) else {}),
        },
    )
