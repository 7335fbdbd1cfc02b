"""Reproducer for an OpenVINO GenAI report: logit processors index an EAGLE-3 draft's reduced-vocabulary
logits with *target* token ids (continuous-batching CPU pipeline, GenAI 2026.4.1).

    python benchmarks/genai_d2t_repro.py [TARGET DRAFT]        (default: the reduced-vocabulary pair in tests/models/d2t)
    PYTHONMALLOC=malloc valgrind python benchmarks/genai_d2t_repro.py --case eos   (to see the bad write)

A head with ``draft_vocab_size`` < ``vocab_size`` (AngelSlim Qwen3 heads: 32,000 of 151,936; the tiny head:
1,024 of 3,072) outputs logits over its draft vocabulary and maps the sampled index to a target id through
``d2t`` (sampler.cpp, ``sample_from_sequence_group``). Before that, the draft's sampler runs the request's
``LogitProcessor`` over those draft logits, and its transforms hold ids in the *target* space:

- ``repetition_penalty != 1`` (``RepetitionPenaltyTransform``: prompt ids and generated ids, which were
  registered after the d2t mapping) asserts ``input_ids token out of bounds`` as soon as an id reaches
  ``draft_vocab_size``: the request fails with K > 0 and works with K = 0 (tiny pair: the prompt holds ids
  above 1,023). ``presence_penalty`` / ``frequency_penalty`` check generated ids only; on the tiny pair
  they ran without an error (shown for comparison).
- ``min_new_tokens > 0`` (``EOSPenaltyTransform``) writes ``-inf`` at ``logits.m_data[stop_token_id]``
  with no bounds check: a stop id at or above ``draft_vocab_size`` (every Qwen3 stop id is above 32,000) is
  a heap write past the draft's logits. No error is raised; under valgrind memcheck: ``Invalid write of
  size 4 at EOSPenaltyTransform::apply``. Ids below it penalise the wrong draft token (no t2d lookup).

EagleChat does not meet either: GenerationSettings has no penalties or min_new_tokens, the API server
refuses presence/frequency penalties, and with a draft loaded ``LLMPipeline.get_generation_config()``
(which the engine starts from) has repetition_penalty 1.0 and min_new_tokens 0 even when the target's
generation_config.json says 1.05 and 4 (measured; without a draft it has them). The intermittent heap-corruption aborts in the repeated-prompt
test are a different fault: benchmarks/pair_abort_rates.py measures them for both tiny pairs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROMPT = "The quick brown fox jumps over the lazy dog and then"


def cases(stop_id: int) -> dict[str, dict]:
    return {"plain": {}, "repetition": {"repetition_penalty": 1.2}, "presence": {"presence_penalty": 0.5},
            "eos": {"min_new_tokens": 40, "stop_token_ids": {stop_id}}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", nargs="?", type=Path, default=ROOT / "tests" / "models" / "d2t" / "tiny-qwen3")
    parser.add_argument("draft", nargs="?", type=Path, default=ROOT / "tests" / "models" / "d2t" / "tiny-qwen3-eagle3")
    parser.add_argument("--case", nargs="+", choices=list(cases(0)), default=list(cases(0)))
    args = parser.parse_args()
    import openvino_genai as ov_genai

    config = json.loads((args.draft / "config.json").read_text(encoding="utf-8"))
    vocab, draft_vocab = config.get("vocab_size"), config.get("draft_vocab_size", config.get("vocab_size"))
    print(f"openvino_genai {ov_genai.__version__}; draft vocabulary {draft_vocab} of {vocab}", flush=True)
    props = {"INFERENCE_PRECISION_HINT": "f32", "KV_CACHE_PRECISION": "f32"}
    scheduler = ov_genai.SchedulerConfig()
    scheduler.cache_size = 1
    pipe = ov_genai.LLMPipeline(str(args.target), "CPU", scheduler_config=scheduler,
                                draft_model=ov_genai.draft_model(str(args.draft), "CPU", **props), **props)
    stop_id = vocab - 72  # a target id the draft vocabulary cannot index
    for name in args.case:
        for k in (0, 5):
            config = ov_genai.GenerationConfig(max_new_tokens=48, num_assistant_tokens=k, **cases(stop_id)[name])
            try:
                text = pipe.generate([PROMPT], config).texts[0]
                outcome = f"ok, {len(text)} characters"
            except RuntimeError as error:
                outcome = f"RuntimeError: {str(error).strip().splitlines()[-1][:120]}"
            print(f"{name:<11} K={k}: {outcome}", flush=True)
    print("process survived")
    return 0


if __name__ == "__main__":
    sys.exit(main())
