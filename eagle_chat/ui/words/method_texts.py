"""The words for the speculation method: the Speculation list's items, the next-reply line of a pinned method,
the notice when a pin meets a model that does not offer it, and a reply's method by name.

The methods are :mod:`eagle_chat.core.generation.speculation`'s. "EAGLE-3", "DFlash" and "MTP" are names and
stay as they are in every language; the rest go through Qt's translation in context "method_texts".
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from eagle_chat.core.generation import outlook, speculation
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.ui.words.i18n import translate

# The Speculation list's items (capitalised: each stands alone); the order the list shows them in.
CHOICES = {
    speculation.AUTO: QT_TRANSLATE_NOOP("method_texts", "Automatic"),
    speculation.EAGLE3: "EAGLE-3",
    speculation.PROMPT_LOOKUP: QT_TRANSLATE_NOOP("method_texts", "Prompt lookup"),
    speculation.DFLASH: "DFlash",
    speculation.MTP: "MTP",
    speculation.OFF: QT_TRANSLATE_NOOP("method_texts", "Off"),
}
# A method inside a sentence ("Next reply: prompt lookup (pinned)", a chart line's name).
NAMES = {
    speculation.EAGLE3: "EAGLE-3",
    speculation.PROMPT_LOOKUP: QT_TRANSLATE_NOOP("method_texts", "prompt lookup"),
    speculation.DFLASH: "DFlash",
    speculation.MTP: "MTP",
    speculation.OFF: QT_TRANSLATE_NOOP("method_texts", "baseline"),
}
TIP = QT_TRANSLATE_NOOP(
    "method_texts", "How the next reply speculates. Automatic chooses per kind of work (EAGLE-3 for free writing, "
                    "prompt lookup for replies that repeat pasted code, documents or tool results); a method "
                    "chosen here is used for every reply. Off is the same as the EAGLE-3 button switched off.")


def choice(method: str) -> str:
    """A Speculation list item."""
    return translate("method_texts", CHOICES.get(method, method))


def name(method: str) -> str:
    """A method inside a sentence: "EAGLE-3", "prompt lookup", "baseline" (plain decoding)."""
    return translate("method_texts", NAMES.get(method, method))


def line_name(stats: GenerationStats) -> str | None:
    """The speed chart's name for a reply's line: the method a speculative reply ran with (None: the mode's)."""
    return name(stats.speculation) if stats.mode == "speculative" else None


def next_reply_line(o: outlook.Outlook) -> str:
    """The next-reply line for :data:`outlook.PINNED` and :data:`outlook.PINNED_OFF`."""
    if o.reason == outlook.PINNED_OFF:
        return translate("method_texts", "Next reply: plain decoding (pinned) — Speculation is set to Off.")
    how = _how(o, o.k, tree=o.method != speculation.PROMPT_LOOKUP)
    return translate("method_texts", "Next reply: {method} (pinned), {how} — set under Speculation; Automatic "
                                     "would choose per kind of work.").format(method=name(o.method), how=how)


# What a kind of work is, inside the next-reply line ("Next reply: prompt lookup, K=5 — this answer quotes …").
KIND_PHRASES = {
    speculation.PROSE: QT_TRANSLATE_NOOP("method_texts", "free writing"),
    speculation.CODE: QT_TRANSLATE_NOOP("method_texts", "writing new code"),
    speculation.CODE_EDIT: QT_TRANSLATE_NOOP("method_texts", "this answer repeats the code you pasted"),
    speculation.DOCUMENT: QT_TRANSLATE_NOOP("method_texts", "this answer quotes your documents"),
    speculation.TOOL: QT_TRANSLATE_NOOP("method_texts", "this step reads tool results"),
    speculation.CHINESE: QT_TRANSLATE_NOOP("method_texts", "Chinese writing"),
}


def automatic_line(o: outlook.Outlook) -> str | None:
    """The next-reply line where Automatic decides: the method it picks for the message as typed, K, and why
    (the kind of work, and the replies measured here behind the pick). None: no pick to name (plain decoding
    without a draft keeps the general line)."""
    c = o.choice
    if c is None or c.method == speculation.OFF:
        return None
    how = _how(o, c.k, tree=c.method == speculation.EAGLE3)
    kind = translate("method_texts", KIND_PHRASES.get(c.kind, KIND_PHRASES[speculation.PROSE]))
    fields = {"method": name(c.method), "how": how, "kind": kind, "n": c.replies,
              "per_step": f"{c.tokens_per_step or 0:.1f}", "share": round(100 * (c.overlap or 0))}
    if c.basis == "measured":
        return translate("method_texts", "Next reply: {method}, {how} — {kind}: {per_step} tokens/step over the "
                                         "last {n} such replies here.").format(**fields)
    if c.basis == "overlap":
        return translate("method_texts", "Next reply: {method}, {how} — this conversation's replies copy their "
                                         "prompts ({share} % of their phrases).").format(**fields)
    if c.basis == "trying":
        return translate("method_texts", "Next reply: {method}, {how} — {kind}; the other method drafted only "
                                         "{per_step} tokens/step over the last {n} such replies here, so "
                                         "Automatic tries this one.").format(**fields)
    return translate("method_texts", "Next reply: {method}, {how} — {kind}; Automatic's first choice for such "
                                     "work until replies of it are measured here.").format(**fields)


def _how(o: outlook.Outlook, k: int, *, tree: bool) -> str:
    """How the method drafts: "K=5", or the draft tree set for it when ``tree`` (a method that drafts trees)."""
    if tree and o.tree_depth:
        return translate("method_texts", "a draft tree {depth} deep × {branching} wide, K={k}").format(
            depth=o.tree_depth, branching=o.branching_factor, k=k)
    return f"K={k}"


def fallback_notice(method: str) -> str:
    """A pinned method the newly loaded model does not offer: what the window says, and what runs instead."""
    return translate("method_texts", "The loaded model does not offer {method}: Speculation is back to "
                                     "Automatic.").format(method=name(method))
