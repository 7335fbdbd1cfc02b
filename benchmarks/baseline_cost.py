"""Does a baseline reply from the draft-enabled pipeline (num_assistant_tokens=0) cost the same as one
from a pipeline without a draft? Both measured side by side, alternating, in one process.

    python benchmarks/baseline_cost.py [--model DIR --draft DIR] [--repeats 5] [--max-new-tokens 128]
"""

from __future__ import annotations

import argparse
import time

from _common import PROMPTS, median, private_home, rss_mb


def main() -> None:
    private_home()
    from eagle_chat import paths
    from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=str(paths.tiny_target_dir()))
    parser.add_argument("--draft", default=str(paths.tiny_draft_dir()))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--precision", default="f32")
    args = parser.parse_args()

    rss0 = rss_mb()
    plain = Engine(PipelineSpec(args.model, None, precision=args.precision))
    rss_plain = rss_mb()
    with_draft = Engine(PipelineSpec(args.model, args.draft, precision=args.precision))
    rss_both = rss_mb()
    settings = GenerationSettings(max_new_tokens=args.max_new_tokens, speculative=False)
    rates = {"plain pipeline": [], "draft pipeline, K=0": []}
    walls = {"plain pipeline": [], "draft pipeline, K=0": []}
    same_text = True
    for engine in (plain, with_draft):  # warm-up
        engine.generate(PROMPTS[0], settings)
    for repeat in range(args.repeats):
        for i, prompt in enumerate(PROMPTS):
            order = [("plain pipeline", plain), ("draft pipeline, K=0", with_draft)]
            if (repeat + i) % 2:
                order.reverse()
            texts = {}
            for name, engine in order:
                started = time.perf_counter()
                result = engine.generate(prompt, settings)
                walls[name].append(result.stats.generated_tokens / (time.perf_counter() - started))
                rates[name].append(result.stats.tokens_per_s)
                texts[name] = result.text
            same_text &= len(set(texts.values())) == 1
    print(f"{len(PROMPTS)} prompts x {args.repeats} repeats, {args.max_new_tokens} new tokens, {args.precision}")
    print(f"{'':22} {'GenAI tok/s':>12} {'wall tok/s':>11}")
    for name in rates:
        print(f"{name:22} {median(rates[name]):12.1f} {median(walls[name]):11.1f}")
    ratio = median(rates["draft pipeline, K=0"]) / median(rates["plain pipeline"])
    wall_ratio = median(walls["draft pipeline, K=0"]) / median(walls["plain pipeline"])
    print(f"ratio draft-pipeline baseline / plain: {ratio:.3f} (GenAI), {wall_ratio:.3f} (wall)")
    print(f"identical text: {same_text}")
    print(f"RSS: start {rss0:.0f} MB, +plain pipeline {rss_plain - rss0:.0f} MB, "
          f"+draft pipeline {rss_both - rss_plain:.0f} MB")


if __name__ == "__main__":
    main()
