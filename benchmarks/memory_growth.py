"""Where the soak's memory growth comes from: the engine alone, 300 replies, three prompt patterns.

    python benchmarks/memory_growth.py [--replies 300] [--runtime-cache-capacity N]

- ``same``: one prompt over and over (one set of shapes);
- ``cycle8``: the 8 test prompts in turn, single-turn;
- ``conversations``: as the soak does, conversations of 25 turns that carry their history, the 8 prompts
  in turn; the pattern repeats exactly after 200 replies (8 and 25 meet again).

A per-reply leak grows in every pattern; memory that OpenVINO keeps per input shape (kernels, executors,
buffers sized to the longest input) grows only while new shapes appear, and stops when they repeat.
"""

from __future__ import annotations

import argparse

from _common import PROMPTS, private_home, rss_mb

CHECKPOINTS = (1, 50, 100, 150, 200, 250, 300)


def main() -> None:
    private_home()
    parser = argparse.ArgumentParser()
    parser.add_argument("--replies", type=int, default=300)
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--runtime-cache-capacity", type=int, default=None,
                        help="set OpenVINO's CPU_RUNTIME_CACHE_CAPACITY (shape-keyed kernel cache; default 5000)")
    args = parser.parse_args()

    import eagle_chat.core.generation.devices as devices
    from eagle_chat import paths
    from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec

    if args.runtime_cache_capacity is not None:
        plain = devices.pipeline_properties

        def with_capacity(device, **kwargs):
            return {**plain(device, **kwargs), "CPU_RUNTIME_CACHE_CAPACITY": args.runtime_cache_capacity}

        devices.pipeline_properties = with_capacity
    settings = GenerationSettings(max_new_tokens=args.max_new_tokens, speculative=True, num_assistant_tokens=5)
    print(f"{args.replies} replies of up to {args.max_new_tokens} tokens, EAGLE-3 K=5, RSS in MB after reply n")
    for pattern in ("same", "cycle8", "conversations"):
        engine = Engine(PipelineSpec(target_dir=paths.tiny_target_dir(), draft_dir=paths.tiny_draft_dir()))
        history: list[dict] = []
        marks = []
        for i in range(args.replies):
            prompt = {"role": "user", "content": PROMPTS[0 if pattern == "same" else i % len(PROMPTS)]}
            if pattern != "conversations" or i % 25 == 0:
                history = []
            history.append(prompt)
            result = engine.generate(list(history), settings)
            history.append({"role": "assistant", "content": result.text})
            if i + 1 in CHECKPOINTS:
                marks.append(f"{i + 1}: {rss_mb():.0f}")
        engine.close()
        print(f"{pattern:>14}  " + "  ".join(marks))


if __name__ == "__main__":
    main()
