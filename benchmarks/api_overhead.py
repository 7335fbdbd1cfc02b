"""API overhead: tokens/s through `eagle-chat serve` (streamed, measured by the client) versus the engine
called directly in an engine host of its own (the process serve's engine runs in, driven without the server)
and in this process, on the same prompts, in one run; and the time to first token the API adds.

    python benchmarks/api_overhead.py [--repeats 3] [--max-new-tokens 256] [--model DIR --draft DIR]

All sides run the same pair, precision and K: the server as a subprocess (the real command), the engine in
a host and in this process. Rounds alternate which side goes first. Figures:
- decode rate: (tokens - 1) / (last chunk - first chunk), as each caller sees the chunks arrive;
- end to end: tokens / (done - request sent);
- TTFT: request sent → first streamed text, wall clock, on each side.
"Text" is what a reader sees on both sides: the chunks the engine streams go through the same reasoning
splitter the API and the window use, so a reply that opens with a bare ``<think>\n`` counts from the chunk
that shows something (the API never sends the bare tag as content) — the engine side does what a window
reply does: engine.generate() with the context budget, the template and the step record.
Goals: API/host decode rate >= 0.97 (issue 15); TTFT added by the API over the engine host < 10 ms
(issue 24).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

from _common import PROMPTS, ROOT, median, private_home


def main() -> None:
    home = private_home()
    print(f"server log: {home / 'serve.log'}")
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-new-tokens", type=int, default=256)
    parser.add_argument("--model", default=str(ROOT / "tests" / "models" / "tiny-qwen3"))
    parser.add_argument("--draft", default=str(ROOT / "tests" / "models" / "tiny-qwen3-eagle3"))
    parser.add_argument("--device", default="CPU")
    parser.add_argument("--precision", default="default", choices=["default", "f32"])
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()

    import httpx

    from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec
    from eagle_chat.core.generation.reasoning import ReasoningSplitter
    from eagle_chat.core.hosting.client import EngineHost

    server = subprocess.Popen(
        [sys.executable, "-m", "eagle_chat", "serve", "--model", args.model, "--draft", args.draft, "--device",
         args.device, "--precision", args.precision, "--k", str(args.k), "--port", "0", "--home", str(home / "srv")],
        stdout=subprocess.PIPE, stderr=open(home / "serve.log", "w"), text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        url = None
        for line in server.stdout:
            match = re.search(r"(http://127\.0\.0\.1:\d+/v1)", line)
            if match:
                url = match.group(1)
                break
        assert url, "the server did not start"
        spec = PipelineSpec(args.model, args.draft, device=args.device, precision=args.precision)
        engine = Engine(spec)
        host = EngineHost(home / "bench-engine.log")
        host.load(spec)
        settings = GenerationSettings(max_new_tokens=args.max_new_tokens, num_assistant_tokens=args.k)
        model = os.path.basename(args.model.rstrip("/"))

        def direct(prompt: str) -> dict:
            times, splitter = [], ReasoningSplitter()

            def seen(chunk) -> None:
                if any(splitter.feed(chunk.text)):
                    times.append(time.perf_counter())

            started = time.perf_counter()
            result = engine.generate([{"role": "user", "content": prompt}], settings, on_chunk=seen)
            done = time.perf_counter()
            return _figures(result.stats.generated_tokens, started, times, done)

        def in_host(prompt: str) -> dict:
            times, splitter = [], ReasoningSplitter()

            def seen(text, _tokens, _t) -> None:
                if any(splitter.feed(text)):
                    times.append(time.perf_counter())

            started = time.perf_counter()
            result = host.generate([{"role": "user", "content": prompt}], settings, threading.Event(),
                                   on_chunk=seen, on_steps=lambda steps: None)
            done = time.perf_counter()
            return _figures(result.stats.generated_tokens, started, times, done)

        def through_api(client: httpx.Client, prompt: str) -> dict:
            body = {"model": model, "messages": [{"role": "user", "content": prompt}], "stream": True,
                    "max_tokens": args.max_new_tokens, "num_assistant_tokens": args.k,
                    "stream_options": {"include_usage": True}}
            times, tokens = [], 0
            started = time.perf_counter()
            with client.stream("POST", "/chat/completions", json=body) as response:
                for line in response.iter_lines():
                    if not line.startswith("data: ") or line == "data: [DONE]":
                        continue
                    payload = json.loads(line[6:])
                    if payload.get("usage"):
                        tokens = payload["usage"]["completion_tokens"]
                    delta = payload["choices"][0]["delta"] if payload["choices"] else {}
                    if delta.get("content") or delta.get("reasoning_content"):
                        times.append(time.perf_counter())
            return _figures(tokens, started, times, time.perf_counter())

        rows = {"engine": [], "host": [], "api": []}
        with httpx.Client(base_url=url, timeout=300) as client:
            sides = {"engine": direct, "host": in_host, "api": lambda prompt: through_api(client, prompt)}
            for prompt in PROMPTS[:2]:  # warm-up every side
                for run in sides.values():
                    run(prompt)
            for repeat in range(args.repeats):
                for i, prompt in enumerate(PROMPTS):
                    order = list(sides) if (repeat + i) % 2 == 0 else list(sides)[::-1]
                    for side in order:
                        rows[side].append(sides[side](prompt))
        engine.close()
        host.close()
    finally:
        server.terminate()
        server.wait(timeout=60)

    def med(side, key):
        return median(r[key] for r in rows[side])

    print(f"{len(rows['api'])} replies per side, {args.max_new_tokens} max tokens, K={args.k}, {args.precision}")
    print(f"{'':14}{'in-process':>12}{'host':>12}{'API':>12}{'API/host':>12}")
    for key, label in (("decode_tps", "decode tok/s"), ("e2e_tps", "e2e tok/s")):
        e, h, a = med("engine", key), med("host", key), med("api", key)
        print(f"{label:14}{e:12.1f}{h:12.1f}{a:12.1f}{a / h:12.3f}")
    e, h, a = med("engine", "ttft_ms"), med("host", "ttft_ms"), med("api", "ttft_ms")
    print(f"{'TTFT ms':14}{e:12.2f}{h:12.2f}{a:12.2f}{a - h:+12.2f}  (added TTFT)")
    # each prompt and repeat ran back to back on every side: pairs cancel most of the machine's drift
    for base in ("host", "engine"):
        pairs = list(zip(rows[base], rows["api"]))
        print(f"same-prompt pairs, API vs {base}: decode rate "
              f"{median(a['decode_tps'] / b['decode_tps'] for b, a in pairs):.3f}, "
              f"added TTFT {median(a['ttft_ms'] - b['ttft_ms'] for b, a in pairs):+.2f} ms")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def _figures(tokens: int, started: float, times: list[float], done: float) -> dict:
    first, last = (times[0], times[-1]) if times else (done, done)
    return {"tokens": tokens, "ttft_ms": (first - started) * 1000.0,
            "decode_tps": (tokens - 1) / (last - first) if last > first and tokens > 1 else float("nan"),
            "e2e_tps": tokens / (done - started)}


if __name__ == "__main__":
    main()
