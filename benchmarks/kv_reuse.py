"""What GenAI's prefix caching reuses from one turn to the next — the facts behind the next-turn prefill
(eagle_chat/core/generation/prefill.py). Re-run it after a GenAI upgrade.

    python benchmarks/kv_reuse.py [--model DIR --draft DIR] [--reply-tokens 256] [--threads 1]

One conversation turn is generated (the reply), then the next turn's prompt (history + reply + a new
message) is prefilled (1 new token) and its cost measured as process CPU time, single-threaded by
default, so that a busy machine does not blur it. Each case runs in its own process:

- caching off: the full prefill, the reference;
- caching on, nothing more: is the reply the model *generated* reused?
- caching on, after a prefill of the history with 1 new token, and with K + 3 new tokens: does the
  draft need a drafting step before it holds (and so lets the target reuse) a prompt?

Without --draft only the target runs. Defaults to the speed-demo pair, built into a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT

CASES = [("caching off", False, 0), ("caching on, reply generated only", True, 0),
         ("caching on, prefilled, 1 new token", True, 1), ("caching on, prefilled, K + 3 new tokens", True, -1)]
K = 5


def child(args) -> None:
    import openvino_genai as g

    scheduler = g.SchedulerConfig()
    scheduler.enable_prefix_caching = args.cache == "on"
    scheduler.cache_size = 1
    scheduler.max_num_batched_tokens = 1 << 31
    props = {"INFERENCE_NUM_THREADS": args.threads, "INFERENCE_PRECISION_HINT": "f32", "KV_CACHE_PRECISION": "f32"}
    kwargs = dict(scheduler_config=scheduler, **props)
    if args.draft:
        kwargs["draft_model"] = g.draft_model(args.draft, "CPU", **props)
    pipe = g.LLMPipeline(args.model, "CPU", **kwargs)
    tokenizer = pipe.get_tokenizer()

    def config(tokens: int, template: bool = True):
        c = g.GenerationConfig(max_new_tokens=tokens)
        c.apply_chat_template = template
        if args.draft:
            c.num_assistant_tokens = K
        return c

    pipe.generate("Hello", config(4))
    messages = [{"role": "user", "content": "Write a Python function that parses a CSV file and returns rows."}]
    reply = pipe.generate(g.ChatHistory(messages), config(args.reply_tokens))
    messages.append({"role": "assistant", "content": reply.texts[0]})
    if args.prefill:
        marker = "\u2063"
        text = tokenizer.apply_chat_template(g.ChatHistory([*messages, {"role": "user", "content": marker}]),
                                             add_generation_prompt=True)
        pipe.generate([text[:text.index(marker)]], config(args.prefill if args.prefill > 0 else K + 3, False))
    messages.append({"role": "user", "content": "Now add error handling."})
    cpu, wall = time.process_time(), time.perf_counter()
    result = pipe.generate(g.ChatHistory(messages), config(1))
    print(json.dumps({"prompt": result.perf_metrics.get_num_input_tokens(),
                      "cpu_ms": (time.process_time() - cpu) * 1000, "wall_ms": (time.perf_counter() - wall) * 1000}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--draft")
    parser.add_argument("--reply-tokens", type=int, default=256)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--child", action="store_true")
    parser.add_argument("--cache", default="on")
    parser.add_argument("--prefill", type=int, default=0)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if args.model is None:
        out = Path(tempfile.mkdtemp(prefix="eagle-kv-reuse-"))
        subprocess.run([sys.executable, str(ROOT / "tools" / "build_speed_demo.py"), str(out)], check=True,
                       capture_output=True)
        args.model, args.draft = str(out / "target"), str(out / "draft")
    pairs = [("target only", None)] + ([("target + EAGLE-3 draft", args.draft)] if args.draft else [])
    print(f"next turn's prefill after a {args.reply_tokens}-token reply, process CPU ms, {args.threads} thread(s), "
          f"median of {args.repeats} processes")
    print(f"{'pipeline':<24} {'case':<42} {'prompt':>6} {'CPU ms':>8}")
    for name, draft in pairs:
        for label, cache, prefill in CASES:
            runs = []
            for _ in range(args.repeats):
                command = [sys.executable, __file__, "--child", "--model", args.model, "--cache",
                           "on" if cache else "off", "--prefill", str(prefill), "--threads", str(args.threads),
                           "--reply-tokens", str(args.reply_tokens)] + (["--draft", draft] if draft else [])
                line = subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip().splitlines()
                runs.append(json.loads(line[-1]))
            cpu = sorted(r["cpu_ms"] for r in runs)[len(runs) // 2]
            print(f"{name:<24} {label:<42} {runs[0]['prompt']:>6} {cpu:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
