"""The sentences of demo preparation: the pre-flight lines, the speed-up outlook, the one-click flow.

Built from the facts :mod:`eagle_chat.core.measure.preflight` and :mod:`~eagle_chat.core.measure.outlook`
return, in one place (like :mod:`eagle_chat.ui.texts`), so they can be translated without touching the core.
"""

from __future__ import annotations

from eagle_chat.core.acquisition.staging import format_bytes
from eagle_chat.core.measure.outlook import SHOWABLE_SPEEDUP, Outlook
from eagle_chat.core.measure.preflight import Check

MARKS = {"ok": "✓", "warn": "⚠", "todo": "✗", "unknown": "?"}
FIX_LABELS = {"load": "&Load it", "speed-demo": "Use the s&peed-demo pair", "tune": "&Tune now",
              "warm-up": "&Warm up"}


def outlook_sentence(outlook: Outlook, pair: str) -> str | None:
    """One sentence for the compare view when the pair cannot show a speed-up here; None when it can (or
    nobody knows yet)."""
    if outlook.kind == "too-small":
        return ("The bundled tiny pair is too small for a dependable EAGLE-3 speed-up on a CPU (it is so cheap per "
                "token that overhead decides it from run to run); the speed-demo pair is built to show it.")
    if outlook.kind == "no-draft":
        return f"{pair} has no EAGLE-3 draft, so there is nothing to compare; the speed-demo pair has one."
    if outlook.kind == "measured-low" and outlook.is_speed_demo:
        return (f"Even the speed-demo pair measured only ×{outlook.speedup:.2f} here: other programs are "
                "probably using the CPU (Demo ▸ Pre-flight check names them).")
    if outlook.kind == "measured-low":
        return (f"{pair} measured ×{outlook.speedup:.2f} on this machine, under the ×{SHOWABLE_SPEEDUP:.1f} "
                "worth showing; the speed-demo pair shows the speed-up.")
    return None


def flow_text(step: str) -> str:
    return {
        "build": "Building the speed-demo pair (a few seconds; the chat keeps working)…",
        "wait": "Speed-demo pair built; it loads as soon as the reply in progress has finished…",
        "load": "Loading the speed-demo pair at f32, where both modes' answers are identical…",
        "tune": "Tuning the draft tokens for this machine (a short sweep from K=3)…",
        "ready": "Speed-demo pair ready: running the comparison…",
    }[step]


def check_line(check: Check) -> str:
    """The sentence of one pre-flight line (the mark is shown next to it)."""
    return _LINES[check.key](check.status, check.facts)


def _model(status, f) -> str:
    pair = f.get("name") or f["target"] + (f" + {f['draft']}" if f.get("draft") else "")
    if status == "ok":
        return f"{pair} loaded on {f['device']} with its EAGLE-3 draft."
    if not f.get("draft"):
        return f"{pair} has no EAGLE-3 draft: use the speed-demo pair (or pick a pair under Models)."
    if f.get("loaded_device") is None:
        return f"{pair} is not loaded yet: load it on {f['device']}."
    return f"The loaded model is not {pair} on {f['device']}: load it."


def _speedup(status, f) -> str:
    if f["kind"] == "measured-ok":
        return f"This pair measured ×{f['speedup']:.2f} here at {f['precision']} precision."
    if f["kind"] == "too-small":
        return "The bundled tiny pair is too small for a dependable speed-up: use the speed-demo pair."
    if f["kind"] == "no-draft":
        return "Without a draft there is no speed-up to show: use the speed-demo pair."
    if f["kind"] == "unknown":
        return "Not measured on this machine yet: a short tune measures it."
    if f["is_speed_demo"]:
        return (f"The speed-demo pair measured only ×{f['speedup']:.2f}: free the CPU (see below) and "
                "measure again.")
    return f"This pair measured only ×{f['speedup']:.2f} here: use the speed-demo pair."


def _tuned(status, f) -> str:
    if status == "ok":
        what = f"K={f['k']}" + (f", draft tree {f['tree']}" if f.get("tree") else "")
        return f"Draft tokens tuned for {f['device']}: {what}."
    if status == "unknown":
        return "Nothing to tune without an EAGLE-3 draft."
    return f"Draft tokens not tuned for {f['device']} yet: a short tune takes a few seconds on small models."


def _warm(status, f) -> str:
    if status == "ok":
        return "Both modes warmed up since the load: the first reply is as fast as the tenth."
    if status == "unknown":
        return "Load the model first; then both modes are warmed up."
    return "Not warmed up yet: " + " and ".join("EAGLE-3" if m == "speculative" else m for m in f["missing"]) + \
        " still pay their first-run cost."


def _cache(status, f) -> str:
    if f["dir"] is None:
        return "No compiled-model cache is set: every start compiles the model afresh."
    if not f["blobs"] and f.get("loaded"):
        return "The load left no compiled blobs in the cache: this device compiles the model at every start."
    if not f["blobs"]:
        return "No compiled blobs in the cache yet: load the model once and the next start is faster."
    loaded = f" This load took {f['load_time_ms'] / 1000:.1f} s" if f.get("load_time_ms") else ""
    if f.get("new"):
        origin = f"{loaded}, compiling and caching {f['new']} blob(s): the next start reads them."
    else:
        origin = f"{loaded}, from the cache." if loaded else ""
    return f"Compiled-model cache in place ({f['blobs']} blob(s), {format_bytes(f['bytes'])}).{origin}"


def _power(status, f) -> str:
    if f["kind"] == "mains":
        return "On mains power."
    if f["kind"] == "no-battery":
        return "No battery (mains power)."
    if f["kind"] == "battery":
        level = f" ({f['percent']:.0f} %)" if f.get("percent") is not None else ""
        return f"On battery{level}: the CPU may be throttled — plug in the charger."
    return "Power source unknown (no battery information here): if this is a laptop, plug it in."


def _cpu(status, f) -> str:
    if status == "unknown":
        return "CPU load from other programs unknown on this system: close what you do not need."
    share = f"{f['others']:.0%}"
    if status == "ok":
        return f"Other programs use {share} of the CPU."
    top = ", ".join(f"{name} {value:.0%} of a core" for name, value in f["top"])
    return (f"Other programs keep the CPU {share} busy" + (f" ({top})" if top else "") +
            ": close them — the speed-up needs free cores.")


def _screen(status, f) -> str:
    if status == "unknown":
        return "Screen size unknown."
    size = f"{f['width']}×{f['height']}"
    if status == "ok":
        return f"Screen {size}: the large type fits."
    return (f"Screen {size} is smaller than the large type needs ({f['need_width']}×{f['need_height']}): use "
            "a larger display or lower the display scaling.")


_LINES = {"model": _model, "speedup": _speedup, "tuned": _tuned, "warm": _warm, "cache": _cache,
          "power": _power, "cpu": _cpu, "screen": _screen}
