"""The EAGLE-3 converter with no PyTorch (core.acquisition.eagle3_converter) against optimum-intel's export.

The committed IR drafts (tests/models/tiny-qwen3-eagle3 and tests/models/d2t/tiny-qwen3-eagle3) are
optimum-intel 2.2.0 exports (fp16) of the committed Hugging Face heads beside them; the converter's IR of the
same heads must have the same signature and state, give the same values at every node both graphs name the
same way (prefill and a decode step, f32), and make OpenVINO GenAI produce the same greedy EAGLE-3 text."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from eagle_chat.core.acquisition import eagle3_converter
from eagle_chat.core.acquisition.eagle3_weights import HeadFormatError
from eagle_chat.core.models.catalog import ExportOptions

MODELS = Path(__file__).resolve().parents[1] / "models"
PAIRS = {  # name: (target IR, optimum-intel's draft IR, Hugging Face head)
    "full-vocabulary": (MODELS / "tiny-qwen3", MODELS / "tiny-qwen3-eagle3", MODELS / "hf" / "tiny-qwen3-eagle3"),
    "d2t": (MODELS / "d2t" / "tiny-qwen3", MODELS / "d2t" / "tiny-qwen3-eagle3",
            MODELS / "d2t" / "hf" / "tiny-qwen3-eagle3"),
}


@pytest.fixture(scope="module", params=sorted(PAIRS))
def converted(request, tmp_path_factory):
    target, exported, head = PAIRS[request.param]
    out = tmp_path_factory.mktemp(f"converted-{request.param}")
    summary = eagle3_converter.convert_head(head, out, ExportOptions(weight_format="fp16"), log=lambda _: None)
    assert summary["weight_format"] == "fp16"
    return target, exported, out


def signature(model):
    ports = [(sorted(p.get_names()), str(p.get_partial_shape()), str(p.get_element_type())) for p in model.inputs]
    outs = [(sorted(p.get_names()), str(p.get_partial_shape()), str(p.get_element_type())) for p in model.outputs]
    variables = sorted((v.get_info().variable_id, str(v.get_info().data_shape)) for v in model.get_variables())
    return ports, outs, variables


def test_same_inputs_outputs_state_and_rt_info(converted):
    import openvino as ov

    _, exported, out = converted
    core = ov.Core()
    theirs, ours = core.read_model(exported / "openvino_model.xml"), core.read_model(out / "openvino_model.xml")
    assert signature(ours) == signature(theirs)
    for path in (exported, out):
        rt_info = ET.parse(path / "openvino_model.xml").getroot().find("rt_info")
        assert rt_info.find("eagle3_mode").get("value") == "True"
        options = rt_info.find("runtime_options")
        assert {o.tag: o.get("value") for o in options} == {"ACTIVATIONS_SCALE_FACTOR": "8.0", "KV_CACHE_PRECISION": "f16"}
    d2t = [m.output("d2t").get_node().input_value(0).get_node() for m in (theirs, ours)]
    assert all("d2t" in node.get_friendly_name() for node in d2t), "GenAI finds the d2t map by this name"
    assert np.array_equal(d2t[0].get_data(), d2t[1].get_data())


def _with_named_outputs(model, names):
    import openvino as ov

    by_name = {op.get_friendly_name(): op for op in model.get_ops()}
    results = [ov.opset13.result(by_name[name].output(0)) for name in names]
    model.add_results(results)
    return len(model.outputs) - len(names)


def test_every_shared_node_gives_the_same_values_on_the_same_inputs(converted):
    import openvino as ov

    _, exported, out = converted
    core = ov.Core()
    theirs, ours = core.read_model(exported / "openvino_model.xml"), core.read_model(out / "openvino_model.xml")
    wanted = ("MatMul", "Add", "Multiply", "Concat", "ScaledDotProductAttention", "Swish", "Gather", "Cos", "Sin")
    ours_named = {op.get_friendly_name() for op in ours.get_ops() if op.get_type_name() in wanted}
    shared = sorted(op.get_friendly_name() for op in theirs.get_ops()
                    if op.get_type_name() in wanted and op.get_friendly_name() in ours_named
                    and op.get_friendly_name().startswith("__module."))
    assert len(shared) >= 25, shared
    for name in ("__module.model.fc/ov_ext::linear/MatMul", "__module.model.midlayer/aten::add/Add_1",
                 "__module.model.lm_head/ov_ext::linear/MatMul",
                 "__module.model.midlayer.self_attn/aten::scaled_dot_product_attention/ScaledDotProductAttention"):
        assert name in shared
    first = [_with_named_outputs(m, shared) for m in (theirs, ours)]
    config = {"INFERENCE_PRECISION_HINT": "f32", "KV_CACHE_PRECISION": "f32"}
    requests = [core.compile_model(m, "CPU", config).create_infer_request() for m in (theirs, ours)]
    rng = np.random.default_rng(0)
    h3 = 3 * 64
    compared = 0
    for step, length in enumerate((6, 1)):
        past = 6 if step else 0
        inputs = {
            "input_ids": rng.integers(0, 3000, size=(1, length), dtype=np.int64),
            "hidden_states": rng.standard_normal((1, length, h3)).astype(np.float32),
            "attention_mask": np.ones((1, past + length), np.int64),
            "position_ids": np.arange(past, past + length, dtype=np.int64)[None],
            "beam_idx": np.zeros(1, np.int32),
        }
        got = [r.infer(inputs) for r in requests]
        for index, name in enumerate(shared):
            a = got[0][requests[0].model_outputs[first[0] + index]]
            b = got[1][requests[1].model_outputs[first[1] + index]]
            assert a.shape == b.shape, name
            np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-4, err_msg=f"{name}, step {step}")
            compared += 1
        np.testing.assert_allclose(got[1][requests[1].model_outputs[0]], got[0][requests[0].model_outputs[0]],
                                   rtol=1e-4, atol=1e-4, err_msg="logits")
    assert compared == 2 * len(shared)


def test_greedy_eagle3_text_is_identical_through_genai(converted, prompts):
    from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec

    target, exported, out = converted
    from eagle_chat.core.acquisition.draft_export import finish_export

    finish_export(out, target)  # the tokenizer files, as the pull adds them
    texts, accepted = [], []
    for draft in (exported, out):
        engine = Engine(PipelineSpec(target, draft, device="CPU", precision="f32"))
        try:
            replies = [engine.generate([{"role": "user", "content": p}],
                                       GenerationSettings(max_new_tokens=32, num_assistant_tokens=3))
                       for p in prompts[:3]]
        finally:
            engine.close()
        texts.append([r.text for r in replies])
        accepted.append(sum(r.stats.accepted_tokens for r in replies))
    assert texts[1] == texts[0]
    assert accepted[1] == accepted[0] > 0, accepted


def test_an_unknown_architecture_is_named_in_the_error(tmp_path):
    import json

    (tmp_path / "config.json").write_text(json.dumps({"architectures": ["DeepseekV3ForCausalLMNextN"],
                                                      "model_type": "deepseek_v3"}))
    with pytest.raises(HeadFormatError, match="DeepseekV3ForCausalLMNextN.*deepseek_v3"):
        eagle3_converter.convert_head(tmp_path, tmp_path / "out", ExportOptions(weight_format="fp16"))


def test_pytorch_model_bin_and_bfloat16_heads_read_without_torch(tmp_path):
    """Heads published as pytorch_model.bin (a torch.save zip) and in bfloat16 read to the same tensors.
    torch writes the files here (the test environment has it); the converter reads them with numpy."""
    import shutil

    import torch

    from eagle_chat.core.acquisition.eagle3_weights import read_weights

    head = PAIRS["d2t"][2]
    reference = read_weights(head)
    state = {name: torch.from_numpy(np.array(value)) for name, value in reference.items()}
    for kind, convert in (("f16", lambda t: t), ("bf16", lambda t: t.to(torch.bfloat16) if t.is_floating_point() else t)):
        folder = tmp_path / kind
        folder.mkdir()
        shutil.copy2(head / "config.json", folder / "config.json")
        torch.save({name: convert(t) for name, t in state.items()}, folder / "pytorch_model.bin")
        got = read_weights(folder)
        assert sorted(got) == sorted(reference)
        for name, value in reference.items():
            want = state[name] if kind == "f16" else convert(state[name]).to(torch.float32)
            np.testing.assert_array_equal(np.asarray(got[name], dtype=np.float64 if value.dtype.kind == "f" else value.dtype),
                                          want.numpy().astype(np.float64 if value.dtype.kind == "f" else value.dtype),
                                          err_msg=f"{kind} {name}")
        eagle3_converter.convert_head(folder, tmp_path / f"{kind}-ir", ExportOptions(weight_format="fp16"),
                                      log=lambda _: None)
        assert (tmp_path / f"{kind}-ir" / "openvino_model.xml").is_file()
