"""What splitting <think> from the answer costs per streamed chunk, on real chunk streams of the tiny pair.

    python benchmarks/reasoning_split.py [--tokens 1024] [--repeats 5]

The streams are real: the tiny pair with thinking on (EAGLE-3, K=5, f32), so chunks are what GenAI's
TextStreamer hands over per verification step. Each is fed to our ReasoningSplitter (the app's path) and to
GenAI 2026.4.1's ReasoningIncrementalParser (keep_original_content=False, the setting that splits), and the
cost is set against the stream's own rate: share = chunks per second x seconds per chunk.
"""

from __future__ import annotations

import argparse
import time

from _common import PROMPTS, median, private_home


def per_chunk_us(feed, chunks: list[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        feed(chunks)
        best = min(best, time.perf_counter() - started)
    return best / len(chunks) * 1e6


def main() -> None:
    private_home()
    parser = argparse.ArgumentParser()
    parser.add_argument("--tokens", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    import openvino_genai as ov_genai

    from eagle_chat import paths
    from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec
    from eagle_chat.core.generation.reasoning import ReasoningSplitter

    engine = Engine(PipelineSpec(paths.tiny_target_dir(), paths.tiny_draft_dir(), precision="f32"))
    settings = GenerationSettings(max_new_tokens=args.tokens, thinking=True)

    def ours(chunks):
        splitter = ReasoningSplitter()
        for text in chunks:
            splitter.feed(text)
        splitter.finish()

    def genai(chunks):
        parser = ov_genai.ReasoningIncrementalParser(expect_open_tag=True, keep_original_content=False)
        for text in chunks:
            parser.parse({}, text)

    rows = []
    for prompt in PROMPTS:
        result = engine.generate([{"role": "user", "content": prompt}], settings, on_chunk=lambda chunk: None)
        chunks = [c.text for c in result.chunks]
        seconds = result.chunks[-1].t - result.chunks[0].t
        rate = result.stats.generated_tokens / seconds if seconds > 0 else float("nan")
        chunk_rate = len(chunks) / seconds if seconds > 0 else float("nan")
        rows.append((prompt, result.stats.generated_tokens, len(chunks), rate, chunk_rate,
                     per_chunk_us(ours, chunks, args.repeats), per_chunk_us(genai, chunks, args.repeats),
                     result.stats.thinking_tokens))
    engine.close()
    print(f"{len(rows)} prompts, up to {args.tokens} tokens, thinking on, EAGLE-3 K=5, f32")
    print(f"{'tokens':>6} {'chunks':>6} {'tok/s':>7} {'chunk/s':>7} {'ours us':>8} {'GenAI us':>8} {'think':>5}")
    for _, tokens, n, rate, chunk_rate, us, genai_us, thinking in rows:
        print(f"{tokens:>6} {n:>6} {rate:>7.0f} {chunk_rate:>7.0f} {us:>8.2f} {genai_us:>8.2f} {thinking or 0:>5}")
    ours_us, genai_us = median(r[5] for r in rows), median(r[6] for r in rows)
    chunk_rate, token_rate = median(r[4] for r in rows), median(r[3] for r in rows)
    print(f"median per chunk: ours {ours_us:.2f} us, GenAI's parser {genai_us:.2f} us")
    print(f"at the stream's {token_rate:.0f} tok/s ({chunk_rate:.0f} chunks/s): ours takes "
          f"{chunk_rate * ours_us / 1e4:.3f} % of the time, GenAI's parser {chunk_rate * genai_us / 1e4:.3f} %")
    per_chunk = median(r[1] / r[2] for r in rows)
    fast = 1000.0 / per_chunk
    print(f"at 1,000 tok/s ({fast:.0f} chunks/s of {per_chunk:.2f} tokens): ours {fast * ours_us / 1e4:.3f} %, "
          f"GenAI's parser {fast * genai_us / 1e4:.3f} % (and the GUI splits the 15 ms batches, fewer still)")


if __name__ == "__main__":
    main()
