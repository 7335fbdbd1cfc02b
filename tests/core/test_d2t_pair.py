"""The second committed tiny pair, tests/models/d2t: its head drafts over 1,024 of the target's 3,072 tokens
through d2t/t2d, as AngelSlim's heads draft over 32,000 of Qwen3's 151,936 — so GenAI's draft->target
mapping is exercised here. It is not the suite's default pair: with it GenAI 2026.4.1 aborted 4 of 51 soak
runs against 0 of 49 for the full-vocabulary head (benchmarks/pair_abort_rates.py; docs/context.md). The
whole suite runs on it with ``EAGLE_CHAT_TINY_MODELS=tests/models/d2t``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec
from eagle_chat.core.measure.bench import run_bench

D2T = Path(__file__).resolve().parents[1] / "models" / "d2t"
TARGET, DRAFT, HF_DRAFT = D2T / "tiny-qwen3", D2T / "tiny-qwen3-eagle3", D2T / "hf" / "tiny-qwen3-eagle3"


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file, parsed by hand (its format is a JSON header, then raw data)."""
    dtypes = {"I64": np.int64, "BOOL": np.bool_, "F16": np.float16, "F32": np.float32}
    data = path.read_bytes()
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + size])
    header.pop("__metadata__", None)
    return {name: np.frombuffer(data[8 + size + info["data_offsets"][0]:8 + size + info["data_offsets"][1]],
                                dtype=dtypes[info["dtype"]]).reshape(info["shape"])
            for name, info in header.items()}


def test_the_d2t_head_drafts_over_a_reduced_vocabulary_mapped_to_the_target():
    import openvino as ov

    config = json.loads((DRAFT / "config.json").read_text())
    vocab, draft_vocab = config["vocab_size"], config["draft_vocab_size"]
    assert (vocab, draft_vocab) == (3072, 1024)
    assert json.loads((TARGET / "config.json").read_text())["vocab_size"] == vocab

    model = ov.Core().read_model(DRAFT / "openvino_model.xml")
    assert model.output("logits").get_partial_shape()[-1].get_length() == draft_vocab
    d2t_node = model.output("d2t").get_node().input_value(0).get_node()
    assert d2t_node.get_type_name() == "Constant"
    d2t = d2t_node.get_data()
    assert d2t.shape == (draft_vocab,) and np.count_nonzero(d2t) > 0
    targets = np.arange(draft_vocab) + d2t  # target_id = draft_id + d2t[draft_id]
    assert targets.min() >= 0 and targets.max() < vocab and len(np.unique(targets)) == draft_vocab
    assert np.all(np.diff(targets) > 0)  # ascending: draft ids keep the target's order
    specials = {t["id"] for t in json.loads((DRAFT / "tokenizer.json").read_text())["added_tokens"]}
    assert specials and specials <= set(targets.tolist())  # ChatML markers, end of text, think tags

    # The Hugging Face head carries the same maps, with t2d a bool mask over the target vocabulary.
    hf_config = json.loads((HF_DRAFT / "config.json").read_text())
    assert (hf_config["vocab_size"], hf_config["draft_vocab_size"]) == (vocab, draft_vocab)
    tensors = read_safetensors(HF_DRAFT / "model.safetensors")
    assert np.array_equal(tensors["d2t"], d2t)
    assert tensors["t2d"].dtype == np.bool_ and np.array_equal(np.flatnonzero(tensors["t2d"]), targets)
    assert tensors["lm_head.weight"].shape == (draft_vocab, config["hidden_size"])


@pytest.fixture(scope="module")
def d2t_report(prompts):
    return run_bench(PipelineSpec(TARGET, DRAFT, device="CPU", precision="f32"), prompts[:4],
                     ks=[3, 7], max_new_tokens=64, repeats=1)


def test_through_the_mapping_greedy_output_is_the_targets_and_most_drafts_are_accepted(d2t_report):
    assert [row.k for row in d2t_report.summary] == [3, 7]
    for row in d2t_report.summary:
        assert row.identical_output, row.k
        assert row.draft_acceptance >= 0.40, (row.k, row.draft_acceptance)  # the bench gate


def test_a_d2t_conversation_streams_and_stops(d2t_report):
    engine = Engine(PipelineSpec(TARGET, DRAFT, device="CPU", precision="f32"))
    try:
        chunks = []
        result = engine.generate([{"role": "user", "content": "Write a function that sorts a list."}],
                                 GenerationSettings(max_new_tokens=48, num_assistant_tokens=5), chunks.append)
        assert result.text and "".join(c.text for c in chunks) == result.text
        assert result.stats.accepted_tokens > 0
    finally:
        engine.close()
