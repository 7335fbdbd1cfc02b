"""Prefix-caching soak: does OpenVINO GenAI's prefix cache with an EAGLE-3 draft crash, and does it change
any output? Decides whether the app turns it on (docs/context.md quotes the figures).

    python benchmarks/prefix_cache_soak.py [--scale 1.0] [--runs 2] [--pairs tiny speed-demo]
        [--precisions f32 default] [--patterns identical multiturn regenerate compare long] [--json PATH]

Every (pair, precision, pattern) runs in child processes of its own through the app's Engine (the app's
scheduler config, KV cache bound and context budget): ``--runs`` children with prefix caching on and as
many with it off, interleaved; each is a chance to crash, and the off runs are the reference outputs. A
child that dies (a signal, an abort from heap corruption) counts as a crash and the soak goes on; the
crash rate with caching off is the baseline to judge the rate with it on against. Patterns:

- identical   the same prompt again and again (the pattern that once aborted within 100-200 repeats)
- multiturn   conversations of 8 turns, history growing, EAGLE-3 and baseline turns and K alternating
- regenerate  the same 3-exchange history answered again and again (what a regenerate does)
- compare     each prompt baseline then EAGLE-3 on the same pipeline, as the compare view runs it
- long        one conversation of 30 long turns, run past the model's context (the budget drops turns)

It prints, per cell, generations and crashes / runs for caching on and off, and whether every output with
caching on equals the caching-off output.
The speed-demo pair is built into a temporary folder with tools/build_speed_demo.py unless --speed-demo
names one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import PROMPTS, ROOT, rss_mb

TINY = (ROOT / "tests" / "models" / "tiny-qwen3", ROOT / "tests" / "models" / "tiny-qwen3-eagle3")
PATTERNS = ("identical", "multiturn", "regenerate", "compare", "long")
# Generations per pattern at --scale 1 on the tiny pair; the speed-demo pair (~50x the work per token)
# runs SPEED_DEMO_SHARE of them.
SIZES = {"identical": 200, "multiturn": 80, "regenerate": 60, "compare": 80, "long": 30}
SPEED_DEMO_SHARE = 0.25


def child(args: argparse.Namespace) -> int:
    """One pattern on one pipeline; prints a JSON line per generation, then one with "done"."""
    import eagle_chat  # noqa: F401 - privacy switches before openvino
    from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec

    engine = Engine(PipelineSpec(Path(args.target), Path(args.draft), precision=args.precision,
                                 prefix_cache=args.cache == "on"))
    n = args.count
    peak = rss_mb()

    def emit(i: int, result) -> None:
        nonlocal peak
        peak = max(peak, rss_mb())
        digest = hashlib.sha1(result.text.encode()).hexdigest()[:16]
        print(json.dumps({"gen": i, "text": digest, "prompt_tokens": result.stats.input_tokens}), flush=True)

    def settings(i: int, max_new: int = 64) -> GenerationSettings:
        speculative = i % 3 != 2
        return GenerationSettings(max_new_tokens=max_new, speculative=speculative, num_assistant_tokens=(3, 5, 7)[i % 3])

    i = 0
    if args.pattern == "identical":
        for i in range(n):
            emit(i, engine.generate(PROMPTS[0], GenerationSettings(max_new_tokens=64)))
    elif args.pattern in ("multiturn", "long"):
        turns, max_new, repeat = (8, 64, 1) if args.pattern == "multiturn" else (n, 384, 6)
        history: list[dict] = []
        for i in range(n):
            if i % turns == 0:
                history = [{"role": "system", "content": "You are a helpful assistant."}]
            history.append({"role": "user", "content": " ".join([PROMPTS[i % len(PROMPTS)]] * repeat)})
            result = engine.generate(history, settings(i, max_new))
            history.append({"role": "assistant", "content": result.text})
            emit(i, result)
    elif args.pattern == "regenerate":
        history = []
        for prompt in PROMPTS[:3]:
            history.append({"role": "user", "content": prompt})
            history.append({"role": "assistant", "content": engine.generate(history, GenerationSettings(max_new_tokens=48)).text})
        history.append({"role": "user", "content": PROMPTS[3]})
        for i in range(n):
            emit(i, engine.generate(history, GenerationSettings(max_new_tokens=64)))
    elif args.pattern == "compare":
        for i in range(n):
            prompt = PROMPTS[(i // 2) % len(PROMPTS)]
            speculative = (i % 2 == 0) != ((i // 2) % 2 == 1)  # alternate which mode goes first
            emit(i, engine.generate(prompt, GenerationSettings(max_new_tokens=64, speculative=speculative)))
    print(json.dumps({"done": n, "rss_mb": round(peak, 1)}), flush=True)
    engine.close()
    return 0


def run_child(target: Path, draft: Path, precision: str, pattern: str, cache: str, count: int) -> dict:
    command = [sys.executable, __file__, "--child", pattern, "--cache", cache, "--precision", precision,
               "--target", str(target), "--draft", str(draft), "--count", str(count)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    texts = [line["text"] for line in lines if "gen" in line]
    end = next((line for line in lines if "done" in line), None)
    crashed = done.returncode != 0 or end is None
    reason = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1] if crashed else ""
    return {"cache": cache, "texts": texts, "crashed": crashed, "returncode": done.returncode, "reason": reason[-160:],
            "rss_mb": end["rss_mb"] if end else None, "seconds": time.perf_counter() - started}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", nargs="+", default=["tiny", "speed-demo"], choices=["tiny", "speed-demo"])
    parser.add_argument("--precisions", nargs="+", default=["f32", "default"], choices=["f32", "default"])
    parser.add_argument("--patterns", nargs="+", default=list(PATTERNS), choices=PATTERNS)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every pattern's generations")
    parser.add_argument("--runs", type=int, default=2, help="children with caching on per cell")
    parser.add_argument("--speed-demo", type=Path, help="a built speed-demo pair (has target/ and draft/)")
    parser.add_argument("--json", type=Path, help="write every cell's figures here")
    parser.add_argument("--child", choices=PATTERNS, help=argparse.SUPPRESS)
    for name in ("--cache", "--precision", "--target", "--draft"):
        parser.add_argument(name, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.pattern = args.child
        return child(args)

    pairs = {"tiny": TINY}
    if "speed-demo" in args.pairs:
        folder = args.speed_demo or Path(tempfile.mkdtemp(prefix="eagle-speed-demo-"))
        if not (folder / "target" / "openvino_model.xml").is_file():
            subprocess.run([sys.executable, str(ROOT / "tools" / "build_speed_demo.py"), str(folder)], check=True)
        pairs["speed-demo"] = (folder / "target", folder / "draft")
    cells = []
    print(f"{'pair':<11} {'precision':<9} {'pattern':<11} {'gens on':>8} {'crashed':>8} {'gens off':>8} "
          f"{'crashed':>8} {'identical':>10} {'RSS on/off':>12} {'seconds':>8}", flush=True)
    for name in args.pairs:
        target, draft = pairs[name]
        for precision in args.precisions:
            for pattern in args.patterns:
                share = 1.0 if name == "tiny" else SPEED_DEMO_SHARE
                count = max(4, round(SIZES[pattern] * args.scale * share))
                offs, ons = [], []
                for _ in range(args.runs):  # interleaved, so load and heat hit both alike
                    offs.append(run_child(target, draft, precision, pattern, "off", count))
                    ons.append(run_child(target, draft, precision, pattern, "on", count))
                reference = max(offs, key=lambda r: len(r["texts"]))["texts"]
                same = all(r["texts"] == reference[:len(r["texts"])] for r in ons + offs) and all(
                    len(r["texts"]) <= len(reference) for r in ons)
                cell = {"pair": name, "precision": precision, "pattern": pattern, "runs": args.runs,
                        "generations_on": sum(len(r["texts"]) for r in ons), "crashes_on": sum(r["crashed"] for r in ons),
                        "generations_off": sum(len(r["texts"]) for r in offs),
                        "crashes_off": sum(r["crashed"] for r in offs), "identical_to_off": same,
                        "max_rss_mb_on": max((r["rss_mb"] or 0) for r in ons),
                        "max_rss_mb_off": max((r["rss_mb"] or 0) for r in offs),
                        "crash_reasons": [f"{r['cache']}: {r['reason']}" for r in ons + offs if r["crashed"]],
                        "seconds": round(sum(r["seconds"] for r in ons + offs), 1)}
                cells.append(cell)
                print(f"{name:<11} {precision:<9} {pattern:<11} {cell['generations_on']:>8} "
                      f"{cell['crashes_on']:>3}/{args.runs:<4} {cell['generations_off']:>8} "
                      f"{cell['crashes_off']:>3}/{args.runs:<4} {'yes' if same else 'NO':>10} "
                      f"{cell['max_rss_mb_on']:>6.0f}/{cell['max_rss_mb_off']:<5.0f} {cell['seconds']:>8.0f}"
                      + (f"   {'; '.join(cell['crash_reasons'])}" if cell["crash_reasons"] else ""), flush=True)
    for cache in ("on", "off"):
        gens = sum(c[f"generations_{cache}"] for c in cells)
        crashes = sum(c[f"crashes_{cache}"] for c in cells)
        print(f"caching {cache}: {gens} generations in {sum(c['runs'] for c in cells)} runs, {crashes} crashed")
    print(f"outputs with caching on identical to caching off in {sum(c['identical_to_off'] for c in cells)} "
          f"of {len(cells)} cells")
    if args.json:
        args.json.write_text(json.dumps({"cells": cells}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
