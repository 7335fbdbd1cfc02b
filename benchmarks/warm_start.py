"""Is the first reply after a load as fast as the tenth? With and without the warm start, through the window.

    python benchmarks/warm_start.py [--speed-demo | --model DIR --draft DIR] [--precision f32|default]
                                    [--sessions 5] [--replies 10] [--max-new-tokens 128]

Every session is a fresh process with a fresh home (the cold costs are per process and per load): the
window opens, loads the pair, and sends the same prompt ``--replies`` times, each in a new conversation,
as a user would (Enter in the prompt box, EAGLE-3 on). Three kinds of session, interleaved:

- ``off``: no warm start;
- ``on``: the warm start runs and the first message is sent once it has finished (a user typing);
- ``at-once``: the first message is sent the moment the warm-up starts, which stops it in flight.

Prints the medians over sessions of reply 1 and reply 10 (TTFT and GenAI's tokens/s), and over replies
2-10 of every session (steadier on a busy machine than one tenth reply). Figures, not assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, median, private_home

PROMPT = "Write quicksort in Python and explain its time complexity."
KINDS = ("off", "on", "at-once")


def child(args) -> None:
    private_home()
    from PySide6.QtWidgets import QApplication

    from eagle_chat import paths
    from eagle_chat.app import create_main_window
    from eagle_chat.settings import Settings, save_settings

    save_settings(Settings(precision=args.precision), paths.settings_file())  # the first load is at it
    argv = ["--model", args.model, "--draft", args.draft] if args.model else []
    window = create_main_window(argv)
    window.demo.warm_start.enabled = args.child != "off"
    app = QApplication.instance()

    def pump(until, timeout=600.0):
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.001)

    pump(lambda: window.controller.state in ("ready", "empty"))
    assert window.controller.loaded.spec.precision == args.precision
    if args.child == "on":
        pump(lambda: window.demo.warm_start.warmed())
    elif args.child == "at-once":
        pump(lambda: window.demo.warm_start.is_running() or window.demo.warm_start.warmed())
    done = []
    window.controller.sig_reply_finished.connect(lambda message, result: done.append(result))
    window.options.max_tokens.setValue(args.max_new_tokens)
    rows = []
    for index in range(args.replies):
        window.new_conversation()
        window.prompt.setPlainText(PROMPT)
        started = time.perf_counter()
        window.send()
        pump(lambda n=index: len(done) > n)
        result = done[index]
        rows.append({"reply": index + 1, "ttft_ms": result.stats.ttft_ms, "tokens_per_s": result.stats.tokens_per_s,
                     "wall_s": time.perf_counter() - started, "mode": result.stats.mode})
    warm = [s.mode for s in window.demo.warm_start.warmup_runs]
    window.close()
    print(json.dumps({"kind": args.child, "warmup_runs": warm, "rows": rows}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--draft")
    parser.add_argument("--speed-demo", action="store_true", help="build the speed-demo pair and use it")
    parser.add_argument("--precision", default="f32", choices=["f32", "default"])
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--replies", type=int, default=10)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--json", help="also write every session's replies here")
    parser.add_argument("--child", choices=KINDS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if args.speed_demo:
        from eagle_chat.core.models.speed_demo import build_speed_demo

        out = Path(tempfile.mkdtemp(prefix="eagle-speed-demo-"))
        models = ROOT / "tests" / "models"
        target, draft = build_speed_demo(models / "tiny-qwen3", models / "tiny-qwen3-eagle3", out)
        args.model, args.draft = str(target), str(draft)
    results: dict[str, list[dict]] = {kind: [] for kind in KINDS}
    for session in range(args.sessions):
        kinds = KINDS if session % 2 == 0 else KINDS[::-1]
        for kind in kinds:
            command = [sys.executable, __file__, "--child", kind, "--precision", args.precision,
                       "--replies", str(args.replies), "--max-new-tokens", str(args.max_new_tokens)]
            if args.model:
                command += ["--model", args.model, "--draft", args.draft]
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            results[kind].append(json.loads(out.strip().splitlines()[-1]))
            print(f"# session {session + 1}/{args.sessions}: {kind} done", file=sys.stderr)
    pair = "speed-demo pair" if args.speed_demo else (args.model or "bundled tiny pair")
    last = args.replies
    try:
        load = f", load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    except OSError:
        load = ""
    print(f"{pair}, {args.precision}, EAGLE-3 at the app's K, {args.sessions} sessions x {args.replies} replies, "
          f"{args.max_new_tokens} new tokens{load}; medians over sessions (replies 2-{last}: over those too)")
    print(f"{'':17} {'TTFT 1st':>9} {f'TTFT {last}th':>10} {f'TTFT 2-{last}':>10} {'tok/s 1st':>10} "
          f"{f'tok/s {last}th':>11} {f'tok/s 2-{last}':>11}")
    for kind in KINDS:
        first = [r["rows"][0] for r in results[kind]]
        tenth = [r["rows"][last - 1] for r in results[kind]]
        later = [row for r in results[kind] for row in r["rows"][1:]]
        label = {"off": "warm start off", "on": "warm start on", "at-once": "on, send at once"}[kind]
        print(f"{label:17} {median(r['ttft_ms'] for r in first):7.0f}ms {median(r['ttft_ms'] for r in tenth):8.0f}ms "
              f"{median(r['ttft_ms'] for r in later):8.0f}ms {median(r['tokens_per_s'] for r in first):10.1f} "
              f"{median(r['tokens_per_s'] for r in tenth):11.1f} {median(r['tokens_per_s'] for r in later):11.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    print("warm-up runs per 'on' session:", [r["warmup_runs"] for r in results["on"]])


if __name__ == "__main__":
    main()
