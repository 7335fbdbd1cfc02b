"""EAGLE-3 drafting with and without a grammar, on the full-vocabulary and the reduced-vocabulary (d2t) tiny pair.

    python benchmarks/grammar_drafting.py [--k 5] [--tokens 160]

For each pair and each reply kind — free text (the prompts in tests/prompts.txt), a forced tool call
(tool-call grammar, one call), JSON (a json_schema grammar) — sums generated tokens, target steps, drafted
and accepted tokens over the prompts, greedy at f32, K draft tokens per step. Tokens per step above 1 is what
drafting buys; GenAI 2026.4.1 applies a grammar to the d2t draft in the wrong id space, which shows as next
to no accepted tokens there. The grammar is the server's (``structured``), so these are the figures an API
client gets in ``eagle_chat`` (except that the engine itself decodes a grammar on the d2t pair without drafting:
this script lifts that guard to show why it is there).
"same as K=0" compares each reply with the same pipeline at K=0.

It doubles as the reproduction for an upstream report: on the d2t pair the grammar rows accept next to no
draft tokens, their output can differ from K=0, and the process may abort with a glibc heap-corruption message
("corrupted double-linked list", "malloc(): corrupted top size") — the grammar's mask is applied to the
draft's reduced-vocabulary logits with target ids. The same grammars at K=0 ran 48 replies without an abort.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec
from eagle_chat.core.generation.structured import Constraint
from eagle_chat.core.generation.tool_template import tools_text

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "tests" / "models"
PAIRS = {"full vocabulary": MODELS, "d2t (1,024 of 3,072)": MODELS / "d2t"}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string", "maxLength": 16}, "unit": {"enum": ["c", "f"]}},
    "required": ["city", "unit"]}}},
         {"type": "function", "function": {"name": "run_python", "parameters": {
             "type": "object", "properties": {"code": {"type": "string", "maxLength": 200}}, "required": ["code"]}}}]
SCHEMA = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 24}, "ok": {"type": "boolean"},
                                           "items": {"type": "array", "items": {"type": "string", "maxLength": 12},
                                                     "maxItems": 4}}, "required": ["name", "ok", "items"]}


def kinds() -> dict[str, dict]:
    functions = json.dumps([{"name": t["function"]["name"], "parameters": t["function"]["parameters"]} for t in TOOLS])
    return {
        "free text": {},
        "tool call (grammar)": {"tools": tools_text(TOOLS), "constraint": Constraint("tool_calls", functions),
                                "thinking": False},
        "JSON schema (grammar)": {"constraint": Constraint("json_schema", json.dumps(SCHEMA)), "thinking": False},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=160)
    parser.add_argument("--prompts", type=int, default=6)
    args = parser.parse_args()
    prompts = [p for p in (ROOT / "tests" / "prompts.txt").read_text(encoding="utf-8").splitlines() if p.strip()]
    prompts = prompts[:args.prompts]
    print(f"K={args.k}, max {args.tokens} new tokens, {len(prompts)} prompts, f32, greedy\n")
    print("| pair | reply | tokens | target steps | tokens/step | drafted | accepted | acceptance | same as K=0 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for pair, folder in PAIRS.items():
        engine = Engine(PipelineSpec(folder / "tiny-qwen3", folder / "tiny-qwen3-eagle3", precision="f32"))
        # The engine decodes a grammar on a d2t draft without drafting (structured.stops_drafting); its guard is
        # lifted here, as this script reproduces what it guards against.
        engine.reduced_vocab = False
        try:
            for kind, extra in kinds().items():
                tokens = steps = drafted = accepted = same = 0
                for prompt in prompts:
                    settings = GenerationSettings(max_new_tokens=args.tokens, num_assistant_tokens=args.k, **extra)
                    messages = [{"role": "user", "content": prompt}]
                    result = engine.generate(messages, settings)
                    plain = engine.generate(messages, GenerationSettings(**{**settings.__dict__, "speculative": False}))
                    stats = result.stats
                    tokens += stats.generated_tokens
                    steps += len(stats.steps.sizes) if stats.steps is not None else 0
                    drafted += stats.draft_tokens or 0
                    accepted += stats.accepted_tokens or 0
                    same += result.text == plain.text
                rate = f"{accepted / drafted:.1%}" if drafted else "–"
                print(f"| {pair} | {kind} | {tokens} | {steps} | {tokens / max(steps, 1):.2f} | {drafted} | {accepted} "
                      f"| {rate} | {same}/{len(prompts)} |")
        finally:
            engine.close()


if __name__ == "__main__":
    main()
