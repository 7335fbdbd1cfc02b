"""Next-turn prefill on the tiny pair: it sends exactly the text the next turn's prompt starts with (also
when the context budget cuts the conversation), runs only a few tokens, and changes no reply."""

from __future__ import annotations

from dataclasses import replace

from eagle_chat.core.generation import prefill
from eagle_chat.core.generation.engine import GenerationSettings

SETTINGS = GenerationSettings(max_new_tokens=48, num_assistant_tokens=3)


def exchange(engine, messages, text, settings=SETTINGS):
    messages = [*messages, {"role": "user", "content": text}]
    reply = engine.generate(messages, settings)
    return [*messages, {"role": "assistant", "content": reply.text}], reply


def test_the_prefill_is_the_start_of_the_next_turns_prompt(spec_engine):
    history, _ = exchange(spec_engine, [{"role": "system", "content": "Be brief."}], "What is a parser?")
    start = prefill.next_turn_prompt(spec_engine, history, SETTINGS)
    new = [*history, {"role": "user", "content": "And a lexer?"}]
    sent = spec_engine.prompt(spec_engine.plan_context(new, SETTINGS).messages, SETTINGS.thinking)
    answer = history[-1]["content"].split("</think>")[-1].strip()  # the template drops earlier thinking
    assert sent.text.startswith(start.text) and answer and answer in start.text
    assert sent.text[len(start.text):].startswith("And a lexer?")  # only the new message is left to prefill
    assert sent.ids.tolist()[:len(start.ids)] == start.ids.tolist()  # and the ids sent start with the prefill's

    result = spec_engine.generate(history, replace(SETTINGS, next_turn=True))
    assert result.stats.input_tokens == len(start.ids)
    assert 1 <= result.stats.generated_tokens <= SETTINGS.num_assistant_tokens + prefill.EXTRA_STEPS


def test_the_prefill_follows_the_context_budgets_cut(spec_engine):
    settings = replace(SETTINGS, max_new_tokens=3000)  # leaves ~1,000 prompt tokens of the pair's 4,096
    question = "Explain, with an example, how a recursive descent parser handles operator precedence. " * 4
    history: list[dict] = []
    for turn in range(16):
        history, _ = exchange(spec_engine, history, f"Turn {turn}. {question}", replace(settings, max_new_tokens=24))
    plan = spec_engine.plan_context([*history, {"role": "user", "content": "Next?"}], settings)
    assert plan.dropped > 0
    start = prefill.next_turn_prompt(spec_engine, history, settings)
    sent = spec_engine.prompt(plan.messages, settings.thinking)
    assert "Turn 0." not in start.text and sent.text.startswith(start.text)
    assert sent.text[len(start.text):].startswith("Next?") and sent.ids.tolist()[:len(start.ids)] == start.ids.tolist()


def test_a_prefill_changes_no_reply(spec_engine):
    history, _ = exchange(spec_engine, [], "Write a function that reverses a list.")
    question = "Now make it work on strings too."
    _, without = exchange(spec_engine, history, question)
    spec_engine.generate(history, replace(SETTINGS, next_turn=True))
    _, after = exchange(spec_engine, history, question)
    assert after.text == without.text and after.stats.input_tokens == without.stats.input_tokens
