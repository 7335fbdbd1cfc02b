"""Thinking apart from the answer, and continuing a cut reply, on the real tiny pair (f32)."""

import json
import shutil

from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec
from eagle_chat.core.generation.reasoning import join_reasoning, prompt_opens_reasoning

ASK = [{"role": "user", "content": "Write a Python function that reverses a string."}]


def test_thinking_on_splits_the_reply_and_counts_its_tokens(spec_engine):
    result = spec_engine.generate(ASK, GenerationSettings(max_new_tokens=80, thinking=True))
    assert result.text.startswith("<think>")  # the tiny pair writes Qwen3's tags itself
    split = result.reasoning
    assert split.thinking and split.closed
    assert "<think>" not in split.answer and "</think>" not in split.answer and split.answer.strip()
    assert "<think>" not in split.thinking and "</think>" not in split.thinking
    stats = result.stats
    thinking_raw = result.text[: split.reasoning_chars]
    assert stats.thinking_tokens == spec_engine.count_tokens(thinking_raw)
    assert 0 < stats.thinking_tokens < stats.generated_tokens
    assert stats.answer_tokens == stats.generated_tokens - stats.thinking_tokens
    assert 0 < stats.thinking_ms <= stats.duration_ms


def test_thinking_off_has_no_thinking(spec_engine):
    result = spec_engine.generate(ASK, GenerationSettings(max_new_tokens=40, thinking=False))
    assert result.reasoning.thinking == "" and result.reasoning.answer == result.text
    assert result.stats.thinking_tokens is None and result.stats.thinking_ms is None


def test_a_cut_reply_continues_where_it_stopped(spec_engine):
    full = spec_engine.generate(ASK, GenerationSettings(max_new_tokens=70, thinking=True)).reasoning
    for cut_at in (4, 10, 32):  # cut in the thinking (before " wants", inside a word), then in the answer
        cut = spec_engine.generate(ASK, GenerationSettings(max_new_tokens=cut_at, thinking=True))
        assert cut.stats.generated_tokens == cut_at
        partial = join_reasoning(cut.reasoning.thinking, cut.reasoning.answer, closed=cut.reasoning.closed)
        prompt = [*ASK, {"role": "assistant", "content": partial}]
        assert spec_engine.prompt_text(prompt, True).endswith(partial)
        rest = spec_engine.generate(prompt, GenerationSettings(max_new_tokens=70 - cut_at, thinking=True))
        assert rest.stats.input_tokens == spec_engine.count_prompt_tokens(prompt, True)
        thinking = cut.reasoning.thinking + rest.reasoning.thinking
        answer = cut.reasoning.answer + rest.reasoning.answer
        assert (thinking, answer) == (full.thinking, full.answer), cut_at  # greedy: the same reply, in two runs


def test_a_template_that_opens_think_in_the_prompt(tiny_pair, tmp_path):
    """QwQ-style: the generation prompt ends with "<think>\\n", so the reply starts inside the thinking."""
    target = shutil.copytree(tiny_pair[0], tmp_path / "qwq-style")
    marker = "{{- '<|im_start|>assistant\\n' }}"
    opened = marker + "{{- '<think>\\n' }}"
    config = json.loads((target / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert config["chat_template"].count(marker) == 1
    config["chat_template"] = config["chat_template"].replace(marker, opened)
    (target / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    xml = (target / "openvino_tokenizer.xml").read_text(encoding="utf-8")
    escaped = lambda text: text.replace("<", "&lt;")  # how the IR's rt_info spells the template
    assert xml.count(escaped(marker)) == 1
    (target / "openvino_tokenizer.xml").write_text(xml.replace(escaped(marker), escaped(opened)), encoding="utf-8")
    engine = Engine(PipelineSpec(target, None, precision="f32"))
    try:
        assert prompt_opens_reasoning(engine.prompt_text(ASK, None))
        result = engine.generate(ASK, GenerationSettings(max_new_tokens=80, speculative=False))
        assert "<think>" not in result.text  # the prompt opened it; the model only closes it
        assert result.reasoning.thinking and "</think>" not in result.reasoning.answer
        assert result.stats.thinking_tokens > 0
    finally:
        engine.close()
