"""The engine host's costs and recovery: the time from a crash to the next reply, and the app's memory
before a load, with a model loaded and after Unload — on the bundled tiny pair and the speed-demo pair.

    python benchmarks/engine_restart.py [--crashes 5] [--pairs tiny,speed-demo]

A real window (offscreen) per pair. Each crash SIGKILLs the engine host at a reply's first streamed text,
as GenAI's heap abort ends it; the next question is sent as soon as the window has marked the failed reply
(while the new host is still starting), as a user would. Figures, per crash:
- kill → engine restarted (a new host has loaded the same pair; OpenVINO's compiled-model cache warm),
- kill → the next reply's first text (what the user waits for),
- kill → the next reply finished.
Memory (VmRSS from /proc): the app alone before the first load finishes, the app and its engine host
with the pair loaded (after one reply), and both after Models → Unload (the host is gone).
"""

from __future__ import annotations

import argparse
import os
import signal
import tempfile
import time
from pathlib import Path

from _common import ROOT, median, private_home, rss_mb

TINY = (ROOT / "tests" / "models" / "tiny-qwen3", ROOT / "tests" / "models" / "tiny-qwen3-eagle3")


def main() -> None:
    private_home()
    import faulthandler

    faulthandler.dump_traceback_later(600, exit=True)  # a hang prints where it is
    parser = argparse.ArgumentParser()
    parser.add_argument("--crashes", type=int, default=5)
    parser.add_argument("--pairs", default="tiny,speed-demo")
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window
    from eagle_chat.core.models.speed_demo import build_speed_demo

    pairs = {"tiny": TINY}
    if "speed-demo" in args.pairs:
        started = time.perf_counter()
        pairs["speed-demo"] = build_speed_demo(*TINY, Path(tempfile.mkdtemp(prefix="eagle-speed-demo-")))
        print(f"speed-demo pair built in {time.perf_counter() - started:.1f} s")
    app = None

    def wait_until(condition, timeout_s: float = 120.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise SystemExit(f"timed out waiting for {condition}")
            loop = QEventLoop()
            QTimer.singleShot(5, loop.quit)
            loop.exec()

    for name in args.pairs.split(","):
        target, draft = pairs[name]
        window = create_main_window(["--model", str(target), "--draft", str(draft)])
        app = QApplication.instance()
        c = window.controller
        before_load = rss_mb()  # the load has just been queued: OpenVINO is not in this process
        wait_until(lambda: c.state in ("ready", "empty"))
        if c.state == "empty":
            raise SystemExit(f"{name}: the pair did not load: {window.notice.text()}")
        window.options.max_tokens.setValue(2048)
        events: dict[str, float] = {}
        replies: list[tuple] = []
        c.sig_reply_finished.connect(lambda message, result: replies.append((time.perf_counter(), result)))
        c.sig_engine_restarted.connect(lambda _info: events.setdefault("restarted", time.perf_counter()))

        def on_text(message, _text) -> None:
            now = time.perf_counter()
            if "kill_at_text" in events:
                pid = events.pop("kill_at_text")
                events["killed"] = now
                os.kill(int(pid), signal.SIGKILL)
            elif "killed" in events and "first_text" not in events:
                events["first_text"] = now

        c.sig_reply_text.connect(on_text)

        def ask(text: str) -> None:
            window.prompt.setPlainText(text)
            window.send()

        c.conversations.new_conversation()
        ask("Write a long story about a parser.")
        wait_until(lambda: bool(replies) and c.reply is None)
        loaded = rss_mb(), rss_mb(c.engine_pid())
        restarted, first_text, finished = [], [], []
        for _crash in range(args.crashes):
            window.options.max_tokens.setValue(2048)
            c.conversations.new_conversation()
            events.clear()
            replies.clear()
            events["kill_at_text"] = c.engine_pid()
            ask("Write a long story about a parser.")
            wait_until(lambda: "killed" in events)
            wait_until(lambda: bool(replies) and c.reply is None)  # the failed reply, kept and marked
            window.options.max_tokens.setValue(32)
            ask("And now a short one.")  # sent at once: it runs as soon as the host is back
            wait_until(lambda: len(replies) >= 2 and c.reply is None)
            assert replies[0][1] is None and replies[1][1] is not None, "the crash did not cost exactly one reply"
            restarted.append((events["restarted"] - events["killed"]) * 1000)
            first_text.append((events["first_text"] - events["killed"]) * 1000)
            finished.append((replies[1][0] - events["killed"]) * 1000)
        window.controller.unload()
        wait_until(lambda: c.engine_pid() is None and c.state == "empty")
        time.sleep(0.5)
        after_unload = rss_mb()
        print(f"\n{name} pair ({target.name}), {args.crashes} SIGKILLs mid-reply:")
        print(f"  kill → engine restarted:        median {median(restarted):7.0f} ms (max {max(restarted):.0f})")
        print(f"  kill → next reply's first text: median {median(first_text):7.0f} ms (max {max(first_text):.0f})")
        print(f"  kill → next reply finished:     median {median(finished):7.0f} ms (max {max(finished):.0f})")
        print(f"  RSS: app before load {before_load:.0f} MB; loaded: app {loaded[0]:.0f} MB + engine host "
              f"{loaded[1]:.0f} MB; after Unload: app {after_unload:.0f} MB, no engine host")
        window.close()
        wait_until(lambda: window.closer.done)
        window.deleteLater()
    if app is not None:
        app.processEvents()


if __name__ == "__main__":
    main()
