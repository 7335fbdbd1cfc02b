"""Memory under agents: does `eagle-chat serve` stay bounded when every request carries a large history of
its own?

    python benchmarks/api_memory.py [--requests 200] [--history-kb 20] [--model DIR --draft DIR]

The real server runs as a child process on the tiny pair (EAGLE-3, K=5); this script sends it
``--requests`` chat completions one after another, each with a distinct history of about ``--history-kb``
kB (system prompt, earlier exchanges, a new question; the words are drawn at random per request, so no two
histories share a message), and reads the resident memory (VmRSS, /proc) of the server and of its engine
host (the child process that owns OpenVINO since issue 24) after the warm-up and every 20 requests. The figure that matters is the growth after the first 20 requests: issue 23's goal is
under 50 MB over 200.

Read it against the KV cache's bound, printed first: with prefix caching GenAI keeps every finished
request's KV blocks until its cache is full, and the cache's pages are touched as blocks are first used
(``core/generation/kv_cache.py``), so distinct histories grow RSS up to that bound before blocks are
reused. The cache is sized in blocks (11 MB for the tiny pair; it was 2 GiB when given in whole GiB). The
median prompt and generated tokens/s (the server's ``timings``) show what a change costs in speed.
docs/context.md has the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import time

from _common import ROOT, private_home, rss_mb

WORDS = ("parser token cache block memory thread socket request history budget prefix window draft model "
         "speculative accept verify stream chunk reply turn system user assistant tensor kernel shape").split()


def history(rng: random.Random, size: int, index: int) -> list[dict]:
    """A conversation of about ``size`` characters, distinct for every ``index``."""
    messages = [{"role": "system", "content": f"You are assistant number {index}. Be brief."}]
    total = 0
    while total < size:
        for role in ("user", "assistant"):
            text = " ".join(rng.choice(WORDS) + str(rng.randrange(1000)) for _ in range(rng.randrange(60, 200)))
            messages.append({"role": role, "content": text})
            total += len(text)
    messages.append({"role": "user", "content": f"Request {index}: summarise the above in one line."})
    return messages


def rss_tree_mb(pid: int) -> tuple[float, float]:
    """(the server's RSS, the sum of its child processes' — the engine host's): MB."""
    import psutil

    children = 0.0
    for child in psutil.Process(pid).children(recursive=True):
        try:
            children += child.memory_info().rss / 2**20
        except psutil.NoSuchProcess:
            pass
    return rss_mb(pid), children


def main() -> None:
    home = private_home()
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--history-kb", type=float, default=20)
    parser.add_argument("--max-tokens", type=int, default=8)
    parser.add_argument("--model", default=str(ROOT / "tests" / "models" / "tiny-qwen3"))
    parser.add_argument("--draft", default=str(ROOT / "tests" / "models" / "tiny-qwen3-eagle3"))
    args = parser.parse_args()

    import httpx

    from eagle_chat.core.generation.engine import PipelineSpec, plan_load

    draft = None if args.draft == "none" else args.draft  # "none": the target alone, to tell the draft's share
    kv = plan_load(PipelineSpec(args.model, draft)).kv_cache
    if kv is not None:
        print(f"KV cache bound: {kv.bound_bytes / 2**20:.0f} MB ({kv.capacity_tokens} tokens; "
              f"{(kv.main_bytes_per_token + kv.draft_bytes_per_token) / 2**20 * 1000:.2f} MB per 1,000 tokens)")
    log = home / "serve.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "eagle_chat", "serve", "--model", args.model, *(["--draft", draft] if draft else []), "--k", "5",
         "--port", "0", "--home", str(home / "srv")],
        stdout=subprocess.PIPE, stderr=open(log, "w"), text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        url = next((m.group(1) for line in server.stdout if (m := re.search(r"(http://127\.0\.0\.1:\d+/v1)", line))),
                   None)
        assert url, f"the server did not start (see {log})"
        rng = random.Random(23)
        model = os.path.basename(args.model.rstrip("/"))
        size = int(args.history_kb * 1000)
        print(f"{args.requests} requests, distinct ~{args.history_kb:g} kB histories, {args.max_tokens} new tokens "
              f"each; server RSS in MB (server log: {log})")
        with httpx.Client(base_url=url, timeout=600) as client:
            def ask(index: int) -> dict:
                body = {"model": model, "messages": history(rng, size, index), "max_tokens": args.max_tokens}
                response = client.post("/chat/completions", json=body)
                response.raise_for_status()
                return response.json()

            ask(-1)  # warm-up: first-call costs
            marks = {0: rss_tree_mb(server.pid)}
            started = time.perf_counter()
            prompt_tokens, prefill, decode = [], [], []
            for i in range(1, args.requests + 1):
                answer = ask(i)
                prompt_tokens.append(answer["usage"]["prompt_tokens"])
                timing = answer.get("timings") or {}
                if timing.get("prompt_ms"):
                    prefill.append(timing["prompt_n"] / timing["prompt_ms"] * 1000)
                if timing.get("predicted_per_second"):
                    decode.append(timing["predicted_per_second"])
                if i % 20 == 0 or i == args.requests:
                    marks[i] = rss_tree_mb(server.pid)
                    app, host = marks[i]
                    print(f"  after {i:>4}: app {app:7.1f} MB + engine host {host:7.1f} MB = {app + host:7.1f} MB   "
                          f"({(time.perf_counter() - started) / i:.2f} s/request, "
                          f"prompt tokens {min(prompt_tokens)}-{max(prompt_tokens)})", flush=True)
        first, last = marks.get(20, marks[0]), marks[max(marks)]
        for name, side in (("app", 0), ("engine host", 1)):
            print(f"{name}: RSS after warm-up {marks[0][side]:.1f} MB, after 20 {first[side]:.1f} MB, after {max(marks)} "
                  f"{last[side]:.1f} MB: growth after the first 20 = {last[side] - first[side]:+.1f} MB")
        print(f"both: growth after the first 20 = {sum(last) - sum(first):+.1f} MB (goal < 50 MB)")
        if prefill and decode:
            print(f"median prompt tokens/s {statistics.median(prefill):.0f}, "
                  f"median generated tokens/s {statistics.median(decode):.1f}")
    finally:
        server.terminate()
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
