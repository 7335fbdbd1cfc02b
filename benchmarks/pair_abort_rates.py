"""Abort rates of two model pairs under the same load: does one pair make OpenVINO GenAI crash more often?

    python benchmarks/pair_abort_rates.py OLD_TARGET:OLD_DRAFT NEW_TARGET:NEW_DRAFT [--runs 10]
        [--patterns identical multiturn] [--identical 300] [--multiturn 160] [--precision default]
        [--minutes 50] [--json PATH]

Each run is one child process of benchmarks/prefix_cache_soak.py's (the app's Engine, prefix caching on,
as the app and tests/core/test_engine.py run it): ``identical`` repeats one prompt (the 300-repeat test),
``multiturn`` runs 8-turn conversations with EAGLE-3/baseline turns and K alternating. Pairs alternate run
by run, and which pair goes first alternates each round, so load and heat hit both alike. A child that
dies (a signal, an abort from heap corruption) counts as a crash. Prints crashes / runs and generations
per pair and pattern, and a two-sided Fisher exact test on crashed vs survived runs.
Written for issue 14: the tiny pair rebuilt with a reduced draft vocabulary (real d2t/t2d) against the
full-vocabulary pair it replaces.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from math import comb
from pathlib import Path

from prefix_cache_soak import run_child


def fisher_two_sided(a: int, b: int, c: int, d: int) -> float:
    """Two-sided Fisher exact p for [[a, b], [c, d]] (rows: pairs; columns: crashed, survived)."""
    row1, col1, n = a + b, a + c, a + b + c + d

    def p(x: int) -> float:
        return comb(col1, x) * comb(n - col1, row1 - x) / comb(n, row1)

    observed = p(a)
    lo, hi = max(0, row1 + col1 - n), min(row1, col1)
    return min(1.0, sum(p(x) for x in range(lo, hi + 1) if p(x) <= observed * (1 + 1e-9)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pairs", nargs=2, help="TARGET:DRAFT folders, the first is the reference")
    parser.add_argument("--runs", type=int, default=10, help="runs per pair and pattern")
    parser.add_argument("--patterns", nargs="+", default=["identical", "multiturn"], choices=["identical", "multiturn"])
    parser.add_argument("--identical", type=int, default=300, help="generations per identical run")
    parser.add_argument("--multiturn", type=int, default=160, help="generations per multiturn run")
    parser.add_argument("--precision", default="default", choices=["f32", "default"])
    parser.add_argument("--minutes", type=float, default=50.0, help="start no new round after this")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    pairs = [tuple(Path(p) for p in pair.split(":")) for pair in args.pairs]
    names = ["A", "B"]
    for name, (target, draft) in zip(names, pairs):
        print(f"pair {name}: {target} + {draft}", flush=True)
    runs: list[dict] = []
    started = time.monotonic()
    for round_ in range(args.runs):
        if time.monotonic() - started > args.minutes * 60:
            print(f"# time budget reached after {round_} rounds", flush=True)
            break
        order = [0, 1] if round_ % 2 == 0 else [1, 0]
        for pattern in args.patterns:
            for index in order:
                count = args.identical if pattern == "identical" else args.multiturn
                target, draft = pairs[index]
                result = run_child(target, draft, args.precision, pattern, "on", count)
                row = {"round": round_, "pair": names[index], "pattern": pattern, "count": count,
                       "generations": len(result["texts"]), "crashed": result["crashed"],
                       "returncode": result["returncode"], "reason": result["reason"],
                       "seconds": round(result["seconds"], 1)}
                runs.append(row)
                print(f"round {round_:>2} {pattern:<9} pair {row['pair']}: {row['generations']:>4}/{count} gens, "
                      f"{'CRASH rc=' + str(row['returncode']) + ' ' + row['reason'] if row['crashed'] else 'ok'}"
                      f" ({row['seconds']} s)", flush=True)
                if args.json:
                    args.json.write_text(json.dumps({"pairs": args.pairs, "runs": runs}, indent=2), encoding="utf-8")
    print(f"\n{'pattern':<10} {'pair':<5} {'crashes/runs':>12} {'generations':>12}  Fisher p (A vs B)")
    for pattern in [*args.patterns, "all"]:
        cells = []
        for name in names:
            mine = [r for r in runs if r["pair"] == name and (pattern == "all" or r["pattern"] == pattern)]
            cells.append((sum(r["crashed"] for r in mine), len(mine), sum(r["generations"] for r in mine)))
        (ca, na, _), (cb, nb, _) = cells
        p = fisher_two_sided(ca, na - ca, cb, nb - cb)
        for name, (crashed, n, gens) in zip(names, cells):
            print(f"{pattern:<10} {name:<5} {f'{crashed}/{n}':>12} {gens:>12}" + (f"  p = {p:.3f}" if name == "B" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
