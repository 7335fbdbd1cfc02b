"""The longest event-loop stall while a thinking block streams, in the real window on the tiny pair.

    python benchmarks/thinking_stall.py [--repeats 2] [--max-new-tokens 1024]

The tiny pair thinks for one sentence (~30 tokens) before answering, too short to measure a thinking
block by. So besides its real thinking replies, the window is also told that the template opens <think>
in the prompt (load info ``reasoning_in_prompt``) while thinking is off: every token of a 1,024-token
reply then streams into a live thinking block, at the engine's real speed, through the real controller and
chat view. Plain answers (thinking off) are the reference.

Two figures: the longest gap of a 5 ms timer on the GUI thread (counted until the worker reports the reply
finished; the final render comes after and is shown apart) — on a shared machine this includes time the
GUI thread waited for a core, so the load average is printed too; and the GUI thread's own time per
redraw of the reply (wall and CPU), which is what the view costs.

Goal (issue 12): longest stall < 16 ms while a thinking block streams.
"""

from __future__ import annotations

import argparse
import os
import time

from _common import PROMPTS, median, private_home, ready_window


def main() -> None:
    private_home()
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--max-new-tokens", type=int, default=1024)
    args = parser.parse_args()

    from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer

    window, app = ready_window([])
    window.set_precision("f32")
    while window.controller.state != "ready":
        app.processEvents()
    window.options.max_tokens.setValue(args.max_new_tokens)
    controller = window.controller
    real = controller.loaded
    real_opens = dict(real.reasoning_in_prompt)

    clock = QElapsedTimer()
    ticks: list[int] = []
    ticker = QTimer()
    ticker.setInterval(5)
    ticker.setTimerType(Qt.TimerType.PreciseTimer)
    ticker.timeout.connect(lambda: ticks.append(clock.elapsed()))
    finished_at = [0]
    controller.engine.worker.sig_finished.connect(lambda *_: finished_at.__setitem__(0, clock.elapsed()),
                                                  Qt.ConnectionType.DirectConnection)

    def run(prompt: str, *, thinking: bool, forced: bool) -> dict:
        controller.loaded = real.with_changes(reasoning_in_prompt={k: True for k in real_opens} if forced else real_opens)
        window.options.thinking.setChecked(thinking)
        controller.conversations.new_conversation()
        done, live_renders = [], []
        loop = QEventLoop()

        def finished(message, result) -> None:
            done.append((message, result, clock.elapsed()))
            loop.quit()

        def text(message, _text) -> None:
            if message is not None and window.chat.thinking.live(message):
                live_renders.append(len(message.thinking))

        controller.sig_reply_finished.connect(finished)
        controller.sig_reply_text.connect(text)
        ticks.clear()
        renders.clear()
        clock.start()
        ticker.start()
        window.prompt.setPlainText(prompt)
        window.send()
        if not done:
            loop.exec()
        ticker.stop()
        controller.sig_reply_finished.disconnect(finished)
        controller.sig_reply_text.disconnect(text)
        message, result, end = done[0]
        gaps = [(b - a, b) for a, b in zip(ticks, ticks[1:])]
        streaming = [g for g, at in gaps if at <= finished_at[0]]
        live = [(w, c) for is_live, w, c in renders if is_live] or [(0.0, 0.0)]
        other = [(w, c) for is_live, w, c in renders if not is_live] or [(0.0, 0.0)]
        return {"stall": max(streaming or [0]), "with_final": max([g for g, _ in gaps] or [0]),
                "live_render": max(w for w, _ in live), "live_render_cpu": max(c for _, c in live),
                "live_render_median": median(w for w, _ in live),
                "answer_render": max(w for w, _ in other), "answer_render_median": median(w for w, _ in other),
                "tokens": result.stats.generated_tokens, "rate": result.stats.tokens_per_s,
                "live_updates": len(live_renders), "live_chars": max(live_renders or [0]),
                "thinking_tokens": result.stats.thinking_tokens or 0, "load": os.getloadavg()[0]}

    chat = window.chat
    renders: list[tuple[bool, float, float]] = []  # (live thinking?, wall ms, GUI-thread CPU ms)
    real_render = chat._render_pending

    def timed_render():
        message = chat._pending
        live = message is not None and chat.thinking.live(message)
        wall, cpu = time.perf_counter(), time.thread_time()
        real_render()
        if message is not None:
            renders.append((live, (time.perf_counter() - wall) * 1e3, (time.thread_time() - cpu) * 1e3))

    chat._render_pending = timed_render
    chat._render_timer.timeout.disconnect()
    chat._render_timer.timeout.connect(timed_render)

    run(PROMPTS[0], thinking=False, forced=True)  # warm-up
    renders.clear()
    cases = {"live thinking block, whole reply (forced)": dict(thinking=False, forced=True),
             "thinking on (tiny pair: ~30 tokens of thought)": dict(thinking=True, forced=False),
             "thinking off (plain answer)": dict(thinking=False, forced=False)}
    results = {name: [] for name in cases}
    for _ in range(args.repeats):
        for prompt in PROMPTS:
            for name, case in cases.items():
                results[name].append(run(prompt, **case))
    print(f"{len(PROMPTS)} prompts x {args.repeats} repeats, up to {args.max_new_tokens} tokens, EAGLE-3 K=5, f32, "
          "5 ms probe timer")
    for name, rows in results.items():
        print(f"{name}:")
        print(f"  longest stall while streaming {max(r['stall'] for r in rows)} ms, median of per-reply maxima "
              f"{median(r['stall'] for r in rows):.0f} ms; incl. the final render {max(r['with_final'] for r in rows)} ms")
        print(f"  {median(r['tokens'] for r in rows):.0f} tokens at {median(r['rate'] for r in rows):.0f} tok/s "
              f"(median); {median(r['live_updates'] for r in rows):.0f} live thinking updates per reply, up to "
              f"{max(r['live_chars'] for r in rows)} characters of thoughts; thinking tokens "
              f"{median(r['thinking_tokens'] for r in rows):.0f}")
        if any(r["live_updates"] for r in rows):
            print(f"  GUI thread per live-thinking redraw: longest {max(r['live_render'] for r in rows):.1f} ms "
                  f"(CPU {max(r['live_render_cpu'] for r in rows):.1f} ms), median "
                  f"{median(r['live_render_median'] for r in rows):.2f} ms")
        print(f"  GUI thread per answer redraw while streaming: longest {max(r['answer_render'] for r in rows):.1f} ms,"
              f" median {median(r['answer_render_median'] for r in rows):.2f} ms")
    print(f"load average during the runs: {min(r['load'] for rows in results.values() for r in rows):.1f}–"
          f"{max(r['load'] for rows in results.values() for r in rows):.1f} on {os.cpu_count()} cores")
    window.close()


if __name__ == "__main__":
    main()
