"""The sentences the window shows, built from the facts the core returns.

The core hands back numbers and data (:class:`GenerationStats`, :class:`Comparison`, :class:`Progress`,
:class:`ModelChoice`); this module turns them into the words a user reads, in one place, so the UI can be
translated without touching the core. Plain Python: the widgets call these and set the result.
"""

from __future__ import annotations

from eagle_chat.core.acquisition.staging import format_bytes
from eagle_chat.core.acquisition.steps import Progress
from eagle_chat.core.generation import outlook
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.generation.npu_drafting import DraftTree
from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.core.measure.compare import (
    MIN_COUNTED_RUNS,
    NOISE_FLOOR,
    Comparison,
    Divergence,
)
from eagle_chat.core.models import speed_demo
from eagle_chat.core.models.catalog import CatalogEntry
from eagle_chat.core.models.choice import ModelChoice

TOY_NOTE = "toy-quality bundled pair"
PREFIX_CACHE_OFF = "Turn prefix caching off"
MEMORY_START = "Earlier messages are not sent to the model"


def crash_notice(facts: dict, interrupted: int) -> str:
    """What the window says when the last run died in the middle of a reply (its marker was left)."""
    kept = ("Its text so far is kept and marked interrupted." if interrupted
            else "Nothing of that reply had been saved yet.")
    text = f"EagleChat last stopped in the middle of a reply: the reply was cut off. {kept}"
    if facts.get("prefix_cache"):
        text += (" Prefix caching was on; if this happens again, turning it off may avoid it (replies in long "
                 "conversations then start more slowly).")
    return text


def context_note(stats: GenerationStats) -> str:
    """How much of the conversation the reply's context held (for the stats line), or ""."""
    if not stats.history_tokens and not stats.history_dropped:
        return ""
    note = f"history {stats.history_tokens} tokens"
    if stats.history_dropped:
        note += f", {stats.history_dropped} earlier messages not sent"
    return note


def stats_summary(stats: GenerationStats) -> str:
    """One line for the stats label, a reply's footer or a tooltip."""
    parts = [
        f"{stats.mode}",
        f"{stats.tokens_per_s:.1f} tok/s",
        f"TTFT {stats.ttft_ms:.0f} ms",
        f"{stats.generated_tokens} tokens" + (
            f" ({stats.thinking_tokens} thinking + {stats.answer_tokens} answer)"
            if stats.thinking_tokens is not None else ""),
    ]
    if stats.mode == "speculative":
        parts.append(f"K={stats.num_assistant_tokens}" + (f" tree {stats.tree}" if stats.tree else ""))
        parts.append("tok/step unknown" if stats.tokens_per_step is None else f"{stats.tokens_per_step:.2f} tok/step")
        parts.append("acceptance unknown" if stats.acceptance is None else f"acceptance {stats.acceptance:.0%}")
    elif stats.mode == "remote":  # a server that does not say how it decoded (OpenVINO Model Server)
        parts.append("draft tokens and acceptance unknown (not reported by the server)")
    if stats.runs > 1:
        parts.append(f"{stats.runs} runs")
    if stats.stopped:
        parts.append("stopped")
    if context_note(stats):
        parts.append(context_note(stats))
    return " · ".join(parts)


def drafted_tooltip(step: int, accepted: int) -> str:
    """Hovering tinted text: which verification step wrote it, and how far that step got."""
    tokens = "token" if accepted == 1 else "tokens"
    return (f"Drafted by EAGLE-3 — step {step}: the target accepted {accepted} drafted {tokens}, "
            "then added one of its own (shown plain)")


def acceptance_caption(record: StepRecord | None, max_accepted: int, genai_accepted: int | None = None) -> str:
    """Under the acceptance chart: how many steps, the mean accepted length, and GenAI's own count."""
    if record is None or not record.verification_steps:
        return "No drafted steps yet: send a message with EAGLE-3 on."
    parts = [f"{record.verification_steps} steps", f"mean {record.mean_accepted():.2f} of {max_accepted} accepted",
             f"{record.tokens_per_step():.2f} tokens/step"]
    if genai_accepted is not None and genai_accepted != record.accepted():
        parts.append(f"GenAI counts {genai_accepted} accepted (not the last step)")
    return " · ".join(parts)


def acceptance_tooltip(caption: str) -> str:
    return (f"{caption}\n\nBars: how many verification steps accepted 0, 1, … K of their drafted tokens.\n"
            "Line: the share of steps whose drafted token at position 1, 2, … K was accepted.\n"
            "GenAI's own accepted-token count on CPU/GPU leaves out each reply's last step; the chart counts it.")


def next_reply_line(o: outlook.Outlook) -> str:
    """The one line that says whether the next reply will be speculative, and why not."""
    how = f"K={o.k}" if not o.tree_depth else f"a draft tree {o.tree_depth} deep × {o.branching_factor} wide, K={o.k}"
    sentences = {
        outlook.ON: f"Next reply: EAGLE-3 speculative decoding, {how}.",
        outlook.ON_SAMPLING_SET_ASIDE: f"Next reply: EAGLE-3, {how}, greedy — sampling is set aside while the "
                                          "draft is loaded (EAGLE-3 decodes greedily only).",
        outlook.NO_MODEL: "Next reply: none yet — no model is loaded.",
        outlook.LOADING: "Next reply: waiting for the model to load.",
        outlook.NPU_PROMPT_TOO_LONG: f"Next reply: refused — this conversation already holds {o.history_tokens} "
                                        f"tokens, more than the NPU's prompt limit of {o.prompt_limit}. Start a "
                                        "new conversation.",
        outlook.NO_DRAFT: "Next reply: plain decoding — no EAGLE-3 draft is loaded with this model.",
        outlook.DEVICE_MISMATCH: f"Next reply: plain decoding — the draft is on {o.draft_device} but the model "
                                    f"on {o.device}; EAGLE-3 needs both on the same device.",
        outlook.DRAFT_OFF: "Next reply: plain decoding — EAGLE-3 is switched off (the EAGLE-3 button).",
        outlook.SAMPLING: "Next reply: refused — sampling was asked for, and a model loaded with an EAGLE-3 "
                             "draft decodes greedily only. Turn sampling off, or load the model without its draft.",
    }
    return sentences[o.reason]


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


def catalog_item_text(entry: CatalogEntry, size: str, installed: bool, blocked: bool) -> str:
    """One line of the Get models list: title, size and what stands out (installed, unverified, blocked)."""
    marks = [m for m, on in (("installed", installed), ("unverified", bool(entry.unverified)),
                             ("needs a draft export", blocked)) if on]
    return f"{entry.title}  ({size})" + "".join(f" — {m}" for m in marks)


def catalog_entry_details(entry: CatalogEntry) -> str:
    """The description pane of the Get models dialog for one catalog entry."""
    lines = [entry.description]
    if entry.license:
        lines.append(f"Licence: {entry.license}.")
    lines.append("The draft is already exported to OpenVINO: nothing is converted on this computer."
                 if not entry.needs_export else
                 "The draft is exported to OpenVINO on this computer after the download (needs optimum-intel).")
    if entry.unverified:
        lines.append(f"Unverified: {entry.unverified}")
    if entry.evidence:
        lines.append(f"Where these repositories come from: {entry.evidence}")
    return "\n".join(lines)


def export_blocked_text(problem: str) -> str:
    """Why Download is off for an entry whose Hugging Face-format draft cannot be exported here."""
    return ("Download is off: this entry's EAGLE-3 draft comes in Hugging Face format and must be exported to "
            f"OpenVINO first. {problem}")


def npu_tree_text(tree: DraftTree, problem: str | None = None) -> tuple[str, str]:
    """(label, tooltip) for the tree GenAI drafts on the NPU with the current K and tuned tree."""
    if problem:
        return f"NPU cannot draft {tree.candidates} tokens this way", problem
    why = ("On the NPU, OpenVINO GenAI drafts trees only: a chain of K tokens is a tree K deep with one "
           "branch, and the limits are compiled into the draft when the model loads.")
    if tree.is_chain:
        return f"NPU drafts a chain: depth {tree.depth} × 1 branch, {tree.verified} candidates", why
    return f"NPU drafts a tree: depth {tree.depth} × {tree.branching} branches, {tree.verified} candidates", why


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
