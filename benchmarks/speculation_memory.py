"""RSS with one pipeline (target + EAGLE-3 draft) and with the prompt-lookup pipeline over the same target beside it.

    python benchmarks/speculation_memory.py [--speed-demo DIR]

GenAI refuses prompt lookup beside a draft, so the engine builds a second pipeline for it on the first reply
that asks (core.generation.prompt_lookup). This measures what that costs on the speed-demo pair at f32 (built
into a temporary folder unless --speed-demo names one), and that the memory comes back when it is released.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
from pathlib import Path

from _common import ROOT, rss_mb


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--speed-demo", type=Path)
    args = parser.parse_args()
    from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec

    demo = args.speed_demo
    if demo is None:
        from eagle_chat.core.models.speed_demo import build_speed_demo

        demo = Path(tempfile.mkdtemp(prefix="eagle-speed-demo-"))
        build_speed_demo(ROOT / "tests" / "models" / "tiny-qwen3", ROOT / "tests" / "models" / "tiny-qwen3-eagle3", demo)
    prompt = (ROOT / "eagle_chat" / "core" / "generation" / "short_prompt.py").read_text(encoding="utf-8")[:1500]
    print(f"start: {rss_mb():.0f} MB")
    engine = Engine(PipelineSpec(demo / "target", demo / "draft", precision="f32"))
    eagle = engine.generate(prompt, GenerationSettings(max_new_tokens=100, method="eagle3"))
    print(f"EAGLE-3 pipeline, one reply: {rss_mb():.0f} MB (prompt-lookup pipeline built: {engine.lookup_loaded})")
    lookup = engine.generate(prompt, GenerationSettings(max_new_tokens=100, method="prompt_lookup"))
    print(f"+ prompt-lookup pipeline, one reply: {rss_mb():.0f} MB (same text: {lookup.text == eagle.text})")
    engine.close()
    gc.collect()
    print(f"both released: {rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
