"""The bounded KV cache: how many blocks target and draft get, and what they hold."""

import json

from eagle_chat.core.generation import kv_cache
from eagle_chat.core.generation.kv_cache import GIB, plan_kv_cache


def write_config(folder, layers, kv_heads, head_dim, context=None):
    folder.mkdir()
    config = {"num_hidden_layers": layers, "num_attention_heads": kv_heads * 2, "num_key_value_heads": kv_heads,
              "head_dim": head_dim}
    if context:
        config["max_position_embeddings"] = context
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def test_bytes_per_token_follow_the_config_and_precision(tmp_path):
    model = write_config(tmp_path / "m", layers=36, kv_heads=8, head_dim=128)
    assert kv_cache.bytes_per_token(model, "f32") == 2 * 36 * 8 * 128 * 4
    assert kv_cache.bytes_per_token(model, "default") == 2 * 36 * 8 * 128 * 2


def test_an_8b_class_pair_gets_two_contexts_when_memory_allows_and_less_when_not(tmp_path):
    target = write_config(tmp_path / "t", layers=36, kv_heads=8, head_dim=128, context=40960)
    draft = write_config(tmp_path / "d", layers=1, kv_heads=8, head_dim=128)
    roomy = plan_kv_cache(target, draft, precision="default", context_tokens=40960, available_bytes=64 * GIB)
    per_token = 2 * 36 * 8 * 128 * 2 + 2 * 1 * 8 * 128 * 2
    assert (roomy.num_kv_blocks, roomy.block_tokens) == (2 * 40960 // 32, 32)  # exactly two contexts
    assert roomy.capacity_tokens == 2 * 40960
    assert roomy.bound_bytes == 2 * 40960 * per_token  # 11.6 GiB, not rounded up to whole GiB
    tight = plan_kv_cache(target, draft, precision="default", context_tokens=40960, available_bytes=8 * GIB,
                          weights_bytes=5 * GIB)
    assert tight.bound_bytes <= (8 - 5) * GIB * kv_cache.MEMORY_FRACTION  # within half of what is left
    assert tight.bound_bytes > (8 - 5) * GIB * kv_cache.MEMORY_FRACTION - 32 * per_token  # all of it, to a block
    assert tight.capacity_tokens < 40960  # the context budget then keeps requests below this
    starved = plan_kv_cache(target, draft, precision="default", context_tokens=40960, available_bytes=GIB,
                            weights_bytes=5 * GIB)
    assert starved.capacity_tokens == kv_cache.MIN_TOKENS  # still room for one ordinary request


def test_the_tiny_pair_gets_what_it_needs_not_gibibytes(tiny_pair):
    plan = plan_kv_cache(*tiny_pair, precision="default", context_tokens=4096, available_bytes=16 * GIB)
    assert (plan.num_kv_blocks, plan.block_tokens, plan.capacity_tokens) == (256, 32, 2 * 4096)
    assert plan.bound_bytes == 8192 * (2 * 10 * 2 * 16 * 2 + 2 * 1 * 2 * 16 * 2)  # 11 MB (was 2 GiB)
    gpu = plan_kv_cache(*tiny_pair, precision="default", context_tokens=4096, available_bytes=16 * GIB, device="GPU.1")
    assert (gpu.num_kv_blocks, gpu.capacity_tokens) == (512, 2 * 4096)  # GPU blocks hold 16 tokens


def test_the_engine_gives_genai_the_blocks_for_target_and_draft(tiny_pair, monkeypatch):
    # the real GenAI calls, recorded on the way through: the draft must get a scheduler config of its own,
    # or GenAI splits a GiB cache_size between the two (>= 1 GiB for the draft)
    import openvino_genai as ov_genai

    from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec

    sent = {}
    real_draft, real_pipeline = ov_genai.draft_model, ov_genai.LLMPipeline

    def draft_model(path, device, **kwargs):
        sent["draft"] = kwargs
        return real_draft(path, device, **kwargs)

    def pipeline(path, device, **kwargs):
        sent["target"] = kwargs
        return real_pipeline(path, device, **kwargs)

    monkeypatch.setattr(ov_genai, "draft_model", draft_model)
    monkeypatch.setattr(ov_genai, "LLMPipeline", pipeline)
    engine = Engine(PipelineSpec(*tiny_pair, device="CPU"))
    try:
        blocks = engine.plan.kv_cache.num_kv_blocks
        for model in ("target", "draft"):
            config = sent[model]["scheduler_config"]
            assert (config.num_kv_blocks, config.cache_size, config.enable_prefix_caching) == (blocks, 0, True)
            assert sent[model]["CPU_RUNTIME_CACHE_CAPACITY"] == 50
        assert engine.generate("Hello there", GenerationSettings(max_new_tokens=4)).stats.generated_tokens > 0
    finally:
        engine.close()
