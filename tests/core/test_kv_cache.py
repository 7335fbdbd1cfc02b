"""The bounded KV cache: GenAI's GiB split between target and draft, and what a size holds."""

import json

from eagle_chat.core.generation import kv_cache
from eagle_chat.core.generation.kv_cache import GIB, genai_split, plan_kv_cache


def write_config(folder, layers, kv_heads, head_dim, context=None):
    folder.mkdir()
    config = {"num_hidden_layers": layers, "num_attention_heads": kv_heads * 2, "num_key_value_heads": kv_heads,
              "head_dim": head_dim}
    if context:
        config["max_position_embeddings"] = context
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def test_genai_gives_the_draft_at_least_one_gib():
    # fast_draft_strategy.cpp: main = ceil(size x (1 - k)); a draft share of 0 becomes 1, taken from main if > 1
    assert genai_split(1, 36 * 8, 8) == (1, 1)  # cache_size=1 is 2 GiB in all
    assert genai_split(5, 36 * 8, 8) == (4, 1)
    assert genai_split(4, 1, 1) == (2, 2)
    assert genai_split(3, 100, 0) == (3, 0)  # no draft: all of it to the target


def test_bytes_per_token_follow_the_config_and_precision(tmp_path):
    model = write_config(tmp_path / "m", layers=36, kv_heads=8, head_dim=128)
    assert kv_cache.bytes_per_token(model, "f32") == 2 * 36 * 8 * 128 * 4
    assert kv_cache.bytes_per_token(model, "default") == 2 * 36 * 8 * 128 * 2


def test_an_8b_class_pair_gets_two_contexts_when_memory_allows_and_less_when_not(tmp_path):
    target = write_config(tmp_path / "t", layers=36, kv_heads=8, head_dim=128, context=40960)
    draft = write_config(tmp_path / "d", layers=1, kv_heads=8, head_dim=128)
    roomy = plan_kv_cache(target, draft, precision="default", context_tokens=40960, available_bytes=64 * GIB)
    per_token = 2 * 36 * 8 * 128 * 2
    assert roomy.capacity_tokens >= 2 * 40960
    assert (roomy.main_gb - 1) * GIB // per_token < 2 * 40960  # and not a GiB more than that
    assert roomy.bound_bytes == (roomy.main_gb + roomy.draft_gb) * GIB
    tight = plan_kv_cache(target, draft, precision="default", context_tokens=40960, available_bytes=8 * GIB,
                          weights_bytes=5 * GIB)
    assert tight.bound_bytes <= (8 - 5) * GIB * kv_cache.MEMORY_FRACTION + GIB  # within half of what is left
    assert tight.capacity_tokens < 40960  # the context budget then keeps requests below this


def test_the_tiny_pair_needs_the_smallest_cache_genai_allows(tiny_pair):
    plan = plan_kv_cache(*tiny_pair, precision="f32", context_tokens=4096, available_bytes=16 * GIB)
    assert (plan.cache_size_gb, plan.main_gb, plan.draft_gb) == (1, 1, 1)
    assert plan.capacity_tokens > 100 * 4096
