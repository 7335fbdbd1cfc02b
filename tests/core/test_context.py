"""The context budget: what of a conversation is sent, what is left out, how many tokens may come back.

The rules are checked with a word-counting template (exact and easy to reason about), then on the real
tiny pair, whose tokenizer and chat template count the tokens.
"""

import pytest

from eagle_chat.core.generation import context as ctx
from eagle_chat.core.generation.engine import EngineError, GenerationSettings

OVERHEAD = 4  # the fake template: every message costs its words + 4, the generation prompt 3


def count_prompt(messages) -> int:
    return sum(len(m["content"].split()) + OVERHEAD for m in messages) + 3


def count_texts(texts) -> list[int]:
    return [len(t.split()) for t in texts]


def fit(messages, max_new, limits):
    return ctx.fit(messages, max_new, limits, count_prompt, count_texts, overhead=OVERHEAD)


def conversation(turns: int, words: int = 40, system: str = "Be brief.") -> list[dict]:
    messages = [{"role": "system", "content": system}] if system else []
    for i in range(turns):
        messages.append({"role": "user", "content": f"question{i} " + "w " * words})
        messages.append({"role": "assistant", "content": f"answer{i} " + "w " * words})
    return messages + [{"role": "user", "content": "the newest question"}]


def test_a_conversation_that_fits_is_sent_whole():
    messages = conversation(3)
    plan = fit(messages, 100, ctx.ContextLimits(context=1000, max_prompt=1000, margin=10))
    assert plan.messages == messages and plan.dropped == 0
    assert plan.max_new_tokens == 100 and plan.prompt_tokens == count_prompt(messages)
    assert plan.history_tokens == count_prompt(messages) - count_prompt([messages[0], messages[-1]])


def test_a_longer_conversation_sends_the_system_prompt_and_the_newest_turns_that_fit():
    limits = ctx.ContextLimits(context=1000, max_prompt=1000, margin=10)
    messages = conversation(30)
    plan = fit(messages, 200, limits)
    assert plan.dropped > 0
    assert plan.messages[0] == messages[0]  # the system prompt always
    assert plan.messages[-1] == messages[-1]  # the new message always
    assert plan.messages[1]["role"] == "user"  # cut between exchanges, never inside one
    assert plan.messages[1:] == messages[1 + plan.dropped:]  # the newest turns, in order, none skipped
    assert plan.prompt_tokens == count_prompt(plan.messages) <= plan.prompt_limit == 1000 - 10 - 200
    assert plan.prompt_tokens + plan.max_new_tokens <= limits.context - limits.margin


def test_old_turns_are_dropped_in_chunks_so_the_sent_prefix_stays_the_same_for_many_turns():
    limits = ctx.ContextLimits(context=2000, max_prompt=2000, margin=16)
    firsts = []
    for turns in range(10, 80):
        plan = fit(conversation(turns, words=30), 256, limits)
        assert plan.prompt_tokens <= plan.prompt_limit
        firsts.append(plan.messages[1]["content"] if plan.dropped else None)
    cut_turns = [f for f in firsts if f is not None]
    assert len(cut_turns) > 40  # it had to cut for most of these lengths
    moves = sum(1 for a, b in zip(cut_turns, cut_turns[1:]) if a != b)
    assert moves <= len(cut_turns) // 4  # a cut moving every turn would re-prefill every turn
    assert all(b >= a for a, b in zip([int(f.split()[0][8:]) for f in cut_turns],
                                      [int(f.split()[0][8:]) for f in cut_turns[1:]]))  # and only forwards


def test_max_new_tokens_is_clamped_to_what_the_context_has_left():
    limits = ctx.ContextLimits(context=600, max_prompt=600, margin=8)
    messages = [{"role": "user", "content": "w " * 500}]
    plan = fit(messages, 512, limits)
    assert plan.prompt_tokens == 507
    assert plan.max_new_tokens == 600 - 8 - 507 < plan.requested_new_tokens == 512


def test_a_message_too_long_for_any_reply_is_refused_with_its_size():
    limits = ctx.ContextLimits(context=600, max_prompt=600, margin=8)
    with pytest.raises(ctx.ContextTooSmall) as refused:
        fit(conversation(2) + [{"role": "user", "content": "w " * 590}], 64, limits)
    assert refused.value.tokens > refused.value.limit == 600 - 8 - ctx.MIN_REPLY_TOKENS


def test_a_huge_max_new_tokens_still_leaves_a_quarter_of_the_context_for_the_prompt():
    limits = ctx.ContextLimits(context=4096, max_prompt=4096, margin=32)
    assert ctx.prompt_limit(limits, 32768) >= (4096 - 32) // 4
    assert ctx.prompt_limit(limits, 100) == 4096 - 32 - 100


def test_npu_limits_are_the_compiled_ones():
    plain = ctx.npu_limits(1024, 128, speculative=False)
    eagle = ctx.npu_limits(1024, 128, speculative=True)
    assert plain.max_prompt == eagle.max_prompt == 1024 and plain.context == 1024 + 128
    assert eagle.margin == 16  # 2 x align8(max(7 + 1, 4 x 2))
    # A short prompt: the reply may use what MIN_RESPONSE_LEN and the unused prompt room leave.
    assert ctx.prompt_limit(eagle, 100) == 1024
    plan = ctx.fit([{"role": "user", "content": "w " * 1000}], 512, eagle, count_prompt, count_texts)
    assert plan.prompt_tokens == 1007 <= 1024 and plan.max_new_tokens == 1152 - 16 - 1007


# --- on the real tiny pair ----------------------------------------------------------------------------
LONG_TURN = "Explain how a recursive descent parser handles operator precedence in detail. " * 12


def test_the_engine_sends_only_what_fits_and_the_reply_stays_within_the_budget(spec_engine):
    history = []
    for i in range(20):  # ~20 x 2 x 190 tokens: well past the tiny model's 4,096
        history += [{"role": "user", "content": f"{i}. {LONG_TURN}"}, {"role": "assistant", "content": LONG_TURN}]
    history.append({"role": "user", "content": "And the newest question?"})
    settings = GenerationSettings(max_new_tokens=512)
    assert spec_engine.count_prompt_tokens(history, None) > spec_engine.context_limits.context
    plan = spec_engine.plan_context(history, settings)
    result = spec_engine.generate(history, settings)
    limits = spec_engine.context_limits
    assert result.stats.history_dropped == plan.dropped > 0
    assert result.stats.input_tokens == plan.prompt_tokens <= plan.prompt_limit == limits.context - limits.margin - 512
    assert result.stats.input_tokens + result.stats.generated_tokens <= limits.context - limits.margin
    assert 0 < result.stats.history_tokens < result.stats.input_tokens


def test_the_engine_clamps_max_new_tokens_to_the_context_left(spec_engine):
    limits = spec_engine.context_limits
    filler = "parser " * 4015  # one token a word here: 40 tokens of room are left for the reply
    prompt_tokens = spec_engine.count_prompt_tokens(filler, None)
    assert ctx.prompt_limit(limits, 512) < prompt_tokens < limits.context - limits.margin - ctx.MIN_REPLY_TOKENS
    plan = spec_engine.plan_context(filler, GenerationSettings(max_new_tokens=512))
    assert plan.max_new_tokens == limits.context - limits.margin - prompt_tokens < 512
    result = spec_engine.generate(filler, GenerationSettings(max_new_tokens=512))
    assert result.stats.input_tokens == prompt_tokens
    assert result.stats.generated_tokens <= plan.max_new_tokens


def test_the_engine_refuses_a_message_no_reply_fits_after(spec_engine):
    with pytest.raises(EngineError, match="the model handles at most"):
        spec_engine.generate("parser " * 5000, GenerationSettings(max_new_tokens=64))


def test_a_reply_to_continue_keeps_its_question_however_long_the_conversation():
    """Continue sends the turns before a cut reply and the reply itself (an assistant message last): the
    question it answers is sent with it, never cut away as "history"."""
    limits = ctx.ContextLimits(context=1000, max_prompt=1000, margin=10)
    messages = conversation(30)[:-1]  # ends with answer29: a cut reply to go on with
    assert messages[-1]["role"] == "assistant"
    plan = fit(messages, 200, limits)
    assert plan.dropped > 0
    assert plan.messages[-2:] == messages[-2:]  # question29 and its reply
    assert plan.messages[0] == messages[0] and plan.messages[1]["role"] == "user"
    assert plan.prompt_tokens == count_prompt(plan.messages) <= plan.prompt_limit
    # room for the reply alone but not for its question: refused, not continued without the question
    tiny = ctx.ContextLimits(context=110, max_prompt=110, margin=10)
    with pytest.raises(ctx.ContextTooSmall):
        fit(messages, 20, tiny)


def test_a_first_message_is_counted_once():
    calls = []

    def counting(messages):
        calls.append(len(messages))
        return count_prompt(messages)

    plan = ctx.fit([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hello there"}], 100,
                   ctx.ContextLimits(1000, 1000, 10), counting, count_texts, overhead=OVERHEAD)
    assert plan.prompt_tokens == count_prompt(plan.messages) and plan.history_tokens == 0
    assert calls == [2]  # the template and the tokenizer run once before the first token, not twice


def test_a_reply_renders_its_prompt_once_and_each_prompt_gets_its_own_text(spec_engine, monkeypatch):
    spec_engine.plan_context("warm-up", GenerationSettings(max_new_tokens=4))  # the template's overhead, once
    renders = []
    render = spec_engine._chat.prompt  # renders the template and encodes its text, once per prompt
    monkeypatch.setattr(spec_engine._chat, "prompt", lambda *args, **kwargs: renders.append(1) or render(*args, **kwargs))
    question = [{"role": "user", "content": "A question this test asks once: what is a trie?"}]
    result = spec_engine.generate(question, GenerationSettings(max_new_tokens=4))
    assert len(renders) == 1 and result.stats.input_tokens == spec_engine.count_prompt_tokens(question)
    # the remembered rendering never stands in for another prompt or another thinking switch
    off, on = spec_engine.prompt_text(question, False), spec_engine.prompt_text(question, True)
    assert "</think>" in off and "</think>" not in on and spec_engine.prompt_text(question, False) == off
    other = [{"role": "user", "content": "Another question?"}]
    assert "Another question?" in spec_engine.prompt_text(other) and "trie" not in spec_engine.prompt_text(other)
    assert len(renders) == 5


def test_remembered_token_counts_stay_within_their_byte_bound():
    import random
    import tracemalloc

    calls = []

    def counting(texts):
        calls.append(len(texts))
        return count_texts(texts)

    bound = 1 << 20
    counts = ctx.TokenCounts(counting, max_bytes=bound)
    rng = random.Random(23)

    def history(i):  # ~20 kB of distinct messages per request, as an agent sends them
        return [f"request {i} message {m} " + " ".join(str(rng.random()) for _ in range(100)) for m in range(10)]

    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i in range(200):
        texts = history(i)
        assert counts.count(texts) == count_texts(texts)
        del texts
    grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename"))
    tracemalloc.stop()
    assert counts.bytes <= bound and grown < bound + (256 << 10)  # 200 x 20 kB = 4 MB were counted
    # what the cache is for: a conversation's earlier messages are not counted again at its next turn
    texts, calls[:] = history(200), []
    counts.count(texts)
    counts.count([*texts, "the next message"])
    assert calls == [10, 1]
