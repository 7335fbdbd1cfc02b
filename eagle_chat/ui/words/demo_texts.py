"""The sentences of demo preparation: the pre-flight lines, the speed-up outlook, the one-click flow.

Built from the facts :mod:`eagle_chat.core.measure.preflight` and :mod:`~eagle_chat.core.measure.speedup_outlook`
return, in one place (like :mod:`eagle_chat.ui.words.texts`), so they can be translated without touching the core:
every sentence goes through Qt's translation in the context "demo_texts" (named ``.format`` fields with the
number format inside them, ``%n`` plurals); without a translator the English is the source itself.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from eagle_chat.core.acquisition.staging import format_bytes
from eagle_chat.core.measure.speedup_outlook import SHOWABLE_SPEEDUP, Outlook
from eagle_chat.core.measure.preflight import Check
from eagle_chat.ui.words.i18n import Context, translate

MARKS = {"ok": "✓", "warn": "⚠", "todo": "✗", "unknown": "?"}  # symbols: the same in every language
# the fix button of a pre-flight line; shown through fix_label() (keys are Check.fix values)
FIX_LABELS = {"load": QT_TRANSLATE_NOOP("demo_texts", "&Load it"),
              "speed-demo": QT_TRANSLATE_NOOP("demo_texts", "Use the s&peed-demo pair"),
              "tune": QT_TRANSLATE_NOOP("demo_texts", "&Tune now"),
              "warm-up": QT_TRANSLATE_NOOP("demo_texts", "&Warm up")}
_FLOW = {
    "build": QT_TRANSLATE_NOOP("demo_texts", "Building the speed-demo pair (a few seconds; the chat keeps working)…"),
    "wait": QT_TRANSLATE_NOOP("demo_texts", "Speed-demo pair built; it loads as soon as the reply in progress has "
                                            "finished…"),
    "load": QT_TRANSLATE_NOOP("demo_texts", "Loading the speed-demo pair at f32, where both modes' answers are "
                                            "identical…"),
    "tune": QT_TRANSLATE_NOOP("demo_texts", "Tuning the draft tokens for this machine (a short sweep from K=3)…"),
    "ready": QT_TRANSLATE_NOOP("demo_texts", "Speed-demo pair ready: running the comparison…"),
}
demo_texts = Context("demo_texts")  # plurals: demo_texts.tr("…%n…", "", n) (see i18n.Context)
_MODES = {"speculative": "EAGLE-3", "baseline": QT_TRANSLATE_NOOP("demo_texts", "baseline")}  # EAGLE-3: a name


def fix_label(fix: str) -> str:
    """The text of a pre-flight line's fix button (with its accelerator), in the UI language."""
    return translate("demo_texts", FIX_LABELS[fix])


def outlook_sentence(outlook: Outlook, pair: str, faster: float | None = None) -> str | None:
    """One sentence for the compare view when the pair cannot show a speed-up here; None when it can (or
    nobody knows yet). ``faster``: the last comparison's verdict was "×… faster" — the sentence then says
    why that figure is not to be relied on, instead of contradicting the headline above it."""
    if outlook.kind == "too-small" and faster is not None:
        return translate("demo_texts", "This ×{speedup:.1f} is not dependable: the bundled tiny pair is so cheap per "
                                       "token that overhead decides it from run to run, and the next run may show "
                                       "none; the speed-demo pair is built to show it.").format(speedup=faster)
    if outlook.kind == "too-small":
        return translate("demo_texts", "The bundled tiny pair is too small for a dependable EAGLE-3 speed-up on a CPU "
                                       "(it is so cheap per token that overhead decides it from run to run); the "
                                       "speed-demo pair is built to show it.")
    if outlook.kind == "no-draft":
        return translate("demo_texts", "{pair} has no EAGLE-3 draft, so there is nothing to compare; the speed-demo "
                                       "pair has one.").format(pair=pair)
    if outlook.kind == "measured-low" and outlook.is_speed_demo:
        return translate("demo_texts", "Even the speed-demo pair measured only ×{speedup:.2f} here: other programs "
                                       "are probably using the CPU (Demo ▸ Pre-flight check names them).").format(
            speedup=outlook.speedup)
    if outlook.kind == "measured-low":
        return translate("demo_texts", "{pair} measured ×{speedup:.2f} on this machine, under the ×{showable:.1f} "
                                       "worth showing; the speed-demo pair shows the speed-up.").format(
            pair=pair, speedup=outlook.speedup, showable=SHOWABLE_SPEEDUP)
    return None


def flow_text(step: str) -> str:
    return translate("demo_texts", _FLOW[step])


def check_line(check: Check) -> str:
    """The sentence of one pre-flight line (the mark is shown next to it)."""
    return _LINES[check.key](check.status, check.facts)


def _model(status, f) -> str:
    pair = f.get("name") or f["target"] + (f" + {f['draft']}" if f.get("draft") else "")
    if status == "ok":
        return translate("demo_texts", "{pair} loaded on {device} with its EAGLE-3 draft.").format(
            pair=pair, device=f["device"])
    if not f.get("draft"):
        return translate("demo_texts", "{pair} has no EAGLE-3 draft: use the speed-demo pair (or pick a pair under "
                                       "Models).").format(pair=pair)
    if f.get("loaded_device") is None:
        return translate("demo_texts", "{pair} is not loaded yet: load it on {device}.").format(
            pair=pair, device=f["device"])
    return translate("demo_texts", "The loaded model is not {pair} on {device}: load it.").format(
        pair=pair, device=f["device"])


def _speedup(status, f) -> str:
    if f["kind"] == "measured-ok":
        return translate("demo_texts", "This pair measured ×{speedup:.2f} here at {precision} precision.").format(
            speedup=f["speedup"], precision=f["precision"])
    if f["kind"] == "too-small":
        return translate("demo_texts", "The bundled tiny pair is too small for a dependable speed-up: use the "
                                       "speed-demo pair.")
    if f["kind"] == "no-draft":
        return translate("demo_texts", "Without a draft there is no speed-up to show: use the speed-demo pair.")
    if f["kind"] == "unknown":
        return translate("demo_texts", "Not measured on this machine yet: a short tune measures it.")
    if f["is_speed_demo"]:
        return translate("demo_texts", "The speed-demo pair measured only ×{speedup:.2f}: free the CPU (see below) "
                                       "and measure again.").format(speedup=f["speedup"])
    return translate("demo_texts", "This pair measured only ×{speedup:.2f} here: use the speed-demo pair.").format(
        speedup=f["speedup"])


def _tuned(status, f) -> str:
    if status == "ok":
        what = (translate("demo_texts", "K={k}, draft tree {tree}").format(k=f["k"], tree=f["tree"]) if f.get("tree")
                else f"K={f['k']}")
        return translate("demo_texts", "Draft tokens tuned for {device}: {what}.").format(device=f["device"], what=what)
    if status == "unknown":
        return translate("demo_texts", "Nothing to tune without an EAGLE-3 draft.")
    return translate("demo_texts", "Draft tokens not tuned for {device} yet: a short tune takes a few seconds on small "
                                   "models.").format(device=f["device"])


def _warm(status, f) -> str:
    if status == "ok":
        return translate("demo_texts", "Both modes warmed up since the load: the first reply is as fast as the tenth.")
    if status == "unknown":
        return translate("demo_texts", "Load the model first; then both modes are warmed up.")
    names = [translate("demo_texts", _MODES[m]) if m in _MODES else m for m in f["missing"]]
    modes = names[0] if names else ""
    for more in names[1:]:
        modes = translate("demo_texts", "{earlier} and {more}").format(earlier=modes, more=more)
    return translate("demo_texts", "Not warmed up yet: {modes} still pay their first-run cost.").format(modes=modes)


def _cache(status, f) -> str:
    if f["dir"] is None:
        return translate("demo_texts", "No compiled-model cache is set: every start compiles the model afresh.")
    if not f["blobs"] and f.get("loaded"):
        return translate("demo_texts", "The load left no compiled blobs in the cache: this device compiles the model "
                                       "at every start.")
    if not f["blobs"]:
        return translate("demo_texts", "No compiled blobs in the cache yet: load the model once and the next start is "
                                       "faster.")
    seconds = f["load_time_ms"] / 1000 if f.get("load_time_ms") else None
    if f.get("new") and seconds is not None:
        origin = demo_texts.tr(" This load took {seconds:.1f} s, compiling and caching %n blob(s): the next "
                               "start reads them.", "", f["new"]).format(seconds=seconds)
    elif f.get("new"):
        origin = demo_texts.tr(", compiling and caching %n blob(s): the next start reads them.", "", f["new"])
    elif seconds is not None:
        origin = translate("demo_texts", " This load took {seconds:.1f} s, from the cache.").format(seconds=seconds)
    else:
        origin = ""
    return demo_texts.tr("Compiled-model cache in place (%n blob(s), {size}).{origin}", "", f["blobs"]
                         ).format(size=format_bytes(f["bytes"]), origin=origin)


def _power(status, f) -> str:
    if f["kind"] == "mains":
        return translate("demo_texts", "On mains power.")
    if f["kind"] == "no-battery":
        return translate("demo_texts", "No battery (mains power).")
    if f["kind"] == "battery" and f.get("percent") is not None:
        return translate("demo_texts", "On battery ({percent:.0f} %): the CPU may be throttled — plug in the "
                                       "charger.").format(percent=f["percent"])
    if f["kind"] == "battery":
        return translate("demo_texts", "On battery: the CPU may be throttled — plug in the charger.")
    return translate("demo_texts", "Power source unknown (no battery information here): if this is a laptop, plug it "
                                   "in.")


def _cpu(status, f) -> str:
    if status == "unknown":
        return translate("demo_texts", "CPU load from other programs unknown on this system: close what you do not "
                                       "need.")
    if status == "ok":
        return translate("demo_texts", "Other programs use {share:.0%} of the CPU.").format(share=f["others"])
    top = ", ".join(translate("demo_texts", "{program} {share:.0%} of a core").format(program=name, share=value)
                    for name, value in f["top"])
    if top:
        return translate("demo_texts", "Other programs keep the CPU {share:.0%} busy ({top}): close them — the "
                                       "speed-up needs free cores.").format(share=f["others"], top=top)
    return translate("demo_texts", "Other programs keep the CPU {share:.0%} busy: close them — the speed-up needs "
                                   "free cores.").format(share=f["others"])


def _screen(status, f) -> str:
    if status == "unknown":
        return translate("demo_texts", "Screen size unknown.")
    if status == "ok":
        return translate("demo_texts", "Screen {width}×{height}: the large type fits.").format(
            width=f["width"], height=f["height"])
    return translate("demo_texts", "Screen {width}×{height} is smaller than the large type needs "
                                   "({need_width}×{need_height}): use a larger display or lower the display "
                                   "scaling.").format(width=f["width"], height=f["height"],
                                                      need_width=f["need_width"], need_height=f["need_height"])


_LINES = {"model": _model, "speedup": _speedup, "tuned": _tuned, "warm": _warm, "cache": _cache,
          "power": _power, "cpu": _cpu, "screen": _screen}
