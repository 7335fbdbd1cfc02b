"""The engine on the committed tiny pair (f32): lossless, accepting, steerable, stoppable."""

import threading
from dataclasses import replace

import pytest

from eagle_chat.core.generation.devices import NpuOptions
from eagle_chat.core.generation.engine import (
    EngineError,
    GenerationSettings,
    PipelineSpec,
    SamplingWithDraftError,
    plan_load,
)

SPEC = GenerationSettings(max_new_tokens=64, speculative=True, num_assistant_tokens=5)
BASE = GenerationSettings(max_new_tokens=64, speculative=False)


def test_speculative_output_equals_plain_output_token_for_token(spec_engine, plain_engine, prompts):
    assert len(prompts) >= 4
    for prompt in prompts:
        plain = plain_engine.generate(prompt, BASE)
        fast = spec_engine.generate(prompt, SPEC)
        assert fast.text == plain.text, prompt
        assert fast.stats.generated_tokens == plain.stats.generated_tokens
        assert plain.stats.mode == "baseline" and fast.stats.mode == "speculative"


def test_baseline_on_the_draft_pipeline_is_plain_decoding(spec_engine, plain_engine, prompts):
    for prompt in prompts[:3]:
        same_pipeline = spec_engine.generate(prompt, BASE)
        assert same_pipeline.text == plain_engine.generate(prompt, BASE).text
        assert same_pipeline.stats.accepted_tokens == 0
        assert same_pipeline.stats.mode == "baseline"


def test_the_draft_earns_its_keep(spec_engine, prompts):
    accepted = drafted = 0
    k = SPEC.num_assistant_tokens
    for prompt in prompts:
        stats = spec_engine.generate(prompt, SPEC).stats
        steps = stats.generated_tokens / stats.tokens_per_step
        assert steps == pytest.approx(round(steps)), prompt  # tokens over verification steps
        steps = round(steps)
        # A step yields the drafts it accepted plus one token of the target's own; GenAI leaves the last
        # step's acceptances (at most K) out of its count. So tokens beyond one per step = accepted + 0..K.
        assert stats.accepted_tokens <= stats.generated_tokens - steps <= stats.accepted_tokens + k, prompt
        assert stats.tokens_per_step <= k + 1
        assert spec_engine.generate(prompt, BASE).stats.tokens_per_step == 1.0  # no draft: a token a step
        accepted += stats.accepted_tokens
        drafted += stats.draft_tokens
    assert accepted > 0
    assert accepted / drafted >= 0.4
    best = max(spec_engine.generate(p, SPEC).stats.tokens_per_step for p in prompts)
    assert best > 1.0


def test_k_changes_between_calls_take_effect(spec_engine, prompts):
    prompt = prompts[0]
    seen = {}
    for k in (3, 7, 3):
        stats = spec_engine.generate(prompt, GenerationSettings(max_new_tokens=64, num_assistant_tokens=k)).stats
        assert stats.num_assistant_tokens == k
        steps = round(stats.generated_tokens / stats.tokens_per_step)
        # Every verification step drafts K tokens (the last may draft fewer near max_new_tokens).
        assert stats.draft_tokens <= k * steps
        assert stats.draft_tokens > (k - 1) * (steps - 1)
        seen.setdefault(k, stats.draft_tokens)
    assert seen[7] > seen[3]


def test_stop_ends_a_reply_within_a_few_tokens(spec_engine, prompts):
    stop = threading.Event()
    chunks = []

    def on_chunk(chunk):
        chunks.append(chunk)
        if chunk.tokens >= 10:
            stop.set()

    result = spec_engine.generate(prompts[0], GenerationSettings(max_new_tokens=500), on_chunk, stop)
    assert result.stopped
    assert 10 <= result.stats.generated_tokens <= 10 + 2 * 8  # at most a step or two after the flag
    assert result.text == "".join(c.text for c in chunks)
    # The engine is usable again right away.
    assert not spec_engine.generate(prompts[0], GenerationSettings(max_new_tokens=8)).stopped


def test_chunks_carry_running_token_counts_and_times(spec_engine, prompts):
    chunks = []
    result = spec_engine.generate(prompts[1], SPEC, chunks.append)
    assert len(chunks) > 3
    assert [c.tokens for c in chunks] == sorted(c.tokens for c in chunks)
    assert [c.t for c in chunks] == sorted(c.t for c in chunks)
    assert chunks[-1].tokens <= result.stats.generated_tokens
    assert "".join(c.text for c in chunks) == result.text


def test_an_exception_in_the_chunk_callback_never_reaches_openvino(spec_engine, prompts):
    def broken(chunk):
        raise ValueError("boom")

    with pytest.raises(EngineError, match="boom"):
        spec_engine.generate(prompts[0], SPEC, broken)
    assert spec_engine.generate(prompts[0], GenerationSettings(max_new_tokens=4)).text


def test_stats_are_complete(spec_engine, prompts):
    stats = spec_engine.generate(prompts[0], SPEC).stats
    assert stats.ttft_ms > 0 and stats.tpot_ms > 0 and stats.tokens_per_s > 0
    assert stats.input_tokens > 5 and stats.generated_tokens > 0
    assert stats.load_time_ms > 0
    assert 0.0 <= stats.acceptance <= 1.0


def test_sampling_with_a_draft_is_refused_not_changed(spec_engine, plain_engine, prompts):
    for speculative in (True, False):  # GenAI's EAGLE-3 pipeline streams greedily even at K=0
        with pytest.raises(SamplingWithDraftError, match="greedy"):
            spec_engine.generate(prompts[0], GenerationSettings(do_sample=True, speculative=speculative))
    sampled = plain_engine.generate(
        prompts[0], GenerationSettings(max_new_tokens=8, do_sample=True, speculative=False)
    )
    assert sampled.stats.mode == "baseline" and sampled.stats.generated_tokens > 0
    with pytest.raises(EngineError, match="'eagle3' is not available .* it offers off, prompt_lookup"):
        plain_engine.generate(prompts[0], GenerationSettings(speculative=True, method="eagle3"))


@pytest.mark.parametrize("method", ["off", "prompt_lookup"])
def test_each_sampled_reply_draws_its_own_seed_unless_one_is_given(plain_engine, method):
    """GenAI starts every call from rng_seed 0: left alone, every sampled reply to a prompt was the same reply
    (Regenerate with sampling on repeated itself), on the plain pipeline and on prompt lookup alike."""
    prompt = [{"role": "user", "content": "def parse_args(argv):\n    return argv\n\nShow it again."}]
    sampled = GenerationSettings(max_new_tokens=48, do_sample=True, temperature=1.0, top_p=1.0,
                                 speculative=method != "off", method=method, thinking=False)
    texts = {plain_engine.generate(prompt, sampled).text for _ in range(3)}
    assert len(texts) > 1, texts
    seeded = [plain_engine.generate(prompt, replace(sampled, seed=1234)) for _ in range(2)]
    assert seeded[0].text == seeded[1].text and seeded[0].stats.speculation == method


def test_chat_history_system_prompt_and_thinking(spec_engine):
    history = [{"role": "system", "content": "You write Python."}, {"role": "user", "content": "Sort a list."}]
    on = spec_engine.generate(history, GenerationSettings(max_new_tokens=8, thinking=True)).stats.input_tokens
    off = spec_engine.generate(history, GenerationSettings(max_new_tokens=8, thinking=False)).stats.input_tokens
    bare = spec_engine.generate(history[1:], GenerationSettings(max_new_tokens=8, thinking=True)).stats.input_tokens
    assert off > on  # thinking off appends an empty <think></think> block to the prompt
    assert on > bare  # the system prompt is sent
    assert spec_engine.count_prompt_tokens(history, thinking=True) == on
    assert spec_engine.count_prompt_tokens(history, thinking=False) == off


@pytest.mark.parametrize("bad", ["", "   \n", [{"role": "user", "content": " "}]])
def test_empty_prompts_are_refused(spec_engine, bad):
    with pytest.raises(EngineError, match="empty"):
        spec_engine.generate(bad, SPEC)


@pytest.mark.parametrize("k", [17, 40])
def test_assistant_tokens_out_of_range(spec_engine, k):
    with pytest.raises(EngineError, match="between 1 and 16"):
        spec_engine.generate("hello there", GenerationSettings(num_assistant_tokens=k))
    plain = spec_engine.generate("hello there", GenerationSettings(max_new_tokens=8, num_assistant_tokens=0))
    assert plain.stats.mode == "baseline" and plain.stats.method == "off"  # K = 0 is plain decoding, not refused


def test_what_would_be_sent_to_openvino_for_npu_and_gpu(tiny_pair, tmp_path):
    npu = plan_load(PipelineSpec(tiny_pair[0], tiny_pair[1], device="NPU", cache_dir=tmp_path,
                                 npu=NpuOptions(max_prompt_len=2048, min_response_len=64)))
    assert npu.device == npu.draft_device == "NPU"
    assert npu.properties == {"CACHE_DIR": str(tmp_path), "MAX_PROMPT_LEN": 2048, "MIN_RESPONSE_LEN": 64}
    # the draft also gets the compile-time tree limits (tests/core/test_npu_drafting.py)
    assert npu.draft_properties == {**npu.properties, "MAX_TREE_DEPTH": 7, "MAX_BRANCHING_FACTOR": 2,
                                    "MAX_ASSISTANT_TOKENS": 7}
    assert npu.scheduler is None  # the NPU path takes no scheduler config
    gpu = plan_load(PipelineSpec(tiny_pair[0], tiny_pair[1], device="GPU", precision="f32"))
    assert gpu.device == gpu.draft_device == "GPU"
    assert gpu.properties["INFERENCE_PRECISION_HINT"] == "f32"
    assert gpu.scheduler["enable_prefix_caching"] is True  # a conversation's earlier turns are reused
    # bounded, in blocks: RSS is known in advance and not rounded up to whole GiB
    assert gpu.scheduler["num_kv_blocks"] == gpu.kv_cache.num_kv_blocks > 0 and gpu.scheduler["cache_size"] == 0
    assert gpu.kv_cache.capacity_tokens >= 2 * gpu.target.max_context
    # the draft has its own config, the same blocks: GenAI would otherwise split a GiB cache_size (>= 1 GiB each)
    assert gpu.draft_scheduler == gpu.scheduler
    off = plan_load(PipelineSpec(tiny_pair[0], tiny_pair[1], device="CPU", prefix_cache=False))
    assert off.scheduler["enable_prefix_caching"] is False and off.scheduler["num_kv_blocks"] > 0
    assert off.draft_scheduler == off.scheduler
    alone = plan_load(PipelineSpec(tiny_pair[0], None))
    assert alone.draft_scheduler is None and alone.scheduler["num_kv_blocks"] == alone.kv_cache.num_kv_blocks


def test_repeated_identical_prompts_do_not_crash_the_process(tiny_pair, prompts):
    # With prefix caching (on by default) this aborted the process within 100-200 repeats on an older tiny pair.
    import subprocess
    import sys

    code = (
        "import eagle_chat, sys\n"
        "from eagle_chat.core.generation.engine import Engine, PipelineSpec, GenerationSettings\n"
        f"e = Engine(PipelineSpec({str(tiny_pair[0])!r}, {str(tiny_pair[1])!r}))\n"
        "s = GenerationSettings(max_new_tokens=64)\n"
        f"for i in range(300): e.generate({prompts[0]!r}, s)\n"
        "print('survived')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "survived" in done.stdout, done.stderr[-2000:]


@pytest.mark.parametrize("prompt", ["hi", "import"])
def test_a_one_token_prompt_is_decoded_plainly_and_says_why(spec_engine, plain_engine, prompt):
    """GenAI's EAGLE-3 refuses a one-token prompt whatever K; the engine decodes it without the draft."""
    raw = dict(max_new_tokens=24, chat_template=False)
    assert spec_engine.tokenizer.encode(prompt).input_ids.get_shape()[-1] == 1
    expected = plain_engine.generate(prompt, GenerationSettings(speculative=False, **raw))
    chunks = []
    for settings in (GenerationSettings(num_assistant_tokens=5, **raw), GenerationSettings(speculative=False, **raw)):
        reply = spec_engine.generate(prompt, settings, on_chunk=chunks.append)
        assert reply.text == expected.text and expected.text
        assert "".join(c.text for c in chunks) == reply.text
        assert reply.stats.mode == "baseline" and reply.stats.draft_tokens == 0
        assert "one token" in reply.stats.draft_skipped
        chunks.clear()
    two = spec_engine.generate("import os", GenerationSettings(num_assistant_tokens=5, **raw))
    assert two.stats.mode == "speculative" and two.stats.draft_skipped is None
