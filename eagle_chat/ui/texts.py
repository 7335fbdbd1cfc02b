"""The sentences the window shows, built from the facts the core returns.

The core hands back numbers and data (:class:`GenerationStats`, :class:`Comparison`, :class:`Progress`,
:class:`ModelChoice`); this module turns them into the words a user reads, in one place, so the UI can be
translated without touching the core. Plain Python: the widgets call these and set the result.
"""

from __future__ import annotations

from eagle_chat.core.acquisition.staging import format_bytes
from eagle_chat.core.acquisition.steps import Progress
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.measure.compare import (
    MIN_COUNTED_RUNS,
    NOISE_FLOOR,
    Comparison,
    Divergence,
)
from eagle_chat.core.models import speed_demo
from eagle_chat.core.models.choice import ModelChoice

TOY_NOTE = "toy-quality bundled pair"


def stats_summary(stats: GenerationStats) -> str:
    """One line for the stats label, a reply's footer or a tooltip."""
    parts = [
        f"{stats.mode}",
        f"{stats.tokens_per_s:.1f} tok/s",
        f"TTFT {stats.ttft_ms:.0f} ms",
        f"{stats.generated_tokens} tokens",
    ]
    if stats.mode == "speculative":
        parts.append(f"K={stats.num_assistant_tokens}" + (f" tree {stats.tree}" if stats.tree else ""))
        if stats.tokens_per_step is not None:
            parts.append(f"{stats.tokens_per_step:.2f} tok/step")
        if stats.acceptance is not None:
            parts.append(f"acceptance {stats.acceptance:.0%}")
    if stats.stopped:
        parts.append("stopped")
    return " · ".join(parts)


def divergence_text(divergence: Divergence) -> str:
    return (
        f"the answers part at character {divergence.index}: baseline “{divergence.baseline}” vs "
        f"EAGLE-3 “{divergence.speculative}”"
    )


def baseline_source_text(draft_free: bool) -> str:
    """Which pipeline a comparison's baseline ran on."""
    if draft_free:
        return "a draft-free pipeline (plain LLMPipeline)"
    return "the same pipeline with 0 draft tokens (a little slower than a draft-free one)"


def precision_text(precision: str) -> str:
    """A comparison's precision, and what it means for the answers."""
    if precision == "f32":
        return "f32 precision (greedy answers must be identical)"
    return f"{precision} precision (the device's fastest; the two modes' answers may part after a while)"


def verdict_text(comparison: Comparison) -> str:
    """The first line of a comparison's summary: the speed-up, and whether it is more than noise."""
    ratio, n = f"×{comparison.speedup:.2f}", comparison.repeats
    verdict = comparison.verdict
    if verdict == "faster":
        return f"Speed-up {ratio}: EAGLE-3 was faster in every one of {n} runs per mode"
    if verdict == "slower":
        return f"EAGLE-3 was slower ({ratio}) in every one of {n} runs per mode"
    if verdict == "too-few-runs":
        return f"{ratio} from {n} run(s) per mode: too few to tell from noise (run at least {MIN_COUNTED_RUNS})"
    if abs(comparison.speedup - 1.0) <= NOISE_FLOOR:
        why = f"medians within {NOISE_FLOOR:.0%}"
    else:
        why = "the two modes' tokens/s ranges overlap"
    return f"No measurable difference ({ratio}; {why})"


def compared_text(comparison: Comparison) -> str:
    """Exactly what was compared: the two sides, precision, repeats, order, warm-ups, length."""
    setup = comparison.setup
    drafting = f"K={setup.k}" + (f" tree {setup.tree}" if setup.tree else "")
    warmups = len(comparison.warmups)
    warm = (f"after {warmups} uncounted warm-up run(s) of up to {setup.warmup_tokens} tokens" if warmups
            else "no warm-up")
    return (
        f"Compared: EAGLE-3 {drafting} vs {baseline_source_text(setup.draft_free_baseline)}, on {setup.device}, "
        f"{precision_text(setup.precision)}; {comparison.repeats} run(s) per mode in alternating order, {warm}; "
        f"up to {setup.max_new_tokens} new tokens"
    )


def comparison_lines(comparison: Comparison) -> list[str]:
    """The summary under a finished comparison: verdict, what was compared, medians with their spread."""
    def fmt(value, pattern):
        return "–" if value is None else pattern.format(value)

    def rate(mode):
        spread = comparison.spread(mode)
        median = fmt(comparison.median(mode, "tokens_per_s"), "{:.1f}")
        return median if spread is None else f"{median} ({spread[0]:.1f}–{spread[1]:.1f})"

    median = comparison.median
    lines = [
        verdict_text(comparison),
        compared_text(comparison),
        f"tokens/s, median (min–max): baseline {rate('baseline')} · EAGLE-3 {rate('speculative')}",
        "TTFT: baseline {} · EAGLE-3 {}".format(
            fmt(median("baseline", "ttft_ms"), "{:.0f} ms"), fmt(median("speculative", "ttft_ms"), "{:.0f} ms")
        ),
        "EAGLE-3: {} tokens/step · acceptance {}".format(
            fmt(median("speculative", "tokens_per_step"), "{:.2f}"), fmt(median("speculative", "acceptance"), "{:.0%}")
        ),
    ]
    divergence = comparison.divergence
    lines.append("Answers identical ✓" if divergence is None else "Answers differ: " + divergence_text(divergence))
    return lines


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def progress_text(progress: Progress) -> str:
    """``1.2 GB of 4.8 GB · 11.3 MB/s · 5 min 20 s left · openvino_model.bin``, or the step's message."""
    if progress.done is None or not progress.total:
        return progress.message or progress.step
    parts = [f"{format_bytes(progress.done)} of {format_bytes(progress.total)}"]
    if progress.speed:
        parts.append(f"{format_bytes(progress.speed)}/s")
    if progress.eta is not None and progress.done < progress.total:
        parts.append(f"{format_duration(progress.eta)} left")
    if progress.file:
        parts.append(progress.file)
    return " · ".join(parts)


def model_label(choice: ModelChoice) -> str:
    """How the model bar and the status bar name a pair."""
    if choice.name == speed_demo.NAME:
        return f"{speed_demo.NAME} — {speed_demo.DESCRIPTION}"
    name = choice.target_dir.name + (f" + {choice.draft_dir.name}" if choice.draft_dir else " (no draft)")
    if choice.name:
        name = f"{choice.name} ({name})"
    return f"{name} — {TOY_NOTE}" if choice.bundled else name
