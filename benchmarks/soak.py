"""Soak: N replies in a row through the real window on the tiny pair; RSS growth and thread counts.

    python benchmarks/soak.py [--replies 200] [--max-new-tokens 64]
"""

from __future__ import annotations

import argparse
import threading
import time

from _common import PROMPTS, os_threads, private_home, rss_mb


def main() -> None:
    private_home()
    parser = argparse.ArgumentParser()
    parser.add_argument("--replies", type=int, default=200)
    parser.add_argument("--max-new-tokens", type=int, default=64)
    args = parser.parse_args()

    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window

    window = create_main_window([])
    app = QApplication.instance()
    while window.controller.state != "ready":
        app.processEvents()
    window.options.max_tokens.setValue(args.max_new_tokens)
    done = []
    window.controller.sig_reply_finished.connect(lambda m, r: done.append(r))
    samples = []
    started = time.perf_counter()
    for i in range(args.replies):
        if i % 3 == 2:
            window.model_bar.draft_toggle.toggle()  # mix baseline and EAGLE-3 replies
        if i % 25 == 0:
            window.controller.conversations.new_conversation()
        window.prompt.setPlainText(PROMPTS[i % len(PROMPTS)])
        window.send()
        while len(done) <= i:
            app.processEvents()
            time.sleep(0.0005)
        if i in (0, 9, 49, 99, 149) or i == args.replies - 1:
            samples.append((i + 1, rss_mb(), os_threads(), threading.active_count()))
    elapsed = time.perf_counter() - started
    failed = sum(1 for r in done if r is None)
    tokens = sum(r.stats.generated_tokens for r in done if r is not None)
    print(f"{args.replies} replies in {elapsed:.1f} s ({tokens} tokens), {failed} failed")
    print(f"{'after reply':>11} {'RSS MB':>8} {'OS threads':>11} {'Py threads':>11}")
    for n, rss, threads, py_threads in samples:
        print(f"{n:>11} {rss:8.1f} {threads:11d} {py_threads:11d}")
    first, last = samples[0], samples[-1]
    print(f"RSS growth from reply {first[0]} to {last[0]}: {last[1] - first[1]:+.1f} MB; "
          f"OS threads {first[2]} -> {last[2]}")
    window.close()


if __name__ == "__main__":
    main()
