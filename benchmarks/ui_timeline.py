"""Where a window reply's time goes, next to the same reply on an engine host called directly (issue 39).

    python benchmarks/ui_timeline.py [--prompts 4] [--repeats 2] [--max-new-tokens 256] [--model DIR --draft DIR]

For each prompt, back to back: one reply through the window and one on a host of its own, each with its
timeline (ms from the send): the host asked (``generate``), the first chunk back, the result back, and, for
the window, ``sig_reply_finished`` (after every listener: the store, the chat view), and the GUI thread's own
CPU time between those marks (the work that competes with the engine for the cores). It prints the medians of
the window's fixed costs — send → host asked, result → finished — the chunk messages per reply (the host
coalesces them per ``CHUNK_INTERVAL_S``), and each engine's own tokens/s (GenerationStats), which says
whether the window's engine ran slower (competing for the cores) or the window added time around it.
"""

from __future__ import annotations

import argparse
import threading
import time

from _common import PROMPTS, median, private_home, ready_window


def main() -> None:
    private_home()
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--max-new-tokens", type=int, default=256)
    parser.add_argument("--model", default=None)
    parser.add_argument("--draft", default=None)
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop

    from eagle_chat import paths
    from eagle_chat.core.hosting.client import EngineHost

    marks: list[tuple[str, float]] = []
    plain_generate = EngineHost.generate
    # The GUI thread's own CPU time, read from any thread (POSIX; elsewhere the CPU columns are left out)
    clock = time.pthread_getcpuclockid(threading.main_thread().ident) if hasattr(time, "pthread_getcpuclockid") else None

    def gui_cpu(name: str) -> None:
        if clock is not None:
            marks.append((f"cpu {name}", time.clock_gettime(clock)))

    def timed_generate(self, *a, on_chunk, **k):
        if threading.current_thread() is not threading.main_thread():
            gui_cpu("asked")
        marks.append(("asked", time.perf_counter()))
        chunks = [0]

        def counted(*chunk):
            chunks[0] += 1
            if chunks[0] == 1:
                marks.append(("first chunk", time.perf_counter()))
            on_chunk(*chunk)

        result = plain_generate(self, *a, on_chunk=counted, **k)
        marks.append(("result", time.perf_counter()))
        if threading.current_thread() is not threading.main_thread():
            gui_cpu("result")
        marks.append((f"chunks={chunks[0]}", 0.0))
        return result

    EngineHost.generate = timed_generate  # type: ignore[method-assign]
    argv = ["--model", args.model] + (["--draft", args.draft] if args.draft else []) if args.model else []
    window, app = ready_window(argv)
    window.controller.next_turn.enabled = False  # its background reply would run beside the host's
    host = EngineHost(paths.log_dir() / "bench-engine.log")
    host.load(window.pipeline_spec())
    window.options.max_tokens.setValue(args.max_new_tokens)
    settings = window.generation_settings()

    def through_window(prompt: str):
        window.controller.conversations.new_conversation()
        done: list = []
        loop = QEventLoop()

        def finished(message, result) -> None:
            marks.append(("finished", time.perf_counter()))
            gui_cpu("finished")
            done.append(result)
            loop.quit()

        window.controller.sig_reply_finished.connect(finished)
        gui_cpu("send")
        marks.append(("send", time.perf_counter()))
        window.prompt.setPlainText(prompt)
        window.send()
        if not done:
            loop.exec()
        window.controller.sig_reply_finished.disconnect(finished)
        return done[0]

    def in_host(prompt: str):
        marks.append(("send", time.perf_counter()))
        return host.generate([{"role": "user", "content": prompt}], settings, threading.Event(),
                             on_chunk=lambda *chunk: None, on_steps=lambda steps: None)

    def timeline() -> dict[str, float]:
        start = next(t for name, t in marks if name == "send")
        named = {name: (t - start) * 1000 for name, t in marks if not name.startswith(("chunks=", "cpu "))}
        cpu = {name[4:]: t for name, t in marks if name.startswith("cpu ")}
        for a, b in (("send", "asked"), ("asked", "result"), ("result", "finished")):
            if a in cpu and b in cpu:
                named[f"cpu {a}-{b}"] = (cpu[b] - cpu[a]) * 1000
        named["chunks"] = next(float(name[7:]) for name, _ in marks if name.startswith("chunks="))
        marks.clear()
        return named

    through_window(PROMPTS[0])
    in_host(PROMPTS[0])
    marks.clear()
    rows: dict[str, list] = {"window": [], "host": []}
    for repeat in range(args.repeats):
        for i, prompt in enumerate(PROMPTS[:args.prompts]):
            runs = [("window", through_window), ("host", in_host)]
            for name, run in (runs if (repeat + i) % 2 else runs[::-1]):
                result = run(prompt)
                rows[name].append((timeline(), result.stats))
    window.close()
    host.close()

    def med(name: str, key) -> float:
        return median(key(line, stats) for line, stats in rows[name])

    print(f"{len(rows['window'])} pairs, up to {args.max_new_tokens} tokens (medians, ms from the send)")
    for name in ("window", "host"):
        print(f"  {name:6}: asked {med(name, lambda t, s: t['asked']):6.1f}  first chunk "
              f"{med(name, lambda t, s: t['first chunk']):6.1f}  result {med(name, lambda t, s: t['result']):6.1f}"
              + (f"  finished {med(name, lambda t, s: t['finished']):6.1f}" if name == "window" else "")
              + f"  | chunk messages {med(name, lambda t, s: t['chunks']):.0f}"
              f"  | engine's own {med(name, lambda t, s: s.tokens_per_s):7.1f} tok/s, TTFT "
              f"{med(name, lambda t, s: s.ttft_ms):5.1f} ms")
    if clock is not None:
        print("the GUI thread's own CPU time (ms, median): " + ", ".join(
            f"{a} -> {b} {med('window', lambda t, s, k=f'cpu {a}-{b}': t[k]):.1f}"
            for a, b in (("send", "asked"), ("asked", "result"), ("result", "finished"))))
    print(f"window's fixed costs: send -> host asked {med('window', lambda t, s: t['asked']):.1f} ms, "
          f"result -> finished {med('window', lambda t, s: t['finished'] - t['result']):.1f} ms")


if __name__ == "__main__":
    main()
