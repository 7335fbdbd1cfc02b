"""Kinds of work × speculative methods, on the tiny pairs and the speed-demo pair (f32, greedy).

    python benchmarks/kinds_of_work.py [--pairs bundled,d2t,speed-demo] [--speed-demo DIR] [--max-new-tokens 160]
                                       [--models DIR]

For each pair, each kind of work (prose, code, code edit of pasted code, a document-grounded answer, a
tool-result summary, Chinese) and each method (plain, EAGLE-3, prompt lookup; K 3 and 5, the better kept —
"K tuned per method") it prints tokens per target step, tok/s as a ratio to plain decoding run side by side,
and whether every reply equals the plain reply token for token. Then a mixed workload (an agent loop, a
document Q&A session, a code-edit session, a chat, interleaved) is run with the automatic choice (a fresh
record: it learns during the workload) and with each fixed method, in alternating order, twice; the overall
tok/s of each is printed with auto's ratio to the best fixed method. The speed-demo pair is built into a
temporary folder unless --speed-demo names one (tools/build_speed_demo.py writes it). --models reads the tiny
pairs from another folder laid out as tests/models (e.g. a rebuild by tools/build_tiny_models.py --out DIR,
with the reduced-vocabulary pair in DIR/d2t), to measure new models before they are installed.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import ROOT

MODELS = ROOT / "tests" / "models"
SOURCE = ROOT / "eagle_chat" / "core" / "generation"


def module(name: str, start: int = 0, size: int = 1400) -> str:
    return (SOURCE / name).read_text(encoding="utf-8")[start:start + size]


def kinds() -> dict[str, list[list[dict]]]:
    def user(text):
        return [{"role": "user", "content": text}]

    passages = "\n".join(f"[{i + 1}] {name}: {module(name, 0, 500)}" for i, name in enumerate(("kv_cache.py", "prefill.py")))
    tool_result = '{"results": [' + ", ".join(f'{{"file": "src/{n}.py", "line": {i * 7}, "match": "def {n}(path):"}}'
                                              for i, n in enumerate(("load", "save", "parse", "render", "close"))) + "]}"
    return {
        "prose": [user("Tell me about the history of the city you like most."), user("Explain why the sky is blue."),
                  user("Write a short letter to a friend about a trip.")],
        "code": [user("Write a Python function that reverses a string."), user("def parse_args(argv):"),
                 user("Write a Python class for a simple stack with push and pop.")],
        "code_edit": [user(f"Here is my code:\n```python\n{module(name, 900)}\n```\nShow it again with a docstring added.")
                      for name in ("short_prompt.py", "prompt_lookup.py", "chunk_batcher.py")],
        "document": [[{"role": "system", "content": f"Answer from these sources and quote them.\n{passages}\n"},
                      *user(question)] for question in ("What does the KV cache plan hold?", "What is prefilled?",
                                                        "Quote the part about blocks.")],
        "tool": [[*user("Find where files are loaded."), {"role": "assistant", "content": "<tool_call>\n"
                  '{"name": "grep", "arguments": {"pattern": "def load"}}\n</tool_call>'},
                  {"role": "tool", "content": tool_result}, *user(ask)]
                 for ask in ("Summarise the result.", "List the files.", "Which line is parse on?")],
        "chinese": [user("请用三句话介绍一下上海的历史。"), user("写一首关于秋天的短诗。"), user("解释一下什么是快速排序。")],
    }


def run(engine, messages, method: str, k: int, max_new: int):
    from eagle_chat.core.generation.engine import GenerationSettings

    started = time.perf_counter()
    reply = engine.generate(messages, GenerationSettings(max_new_tokens=max_new, method=method, num_assistant_tokens=k))
    return reply, time.perf_counter() - started


def table(engine, max_new: int) -> None:
    configs = [("off", 0)] + [(m, k) for m in engine.methods if m != "off" for k in (3, 5)]
    print(f"{'kind':<10} {'method':<14} {'K':>2} {'tok/step':>8} {'tok/s ×plain':>12} {'identical':>9}")
    for kind, requests in kinds().items():
        figures: dict[tuple[str, int], list] = {c: [0, 0.0, 0, 0, True] for c in configs}  # tokens, s, steps, n, same
        reference = [run(engine, messages, "off", 0, max_new)[0].text for messages in requests]
        for r in range(3):  # round 0 warms every pipeline's prefix cache for every prompt and is not counted
            for i, messages in enumerate(requests):
                for method, k in (configs if r % 2 else configs[::-1]):
                    reply, seconds = run(engine, messages, method, k, max_new)
                    if r == 0:
                        continue
                    f = figures[(method, k)]
                    f[0] += reply.stats.generated_tokens
                    f[1] += seconds
                    f[2] += round(reply.stats.generated_tokens / (reply.stats.tokens_per_step or 1))
                    f[4] = f[4] and reply.text == reference[i]
        plain_rate = figures[("off", 0)][0] / figures[("off", 0)][1]
        for method in dict.fromkeys(m for m, _ in configs):
            best = max((c for c in configs if c[0] == method), key=lambda c: figures[c][0] / figures[c][1])
            tokens, seconds, steps, _, same = figures[best]
            print(f"{kind:<10} {method:<14} {best[1]:>2} {tokens / max(steps, 1):>8.2f} "
                  f"{tokens / seconds / plain_rate:>12.2f} {'yes' if same else 'NO':>9}")


def mixed(engine, max_new: int, rounds: int = 2) -> None:
    from eagle_chat.core.generation import speculation

    work = kinds()
    order = [kind for _ in range(2) for kind in ("tool", "document", "code_edit", "prose", "code", "chinese")]
    workload = [messages for i, kind in enumerate(order) for messages in work[kind][i % 3:i % 3 + 1]]
    modes = [("auto", 5), *((m, 5) for m in engine.methods)]
    totals = {mode: [0, 0.0] for mode, _ in modes}
    for r in range(rounds):
        for mode, k in (modes if r % 2 == 0 else modes[::-1]):
            engine.record = speculation.Record() if mode == "auto" else engine.record
            for messages in workload:
                reply, seconds = run(engine, messages, mode, k, max_new)
                totals[mode][0] += reply.stats.generated_tokens
                totals[mode][1] += seconds
    rates = {mode: tokens / seconds for mode, (tokens, seconds) in totals.items()}
    best = max((m for m in rates if m != "auto"), key=rates.get)
    print("mixed workload (%d requests × %d rounds): " % (len(workload), rounds)
          + ", ".join(f"{m} {rates[m]:.0f} tok/s" for m in rates)
          + f"; auto / best fixed ({best}) = {rates['auto'] / rates[best]:.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", default="bundled,d2t,speed-demo")
    parser.add_argument("--speed-demo", type=Path)
    parser.add_argument("--max-new-tokens", type=int, default=160)
    parser.add_argument("--models", type=Path, default=MODELS, help="the tiny pairs' folder (default tests/models)")
    args = parser.parse_args()
    models = args.models
    from eagle_chat.core.generation.engine import Engine, PipelineSpec

    pairs = {"bundled": (models / "tiny-qwen3", models / "tiny-qwen3-eagle3"),
             "d2t": (models / "d2t" / "tiny-qwen3", models / "d2t" / "tiny-qwen3-eagle3")}
    if "speed-demo" in args.pairs:
        if args.speed_demo is None:
            from eagle_chat.core.models.speed_demo import build_speed_demo

            args.speed_demo = Path(tempfile.mkdtemp(prefix="eagle-speed-demo-"))
            build_speed_demo(*pairs["bundled"], args.speed_demo)
        pairs["speed-demo"] = (args.speed_demo / "target", args.speed_demo / "draft")
    for name in args.pairs.split(","):
        engine = Engine(PipelineSpec(*pairs[name], precision="f32"))
        print(f"\n== {name} (f32, max {args.max_new_tokens} new tokens) ==")
        table(engine, args.max_new_tokens)
        mixed(engine, args.max_new_tokens)
        engine.close()


if __name__ == "__main__":
    main()
