"""The sentences the window shows, built from the facts the core returns.

The core hands back numbers and data (:class:`GenerationStats`, :class:`Comparison`, :class:`Progress`,
:class:`ModelChoice`); this module turns them into the words a user reads, in one place, so the UI can be
translated without touching the core. Plain Python: the widgets call these and set the result.

Every sentence goes through Qt's translation in the context "texts" (literal sources, named ``.format``
fields with the number format inside them, ``%n`` plurals); without a translator the English is the source
itself. Pieces a caller splits on (" · " between a line's parts, " — " after a model's name) are joined
here, outside the translated text, so a translation cannot break them.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from eagle_chat.core.acquisition.staging import format_bytes
from eagle_chat.core.acquisition.pull_steps import Progress
from eagle_chat.core.generation import outlook
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.generation.npu_drafting import DraftTree
from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.core.measure.compare import MIN_COUNTED_RUNS, NOISE_FLOOR, Comparison, Divergence
from eagle_chat.core.models import speed_demo
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.ui.words import grammar_texts, method_texts
from eagle_chat.ui.words.i18n import Context, translate


texts = Context("texts")  # this module's context, named as lupdate must see it: texts.tr(…)

# Constants other modules show (or test for): marked here, translated where shown with translate("texts", …).
TOY_NOTE = QT_TRANSLATE_NOOP("texts", "toy-quality bundled pair")
PREFIX_CACHE_OFF = QT_TRANSLATE_NOOP("texts", "Turn prefix caching off")
MEMORY_START = QT_TRANSLATE_NOOP("texts", "Earlier messages are not sent to the model")
# the core's speed_demo.DESCRIPTION, in a literal lupdate can see (a test keeps the two equal)
SPEED_DEMO_NOTE = QT_TRANSLATE_NOOP("texts", "the toy model widened to ~50M weights: same replies, real speed-up")
# the decoding mode a reply's stats name (GenerationStats.mode)
MODE_NAMES = {"speculative": QT_TRANSLATE_NOOP("texts", "speculative"),
              "baseline": QT_TRANSLATE_NOOP("texts", "baseline"),
              "remote": QT_TRANSLATE_NOOP("texts", "remote")}
METHOD_NAMES = {"eagle3": "EAGLE-3", "prompt_lookup": QT_TRANSLATE_NOOP("texts", "prompt lookup"),  # core speculation
                "dflash": "DFlash", "mtp": "MTP"}


def crash_notice(facts: dict, interrupted: int) -> str:
    """What the window says when the last run died in the middle of a reply (its marker was left)."""
    kept = (translate("texts", "Its text so far is kept and marked interrupted.") if interrupted
            else translate("texts", "Nothing of that reply had been saved yet."))
    text = translate("texts", "EagleChat last stopped in the middle of a reply: the reply was cut off. {kept}"
                     ).format(kept=kept)
    if facts.get("prefix_cache"):
        text += translate("texts", " Prefix caching was on; if this happens again, turning it off may avoid it "
                                   "(replies in long conversations then start more slowly).")
    return text


def context_note(stats: GenerationStats) -> str:
    """How much of the conversation the reply's context held (for the stats line), or ""."""
    if not stats.history_tokens and not stats.history_dropped:
        return ""
    if stats.history_dropped:
        return translate("texts", "history {tokens} tokens, {dropped} earlier messages not sent").format(
            tokens=stats.history_tokens, dropped=stats.history_dropped)
    return translate("texts", "history {tokens} tokens").format(tokens=stats.history_tokens)


def _drafting(k: int, tree: str | None) -> str:
    """``K=4``, or ``K=4 tree 3x2`` when EAGLE-3 drafted a tree."""
    return translate("texts", "K={k} tree {tree}").format(k=k, tree=tree) if tree else f"K={k}"


def stats_summary(stats: GenerationStats) -> str:
    """One line for the stats label, a reply's footer or a tooltip."""
    tokens = (translate("texts", "{tokens} tokens").format(tokens=stats.generated_tokens)
              if stats.thinking_tokens is None else
              translate("texts", "{tokens} tokens ({thinking} thinking + {answer} answer)").format(
                  tokens=stats.generated_tokens, thinking=stats.thinking_tokens, answer=stats.answer_tokens))
    parts = [
        translate("texts", MODE_NAMES[stats.mode]) if stats.mode in MODE_NAMES else stats.mode,
        translate("texts", "{rate:.1f} tok/s").format(rate=stats.tokens_per_s),
        translate("texts", "TTFT {ms:.0f} ms").format(ms=stats.ttft_ms),
        tokens,
    ]
    if stats.mode == "speculative":
        if stats.speculation != "eagle3":  # EAGLE-3 is what "speculative" has always meant here
            parts[0] += f" ({translate('texts', METHOD_NAMES.get(stats.speculation, stats.speculation))})"
        parts.append(_drafting(stats.num_assistant_tokens, stats.tree))
        parts.append(translate("texts", "tok/step unknown") if stats.tokens_per_step is None
                     else translate("texts", "{rate:.2f} tok/step").format(rate=stats.tokens_per_step))
        parts.append(translate("texts", "acceptance unknown") if stats.acceptance is None
                     else translate("texts", "acceptance {share:.0%}").format(share=stats.acceptance))
    elif stats.drafting_off_by_grammar:  # a grammar on a reduced-vocabulary draft (grammar_texts)
        parts.append(grammar_texts.figures_note())
    elif stats.mode == "remote":  # a server that does not say how it decoded (OpenVINO Model Server)
        parts.append(translate("texts", "draft tokens and acceptance unknown (not reported by the server)"))
    if stats.runs > 1:
        parts.append(translate("texts", "{runs} runs").format(runs=stats.runs))
    if stats.stopped:
        parts.append(translate("texts", "stopped"))
    if context_note(stats):
        parts.append(context_note(stats))
    return " · ".join(parts)


def drafted_tooltip(step: int, accepted: int, method: str = "eagle3") -> str:
    """Hovering tinted text: which verification step wrote it, and how far that step got; who drafted it (a
    prompt-lookup reply's tokens were copied from the prompt, not drafted by EAGLE-3)."""
    if method == "prompt_lookup":
        if accepted == 1:
            return translate("texts", "Copied from the prompt by prompt lookup — step {step}: the target accepted 1 "
                                      "drafted token, then added one of its own (shown plain)").format(step=step)
        return translate("texts", "Copied from the prompt by prompt lookup — step {step}: the target accepted "
                                  "{accepted} drafted tokens, then added one of its own (shown plain)").format(
            step=step, accepted=accepted)
    if accepted == 1:  # two sentences, not a %n plural: the English says "1 drafted token" without an en .qm
        return translate("texts", "Drafted by EAGLE-3 — step {step}: the target accepted 1 drafted token, "
                                  "then added one of its own (shown plain)").format(step=step)
    return translate("texts", "Drafted by EAGLE-3 — step {step}: the target accepted {accepted} drafted tokens, "
                              "then added one of its own (shown plain)").format(step=step, accepted=accepted)


def acceptance_caption(record: StepRecord | None, max_accepted: int, genai_accepted: int | None = None,
                       method: str | None = None) -> str:
    """Under the acceptance chart: the method that drafted (when known), how many steps, the mean accepted
    length, and GenAI's own count.

    The parts are joined with " · " here (the chart's title shows the first three); no part contains it."""
    if record is None or not record.verification_steps:
        return translate("texts", "No drafted steps yet: send a message with EAGLE-3 on.")
    parts = [method_texts.name(method)] if method else []
    parts += [translate("texts", "{steps} steps").format(steps=record.verification_steps),
             translate("texts", "mean {mean:.2f} of {most} accepted").format(mean=record.mean_accepted(),
                                                                             most=max_accepted),
             translate("texts", "{rate:.2f} tokens/step").format(rate=record.tokens_per_step())]
    if genai_accepted is not None and genai_accepted != record.accepted():
        parts.append(translate("texts", "GenAI counts {accepted} accepted (not the last step)").format(
            accepted=genai_accepted))
    return " · ".join(parts)


def acceptance_tooltip(caption: str) -> str:
    return "\n".join([
        caption, "",
        translate("texts", "Bars: how many verification steps accepted 0, 1, … K of their drafted tokens."),
        translate("texts", "Line: the share of steps whose drafted token at position 1, 2, … K was accepted."),
        translate("texts", "GenAI's own accepted-token count on CPU/GPU leaves out each reply's last step; the "
                           "chart counts it."),
    ])


def next_reply_line(o: outlook.Outlook) -> str:
    """The one line that says whether the next reply will be speculative, and why not."""
    how = (f"K={o.k}" if not o.tree_depth else translate("texts", "a draft tree {depth} deep × {branching} wide, "
                                                                   "K={k}").format(depth=o.tree_depth,
                                                                                   branching=o.branching_factor, k=o.k))
    reason = o.reason
    if reason in (outlook.ON, outlook.NO_DRAFT) and (line := method_texts.automatic_line(o)) is not None:
        return line
    if reason == outlook.ON:
        return translate("texts", "Next reply: Automatic chooses per kind of work — EAGLE-3 speculative decoding, "
                                  "{how}, or prompt lookup when it repeats pasted code, documents or tool "
                                  "results.").format(how=how)
    if reason == outlook.ON_SAMPLING_SET_ASIDE:
        return translate("texts", "Next reply: EAGLE-3, {how}, greedy — sampling is set aside while the draft is "
                                  "loaded (EAGLE-3 decodes greedily only).").format(how=how)
    if reason == outlook.NPU_PROMPT_TOO_LONG:
        return translate("texts", "Next reply: refused — this conversation already holds {tokens} tokens, more "
                                  "than the NPU's prompt limit of {limit}. Start a new conversation.").format(
            tokens=o.history_tokens, limit=o.prompt_limit)
    if reason == outlook.GRAMMAR_D2T:
        return grammar_texts.next_reply_line(o)
    if reason in (outlook.PINNED, outlook.PINNED_OFF):
        return method_texts.next_reply_line(o)
    if reason == outlook.DEVICE_MISMATCH:
        return translate("texts", "Next reply: plain decoding — the draft is on {draft_device} but the model on "
                                  "{device}; EAGLE-3 needs both on the same device.").format(
            draft_device=o.draft_device, device=o.device)
    return translate("texts", _FIXED_REASONS[reason])


_FIXED_REASONS = {
    outlook.NO_MODEL: QT_TRANSLATE_NOOP("texts", "Next reply: none yet — no model is loaded."),
    outlook.LOADING: QT_TRANSLATE_NOOP("texts", "Next reply: waiting for the model to load."),
    outlook.NO_DRAFT: QT_TRANSLATE_NOOP("texts", "Next reply: plain decoding — no EAGLE-3 draft is loaded with this "
                                                 "model; prompt lookup when it repeats pasted code, documents or "
                                                 "tool results."),
    outlook.DRAFT_OFF: QT_TRANSLATE_NOOP("texts", "Next reply: plain decoding — EAGLE-3 is switched off (the EAGLE-3 "
                                                  "button)."),
    outlook.SAMPLING: QT_TRANSLATE_NOOP("texts", "Next reply: refused — sampling was asked for, and a model loaded "
                                                 "with an EAGLE-3 draft decodes greedily only. Turn sampling off, or "
                                                 "load the model without its draft."),
}


def divergence_text(divergence: Divergence) -> str:
    """Where the answers part, on one line: the snippets' line breaks shown as ⏎ and their indentation folded
    (inserted raw, a code answer's snippet grew the summary to five ragged lines)."""
    return translate("texts", "the answers part at character {index}: baseline “{baseline}” vs EAGLE-3 "
                              "“{speculative}”").format(index=divergence.index, baseline=one_line(divergence.baseline),
                                                        speculative=one_line(divergence.speculative))


def one_line(snippet: str) -> str:
    """``snippet`` on one line: each line break as ⏎, runs of white space as one space."""
    return " ⏎ ".join(" ".join(line.split()) for line in snippet.split("\n")).strip()


def baseline_source_text(draft_free: bool) -> str:
    """Which pipeline a comparison's baseline ran on."""
    if draft_free:
        return translate("texts", "a draft-free pipeline (plain LLMPipeline)")
    return translate("texts", "the same pipeline with 0 draft tokens (a little slower than a draft-free one)")


def precision_text(precision: str) -> str:
    """A comparison's precision, and what it means for the answers."""
    if precision == "f32":
        return translate("texts", "f32 precision (greedy answers must be identical)")
    if precision == "default":  # a word to translate, unlike a name such as "f16" (it showed as "default 精度")
        return translate("texts", "default precision (the device's fastest; the two modes' answers may part after a "
                                  "while)")
    return translate("texts", "{precision} precision (the device's fastest; the two modes' answers may part after "
                              "a while)").format(precision=precision)


def verdict_text(comparison: Comparison) -> str:
    """The first line of a comparison's summary: the speed-up, and whether it is more than noise."""
    speedup, n = comparison.speedup, comparison.repeats
    verdict = comparison.verdict
    if verdict == "faster":
        return texts.tr("Speed-up ×{speedup:.2f}: EAGLE-3 was faster in every one of %n runs per mode",
                        "", n).format(speedup=speedup)
    if verdict == "slower":
        return texts.tr("EAGLE-3 was slower (×{speedup:.2f}) in every one of %n runs per mode",
                        "", n).format(speedup=speedup)
    if verdict == "too-few-runs":
        return texts.tr("×{speedup:.2f} from %n run(s) per mode: too few to tell from noise (run at least "
                        "{least})", "", n).format(speedup=speedup, least=MIN_COUNTED_RUNS)
    if abs(comparison.speedup - 1.0) <= NOISE_FLOOR:
        why = translate("texts", "medians within {floor:.0%}").format(floor=NOISE_FLOOR)
    else:
        why = translate("texts", "the two modes' tokens/s ranges overlap")
    return translate("texts", "No measurable difference (×{speedup:.2f}; {why})").format(speedup=speedup, why=why)


def compared_text(comparison: Comparison) -> str:
    """Exactly what was compared: the two sides, precision, repeats, order, warm-ups, length."""
    setup = comparison.setup
    warmups = len(comparison.warmups)
    warm = (texts.tr("after %n uncounted warm-up run(s) of up to {tokens} tokens", "", warmups).format(
        tokens=setup.warmup_tokens) if warmups else translate("texts", "no warm-up"))
    return texts.tr("Compared: EAGLE-3 {drafting} vs {baseline}, on {device}, {precision}; %n run(s) per "
                    "mode in alternating order, {warm}; up to {tokens} new tokens", "", comparison.repeats).format(
        drafting=_drafting(setup.k, setup.tree), baseline=baseline_source_text(setup.draft_free_baseline),
        device=setup.device, precision=precision_text(setup.precision), warm=warm, tokens=setup.max_new_tokens)


def comparison_lines(comparison: Comparison) -> list[str]:
    """The summary under a finished comparison: verdict, what was compared, medians with their spread."""
    def fmt(value, pattern):
        return "–" if value is None else pattern.format(value)

    def rate(mode):
        spread = comparison.spread(mode)
        median = fmt(comparison.median(mode, "tokens_per_s"), "{:.1f}")
        return median if spread is None else f"{median} ({spread[0]:.1f}–{spread[1]:.1f})"

    median = comparison.median
    divergence = comparison.divergence
    return [
        verdict_text(comparison),
        compared_text(comparison),
        translate("texts", "tokens/s, median (min–max): baseline {baseline} · EAGLE-3 {speculative}").format(
            baseline=rate("baseline"), speculative=rate("speculative")),
        translate("texts", "TTFT: baseline {baseline} · EAGLE-3 {speculative}").format(
            baseline=fmt(median("baseline", "ttft_ms"), "{:.0f} ms"),
            speculative=fmt(median("speculative", "ttft_ms"), "{:.0f} ms")),
        translate("texts", "EAGLE-3: {rate} tokens/step · acceptance {share}").format(
            rate=fmt(median("speculative", "tokens_per_step"), "{:.2f}"),
            share=fmt(median("speculative", "acceptance"), "{:.0%}")),
        translate("texts", "Answers identical ✓") if divergence is None else
        translate("texts", "Answers differ: {where}").format(where=divergence_text(divergence)),
    ]


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return translate("texts", "{seconds} s").format(seconds=seconds)
    if seconds < 3600:
        return translate("texts", "{minutes} min {seconds:02d} s").format(minutes=seconds // 60, seconds=seconds % 60)
    return translate("texts", "{hours} h {minutes:02d} min").format(hours=seconds // 3600,
                                                                     minutes=seconds % 3600 // 60)


def progress_text(progress: Progress) -> str:
    """``1.2 GB of 4.8 GB · 11.3 MB/s · 5 min 20 s left · openvino_model.bin``, or the step's message."""
    if progress.done is None or not progress.total:
        return progress.message or progress.step
    parts = [translate("texts", "{done} of {total}").format(done=format_bytes(progress.done),
                                                            total=format_bytes(progress.total))]
    if progress.speed:
        parts.append(translate("texts", "{size}/s").format(size=format_bytes(progress.speed)))
    if progress.eta is not None and progress.done < progress.total:
        parts.append(translate("texts", "{duration} left").format(duration=format_duration(progress.eta)))
    if progress.file:
        parts.append(progress.file)
    return " · ".join(parts)


def model_label(choice: ModelChoice) -> str:
    """How the model bar and the status bar name a pair: :func:`model_name`, then " — " and a note."""
    note = SPEED_DEMO_NOTE if choice.name == speed_demo.NAME else TOY_NOTE if choice.bundled else None
    return f"{model_name(choice)} — {translate('texts', note)}" if note else model_name(choice)


def model_name(choice: ModelChoice) -> str:
    """A pair's name: the catalog's (with its folders), else its folders."""
    if choice.name == speed_demo.NAME:
        return speed_demo.NAME
    target = choice.target_dir.name
    folders = (f"{target} + {choice.draft_dir.name}" if choice.draft_dir
               else translate("texts", "{target} (no draft)").format(target=target))
    return translate("texts", "{name} ({folders})").format(name=choice.name, folders=folders) if choice.name else folders


def npu_tree_text(tree: DraftTree, problem: str | None = None) -> tuple[str, str]:
    """(label, tooltip) for the tree GenAI drafts on the NPU with the current K and tuned tree."""
    if problem:
        return translate("texts", "NPU cannot draft {candidates} tokens this way").format(
            candidates=tree.candidates), problem
    why = translate("texts", "On the NPU, OpenVINO GenAI drafts trees only: a chain of K tokens is a tree K deep "
                             "with one branch, and the limits are compiled into the draft when the model loads.")
    if tree.is_chain:
        return translate("texts", "NPU drafts a chain: depth {depth} × 1 branch, {verified} candidates").format(
            depth=tree.depth, verified=tree.verified), why
    return translate("texts", "NPU drafts a tree: depth {depth} × {branching} branches, {verified} candidates").format(
        depth=tree.depth, branching=tree.branching, verified=tree.verified), why


def busy_reason(state: str) -> str | None:
    """Why the model, device and precision cannot change now (None: they can)."""
    if state != "generating":  # while a model loads, another choice cancels that load (its host ends) for the new one
        return None
    return translate("texts", "A reply is being generated: stop it or let it finish before changing the model, "
                              "device or precision.")


def closing_text(waiting_for: list[str], deadline_s: float | None) -> str:
    """The notice while the window waits to close: what it waits for, and the bound when there is one."""
    what = waiting_for[0] if waiting_for else ""
    for more in waiting_for[1:]:
        what = translate("texts", "{earlier} and {more}").format(earlier=what, more=more)
    if deadline_s:
        return translate("texts", "Closing after {what} (at most {seconds:.0f} s)…").format(what=what, seconds=deadline_s)
    return translate("texts", "Closing after {what}…").format(what=what)


# --- the start's notices (app.py builds the window; the sentences live here, where lupdate looks) ----------
def draft_without_model_notice() -> str:
    return translate("texts", "--draft was given without --model; the saved model is used.")


def device_unavailable_notice(device: str, reason: str) -> str:
    """The device asked for (command line or settings) is not here; ``reason`` is the core's."""
    return translate("texts", "{device} is not available here ({reason}); using CPU.").format(device=device,
                                                                                           reason=reason)


def interrupted_notice(replies: int) -> str:
    """Replies left streaming by the last run (no crash marker): kept and marked interrupted."""
    return texts.tr("%n reply was cut off when EagleChat last closed; its text so far is kept and marked "
                    "interrupted.", "", replies)
