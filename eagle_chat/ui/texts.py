"""The sentences the window shows, built from the facts the core returns.

The core hands back numbers and data (:class:`GenerationStats`, :class:`Comparison`, :class:`Progress`,
:class:`ModelChoice`); this module turns them into the words a user reads, in one place, so the UI can be
translated without touching the core. Plain Python: the widgets call these and set the result.
"""

from __future__ import annotations

from eagle_chat.core.acquisition.staging import format_bytes
from eagle_chat.core.acquisition.steps import Progress
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.measure.compare import Comparison, Divergence
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


def comparison_lines(comparison: Comparison) -> list[str]:
    """The summary under a finished comparison."""
    def fmt(value, pattern):
        return "–" if value is None else pattern.format(value)

    median = comparison.median
    lines = [
        f"Speed-up ×{comparison.speedup:.2f} (medians of {len(comparison.speculative)} run(s), "
        f"{comparison.precision} precision)",
        f"Baseline: {baseline_source_text(comparison.draft_free_baseline)}",
        "tokens/s: baseline {} · EAGLE-3 {}".format(
            fmt(median("baseline", "tokens_per_s"), "{:.1f}"), fmt(median("speculative", "tokens_per_s"), "{:.1f}")
        ),
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


def busy_reason(state: str) -> str | None:
    """Why the model, device and precision cannot change now (None: they can)."""
    if state == "generating":
        return "A reply is being generated: stop it or let it finish before changing the model, device or precision."
    if state == "loading":
        return "A model is loading: wait for it before changing the model, device or precision."
    return None


def closing_text(waiting_for: list[str], deadline_s: float | None) -> str:
    """The notice while the window waits to close: what it waits for, and the bound when there is one."""
    what = " and ".join(waiting_for)
    bound = f" (at most {deadline_s:.0f} s)" if deadline_s else ""
    return f"Closing after {what}{bound}…"
