"""The prompt tokens reported as served from the KV cache: the shared prefix in whole blocks, erring low."""

from __future__ import annotations

from types import SimpleNamespace

from eagle_chat.core.generation.prefix_record import PrefixRecord, shared_blocks


def stats(mode="speculative", generated=20, k=5):
    return SimpleNamespace(mode=mode, generated_tokens=generated, num_assistant_tokens=k)


def test_whole_blocks_of_the_shared_prefix_never_the_last_token():
    assert shared_blocks(list(range(100)), list(range(70)) + [0], 32) == 64
    assert shared_blocks(list(range(64)), list(range(64)), 32) == 32  # the last token is always computed again
    assert shared_blocks(list(range(100)), [9] + list(range(1, 100)), 32) == 0
    assert shared_blocks(list(range(100)), list(range(100)), 0) == 0  # no prefix cache


def test_per_pipeline_and_only_a_prompt_a_drafting_step_ran_on():
    record, a, b = PrefixRecord(16), object(), object()
    prompt = list(range(40))
    first = stats()
    record.note(a, prompt, False, first)
    assert (first.cached_tokens, first.prefilled_tokens) == (0, 0)
    other = stats()
    record.note(b, prompt, False, other)
    assert other.cached_tokens == 0  # another pipeline has its own cache
    again = stats(generated=3)  # no drafting step: the draft has not cached this prompt, so it is not recorded
    record.note(a, prompt + [1, 2], False, again)
    assert again.cached_tokens == 32
    last = stats()
    record.note(a, prompt + [1, 2, 3], False, last)
    assert last.cached_tokens == 32  # still measured against the prompt recorded before
    unknown = stats()
    record.note(a, None, False, unknown)  # a prompt not known as ids (template off): 0, and forgotten
    record.note(a, prompt, False, after := stats())
    assert unknown.cached_tokens == 0 == after.cached_tokens


def test_no_prefix_caching_on_npu_or_when_switched_off():
    assert PrefixRecord.of(None, "NPU").block == 0
    assert PrefixRecord.of({"enable_prefix_caching": False}, "CPU").block == 0
    assert (PrefixRecord.of({"enable_prefix_caching": True}, "CPU").block,
            PrefixRecord.of({"enable_prefix_caching": True}, "GPU.1").block) == (32, 16)
