"""``eagle-chat --self-test``: prove an installation (a wheel or a frozen bundle) actually works.

It loads the bundled tiny target + EAGLE-3 draft with the real engine, generates one short greedy reply
speculatively and one as the baseline, and checks the lossless property of the method: both replies are
non-empty and identical, and the draft got tokens accepted. Then it builds the real main window (offscreen
when there is no display) and waits until it has loaded the same pair. It prints a short report and
returns 0 when everything passed, 1 otherwise.

Everything runs under a temporary ``EAGLE_CHAT_HOME``, so the user's settings, conversations and caches are
never read or written; the variable is restored afterwards.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from eagle_chat import paths
from eagle_chat.core.device_kinds import DEVICE_KINDS

PROMPT = "Write a Python function that reverses a string."  # the tiny models were trained on such prompts
PASSED = "EagleChat self-test passed"
FAILED = "EagleChat self-test FAILED"


@dataclass
class Report:
    """Lines to print and the failures found; ``ok`` when there are none."""

    out: Callable[[str], None] = print
    failures: list[str] = field(default_factory=list)

    def line(self, text: str) -> None:
        self.out(text)

    def check(self, condition: bool, what: str) -> bool:
        self.out(f"  [{'ok' if condition else 'FAIL'}] {what}")
        if not condition:
            self.failures.append(what)
        return condition

    def fail(self, what: str) -> None:
        self.out(f"  [FAIL] {what}")
        self.failures.append(what)

    @property
    def ok(self) -> bool:
        return not self.failures


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    """Run the checks; print the report through ``out``; 0 when all passed, 1 otherwise."""
    args = _parser().parse_args(list(argv or []))
    report = Report(out=out)
    saved_home = os.environ.get(paths.HOME_ENV)
    with tempfile.TemporaryDirectory(prefix="eagle-chat-self-test-", ignore_cleanup_errors=True) as home:
        os.environ[paths.HOME_ENV] = home
        try:
            _run_part(report, "versions", _versions, report)
            _run_part(report, "privacy", _privacy, report)
            _run_part(report, "engine", _engine, report, args)
            if args.no_gui:
                report.line("main window: skipped (--no-gui)")
            else:
                _run_part(report, "main window", _gui, report, home, args)
        finally:
            if saved_home is None:
                os.environ.pop(paths.HOME_ENV, None)
            else:
                os.environ[paths.HOME_ENV] = saved_home
    if report.ok:
        out(PASSED)
        return 0
    out(f"{FAILED}: " + "; ".join(report.failures))
    return 1


def _run_part(report: Report, name: str, part: Callable[..., None], *args) -> None:
    """Run one part; an exception becomes a reported failure (a self-test reports, it never crashes)."""
    try:
        part(*args)
    except Exception as error:  # noqa: BLE001
        report.fail(f"{name}: {type(error).__name__}: {error}")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eagle-chat --self-test",
        description="Check that this EagleChat installation works: the bundled tiny models generate the "
        "same greedy reply with and without EAGLE-3, and the main window loads them. Uses a temporary "
        "home folder; touches none of your files.",
    )
    parser.add_argument("--device", default="CPU", type=str.upper, choices=list(DEVICE_KINDS))
    parser.add_argument("--max-new-tokens", type=int, default=32)
    parser.add_argument("--no-gui", action="store_true", help="skip the main-window check")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for the window's model")
    return parser


def _versions(report: Report) -> None:
    import eagle_chat

    frozen = getattr(sys, "frozen", False)
    report.line(
        f"EagleChat {eagle_chat.__version__} ({'frozen bundle' if frozen else 'Python package'}), "
        f"Python {platform.python_version()}, {platform.system()} {platform.machine()}"
    )
    import openvino
    import openvino_genai

    report.line(f"OpenVINO {openvino.get_version()}, OpenVINO GenAI {openvino_genai.get_version()}")
    try:
        import PySide6
        from PySide6 import QtCore

        report.line(f"PySide6 {PySide6.__version__}, Qt {QtCore.qVersion()}")
    except Exception as error:  # noqa: BLE001
        report.line(f"PySide6 unavailable: {error}")


def _privacy(report: Report) -> None:
    """The telemetry client must be unimportable (blocked in sys.modules, or absent from a bundle)."""
    import importlib

    try:
        importlib.import_module("openvino_telemetry")
    except ImportError:
        report.check(True, "usage telemetry (openvino_telemetry) cannot be imported")
    else:
        report.check(False, "usage telemetry (openvino_telemetry) cannot be imported")


def _engine(report: Report, args: argparse.Namespace) -> None:
    from eagle_chat.core.generation.devices import list_devices
    from eagle_chat.core.generation.engine import (
        Engine,
        GenerationSettings,
        PipelineSpec,
    )

    target, draft = paths.tiny_target_dir(), paths.tiny_draft_dir()
    devices = list_devices()
    names = {d.kind: d.full_name for d in devices}
    report.line("devices: " + ", ".join(f"{d.id} ({d.full_name})" for d in devices))
    report.line(f"tiny pair: {target} + {draft.name}")
    spec = PipelineSpec(target, draft, device=args.device, precision="f32")
    engine = Engine(spec)
    try:
        report.line(f"loaded on {args.device} ({names.get(args.device, '?')}) in {engine.load_time_ms:.0f} ms")
        tokens = args.max_new_tokens
        engine.generate(PROMPT, GenerationSettings(max_new_tokens=4))  # warm-up: first-call costs skew speeds
        speculative = engine.generate(PROMPT, GenerationSettings(max_new_tokens=tokens, speculative=True))
        baseline = engine.generate(PROMPT, GenerationSettings(max_new_tokens=tokens, speculative=False))
    finally:
        engine.close()
    for result in (speculative, baseline):
        s = result.stats
        extra = ""
        if s.mode == "speculative":
            acceptance = "n/a" if s.acceptance is None else f"{s.acceptance:.0%}"
            extra = f", {s.accepted_tokens}/{s.draft_tokens} draft tokens accepted ({acceptance})"
            if s.tokens_per_step is not None:
                extra += f", {s.tokens_per_step:.2f} tokens/step"
        report.line(
            f"{s.mode:>11}: {s.generated_tokens} tokens, {s.tokens_per_s:.1f} tokens/s, "
            f"TTFT {s.ttft_ms:.1f} ms{extra}"
        )
    report.line(f"reply: {speculative.text.strip()[:80]!r}")
    report.check(bool(speculative.text.strip()), "speculative reply is not empty")
    report.check(bool(baseline.text.strip()), "baseline reply is not empty")
    report.check(speculative.text == baseline.text, "speculative reply equals the baseline reply (greedy, f32)")
    report.check(speculative.stats.accepted_tokens > 0, "the EAGLE-3 draft had tokens accepted")


def _gui(report: Report, home: str, args: argparse.Namespace) -> None:
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        from eagle_chat.app import create_main_window
    except Exception as error:  # noqa: BLE001
        report.fail(f"main window: eagle_chat.app.create_main_window cannot be imported ({error})")
        return
    from PySide6.QtCore import QEventLoop
    from PySide6.QtWidgets import QApplication

    started = time.perf_counter()
    try:
        window = create_main_window(["--home", home, "--device", args.device])
    except Exception as error:  # noqa: BLE001
        report.fail(f"main window could not be created: {type(error).__name__}: {error}")
        return
    app = QApplication.instance()
    errors: list[str] = []
    controller = window.controller
    controller.sig_error.connect(errors.append)
    window.loads.sig_refused.connect(lambda message, _still: errors.append(message))
    seen_loading = controller.state == "loading"
    deadline = started + args.timeout
    while controller.state != "ready" and time.perf_counter() < deadline:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        seen_loading = seen_loading or controller.state == "loading"
        if seen_loading and controller.state == "empty" and errors:
            break
        time.sleep(0.01)
    state = controller.state
    elapsed = time.perf_counter() - started
    window.close()  # closing waits for a reply (the warm start) or a load to end: give it the event loop
    close_deadline = time.perf_counter() + args.timeout
    while not window.closer.done and time.perf_counter() < close_deadline:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.01)
    app.processEvents()
    report.line(f"main window ({app.platformName()} platform): state {state!r} after {elapsed:.1f} s")
    detail = f" ({errors[-1]})" if errors else ""
    report.check(state == "ready", f"the main window loaded the tiny pair{detail}")
    controller_module = sys.modules.get("eagle_chat.ui.runtime.controller")
    running = [t for t in getattr(controller_module, "LIVE_THREADS", ()) if t.isRunning()]
    report.check(not running, "closing the window ended its worker thread")
