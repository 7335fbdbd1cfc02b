"""EAGLE-3 on the NPU: what the load plan and each reply hand to OpenVINO GenAI.

There is no NPU here. The plan, the draft properties and the per-call GenerationConfig are checked as
data, and the engine also runs for real on GenAI's NPU EAGLE-3 pipeline through the NPU plugin with
``NPUW_DEVICES=CPU`` (the plugin's LLM pipeline then compiles for the CPU; GenAI's own NPU tests run this
way), so GenAI's NPU checks — tree-only drafting, the compile-time limits — judge what the engine sends.
"""

from __future__ import annotations

import pytest

from eagle_chat.core.generation import devices as dev
from eagle_chat.core.generation.devices import NpuOptions
from eagle_chat.core.generation.engine import Engine, EngineError, GenerationSettings, PipelineSpec, plan_load
from eagle_chat.core.generation.npu_drafting import DraftTree, NpuDraftError, npu_call_tree, npu_tree
from eagle_chat.core.measure.bench import TUNE_TREES, sweep_configs
from eagle_chat.core.measure.tuning import MAX_K, MIN_K

PROMPT = "Write a python function that adds two numbers"
LIMITS = ("MAX_TREE_DEPTH", "MAX_BRANCHING_FACTOR", "MAX_ASSISTANT_TOKENS")


def test_the_npu_plan_gives_the_tree_limits_to_the_draft_only(tiny_pair):
    plan = plan_load(PipelineSpec(tiny_pair[0], tiny_pair[1], device="NPU"))
    assert plan.device == plan.draft_device == "NPU"
    assert {k: plan.draft_properties[k] for k in LIMITS} == {
        "MAX_TREE_DEPTH": 7, "MAX_BRANCHING_FACTOR": 2, "MAX_ASSISTANT_TOKENS": 7}
    assert not set(LIMITS) & set(plan.properties), "GenAI ignores them on LLMPipeline"
    assert plan.properties["MIN_RESPONSE_LEN"] == plan.draft_properties["MIN_RESPONSE_LEN"] == 576
    assert "NPU_COMPILER_TYPE" not in plan.properties  # OpenVINO's default: the compiler in the driver

    small = plan_load(PipelineSpec(tiny_pair[0], tiny_pair[1], device="NPU",
                                   npu=NpuOptions(max_tree_depth=4, max_assistant_tokens=5)))
    assert small.draft_properties["MAX_TREE_DEPTH"] == 4 and small.draft_properties["MAX_ASSISTANT_TOKENS"] == 5
    cpu = plan_load(PipelineSpec(tiny_pair[0], tiny_pair[1], device="CPU"))
    assert not set(LIMITS) & set(cpu.draft_properties)


def test_the_default_limits_cover_every_k_and_tree_the_app_offers():
    npu = NpuOptions()
    for k in range(MIN_K, MAX_K + 1):
        for tree in (None, *TUNE_TREES):
            if tree and tree[0] > k:
                continue
            depth, branching = tree or (0, 0)
            sent = npu_call_tree(GenerationSettings(num_assistant_tokens=k, tree_depth=depth,
                                                    branching_factor=branching), True, True, npu)
            assert sent.depth > 0, "tree_depth=0 on the NPU would silently become GenAI's default tree"
            assert sent == (DraftTree(k, 1, k) if tree is None else DraftTree(depth, branching, k))
            assert sent.verified == k  # the tree holds every candidate: GenAI would cut K silently otherwise
    # every configuration auto-tune sweeps on the NPU fits, so none is dropped with these limits
    full = sweep_configs(range(MIN_K, MAX_K + 1), TUNE_TREES)
    assert sweep_configs(range(MIN_K, MAX_K + 1), TUNE_TREES, npu=npu) == full


def test_a_baseline_reply_on_the_npu_turns_the_draft_off():
    assert npu_call_tree(GenerationSettings(speculative=False), False, True, NpuOptions()) is None


def test_trees_beyond_the_compiled_limits_are_refused_with_a_sentence():
    small = NpuOptions(max_tree_depth=4, max_branching_factor=2, max_assistant_tokens=7)
    with pytest.raises(NpuDraftError, match=r"compiled for draft trees up to depth 4.*depth 5 > 4"):
        npu_call_tree(GenerationSettings(num_assistant_tokens=5), True, True, small)  # a chain of 5
    with pytest.raises(NpuDraftError, match="branching 3 > 2"):
        npu_call_tree(GenerationSettings(num_assistant_tokens=5, tree_depth=3, branching_factor=3), True, True, small)
    # auto-tune on such an NPU sweeps only what fits: chains up to 4, trees up to depth 4
    assert sweep_configs((3, 5), ((3, 2), (5, 2)), npu=small) == [(3, None), (3, (3, 2)), (5, (3, 2))]


def test_a_reply_longer_than_the_compiled_reserve_is_refused_before_it_starts():
    npu = NpuOptions()
    assert npu.reply_limit(with_draft=True) == 576 - 2 * 16 >= 512  # the app's default Max new tokens fits
    assert npu.reply_limit(with_draft=False) == 576
    npu_call_tree(GenerationSettings(max_new_tokens=544), True, True, npu)
    with pytest.raises(NpuDraftError, match="at most 544 tokens"):
        npu_call_tree(GenerationSettings(max_new_tokens=545), True, True, npu)


class RecordingPipe:
    """Stands between the engine and its LLMPipeline and records the tree fields of every generate()."""

    def __init__(self, pipe):
        self.pipe = pipe
        self.sent: list[tuple[int | None, int, int]] = []

    def generate(self, inputs, config, streamer):
        self.sent.append((config.num_assistant_tokens, config.tree_depth, config.branching_factor))
        return self.pipe.generate(inputs, config, streamer)

    def __getattr__(self, name):
        return getattr(self.pipe, name)


def _npu_on_cpu(monkeypatch, draft_limits: bool = True):
    """Run the 'NPU' plan on the NPU plugin's CPU back end; optionally drop our draft limits."""
    original = dev.pipeline_properties

    def properties(device, **kwargs):
        props = original(device, **kwargs)
        if device == "NPU":
            props.update(NPUW_DEVICES="CPU", INFERENCE_PRECISION_HINT="f32", KV_CACHE_PRECISION="f32")
        return props

    monkeypatch.setattr(dev, "pipeline_properties", properties)
    if not draft_limits:
        monkeypatch.setattr(NpuOptions, "draft_properties", lambda self: {})


@pytest.mark.slow
def test_the_engine_drafts_on_genais_npu_pipeline_as_planned(tiny_pair, monkeypatch):
    _npu_on_cpu(monkeypatch)
    engine = Engine(PipelineSpec(tiny_pair[0], tiny_pair[1], device="NPU"))
    recorder = engine._pipe = RecordingPipe(engine._pipe)
    try:
        plain = engine.generate(PROMPT, GenerationSettings(max_new_tokens=48, speculative=False))
        chain = engine.generate(PROMPT, GenerationSettings(max_new_tokens=48, num_assistant_tokens=5))
        tree = engine.generate(PROMPT, GenerationSettings(max_new_tokens=48, num_assistant_tokens=7,
                                                          tree_depth=4, branching_factor=2))
    finally:
        engine.close()
    assert recorder.sent[0][:2] == (0, 0)  # K=0 turns the draft off; branching is then unused
    assert recorder.sent[1:] == [(5, 5, 1), (7, 4, 2)]
    assert plain.stats.accepted_tokens == 0 and plain.stats.draft_tokens == 0  # K=0: no drafting at all
    # a chain 5 deep runs only because MAX_TREE_DEPTH=7 reached the draft (GenAI's own limit is 4)
    assert chain.stats.accepted_tokens > 0 and chain.text == plain.text  # lossless
    assert tree.stats.draft_tokens > chain.stats.draft_tokens  # two branches draft more candidates per step


@pytest.mark.slow
def test_without_our_draft_limits_genai_refuses_a_chain_deeper_than_4(tiny_pair, monkeypatch):
    """The control for the test above: GenAI's own compile-time limit is depth 4."""
    _npu_on_cpu(monkeypatch, draft_limits=False)
    engine = Engine(PipelineSpec(tiny_pair[0], tiny_pair[1], device="NPU"))
    try:
        with pytest.raises(EngineError, match=r"tree_depth \(5\) exceeds compile-time limit \(4\)"):
            engine.generate(PROMPT, GenerationSettings(max_new_tokens=16, num_assistant_tokens=5))
        assert engine.generate(PROMPT, GenerationSettings(max_new_tokens=16, num_assistant_tokens=4)).text
    finally:
        engine.close()


def test_a_chain_of_k_is_one_branch_k_deep():
    assert npu_tree(3) == DraftTree(3, 1, 3) and npu_tree(3).is_chain and npu_tree(3).nodes == 3
    assert npu_tree(7, 4, 2).nodes == 14 and not npu_tree(7, 4, 2).is_chain
    assert DraftTree(2, 2, 7).verified == 6  # GenAI cuts K to the tree's nodes without an error
