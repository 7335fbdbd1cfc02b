"""Tools in the prompt and grammars on the reply, on the tiny EAGLE-3 pair (f32)."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.json_grammar import UnsupportedSchema, schema_grammar
from eagle_chat.core.generation.structured import Constraint
from eagle_chat.core.generation.tool_calls import ToolCallParser
from eagle_chat.core.generation.tool_template import takes_tools, tools_text

TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "The weather in a city.", "parameters": {
        "type": "object", "properties": {"city": {"type": "string", "enum": ["Paris", "Rome"]},
                                         "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}}},
    {"type": "function", "function": {"name": "add", "parameters": {
        "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}}},
]
FUNCTIONS = json.dumps([t["function"] for t in TOOLS])
ASK = [{"role": "user", "content": "What is the weather in Paris?"}]
SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}, "name": {"type": "string", "maxLength": 10},
                                           "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 2}},
          "required": ["ok", "name", "tags"], "additionalProperties": False}


def test_takes_tools_reads_the_templates_code_not_its_text(tiny_pair):
    assert takes_tools("{%- if tools %}x{%- endif %}") and takes_tools("{{ tools | tojson }}")
    assert not takes_tools("{{- 'You have <tools></tools> and tools' }}")  # only in a string it writes
    assert not takes_tools(None) and not takes_tools("{{ messages }}")
    config = json.loads((tiny_pair[0] / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert takes_tools(config["chat_template"])


def test_the_prompt_carries_the_tools_and_is_counted_with_them(spec_engine):
    tools = tools_text(TOOLS)
    with_tools = spec_engine.prompt(ASK, None, tools=tools)
    assert '<tools>\n{"type": "function", "function": {"name": "get_weather"' in with_tools.text
    assert spec_engine.count_prompt_tokens(ASK, None, tools) == len(with_tools.ids)
    assert spec_engine.count_prompt_tokens(ASK, None) < len(with_tools.ids)
    exchange = [*ASK, {"role": "assistant", "content": "", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]
    text = spec_engine.prompt(exchange, None, tools=tools).text  # messages holding lists render (and are a key)
    assert text.endswith('</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\nsunny\n</tool_response>'
                         '<|im_end|>\n<|im_start|>assistant\n')


def _calls(text: str):
    parser = ToolCallParser()
    parser.feed(text)
    parser.finish()
    return parser


def test_a_required_call_is_valid_and_the_same_with_and_without_drafting(spec_engine):
    settings = GenerationSettings(max_new_tokens=200, tools=tools_text(TOOLS), constraint=Constraint("tool_calls", FUNCTIONS))
    drafted = spec_engine.generate(ASK, settings)
    plain = spec_engine.generate(ASK, GenerationSettings(**{**settings.__dict__, "speculative": False}))
    assert drafted.text == plain.text  # lossless with the grammar on
    parsed = _calls(drafted.text)
    assert parsed.content == "" and len(parsed.calls) == 1 and parsed.calls[0].error is None
    call = parsed.calls[0]
    schema = next(t["function"]["parameters"] for t in TOOLS if t["function"]["name"] == call.name)
    jsonschema.validate(json.loads(call.arguments), schema)
    assert drafted.stats.mode == "speculative" and drafted.stats.accepted_tokens > 0  # full-vocabulary draft


def test_two_calls_when_the_grammar_asks_for_two(spec_engine):
    settings = GenerationSettings(max_new_tokens=300, tools=tools_text(TOOLS),
                                  constraint=Constraint("tool_calls", FUNCTIONS, min_calls=2, max_calls=2))
    parsed = _calls(spec_engine.generate(ASK, settings).text)
    assert len(parsed.calls) == 2 and all(c.error is None for c in parsed.calls) and parsed.content == ""


def test_json_schema_output_validates_with_bounded_whitespace(spec_engine):
    settings = GenerationSettings(max_new_tokens=200, constraint=Constraint("json_schema", json.dumps(SCHEMA)))
    result = spec_engine.generate(ASK, settings)
    jsonschema.validate(json.loads(result.text), SCHEMA)
    assert whitespace_is_bounded(result.text)


def whitespace_is_bounded(text: str) -> bool:
    """Outside strings, whitespace is at most one space, right after a comma or a colon."""
    outside = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    return all(outside[i - 1] in ",:" and outside[i] == " " and not outside[i + 1].isspace()
               for i, char in enumerate(outside) if char.isspace())


def test_grammars_refuse_what_they_cannot_enforce():
    for schema in ({"not": {"type": "string"}}, {"allOf": [{"type": "object"}, {"type": "object"}]},
                   {"$ref": "https://example.com/schema"}, {"type": "color"}):
        with pytest.raises(UnsupportedSchema):
            schema_grammar(schema)
    recursive = {"$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
                 "$ref": "#/$defs/node"}
    assert "ref_1 ::=" in schema_grammar(recursive)


def test_a_reduced_vocabulary_draft_is_told_apart(tiny_pair):
    """A d2t draft under a grammar drafts next to nothing (GenAI 2026.4.1): the API says so when it is loaded."""
    from types import SimpleNamespace

    from eagle_chat.core.models.folders import reduced_vocabulary as _reduced_vocab
    from eagle_chat.core.serving.requests import ServedModel
    from eagle_chat.core.serving.responses import output_figures

    assert _reduced_vocab(tiny_pair[1].parent / "d2t" / "tiny-qwen3-eagle3")
    assert not _reduced_vocab(tiny_pair[1]) and not _reduced_vocab(None)
    d2t, full = (ServedModel("m", True, "CPU", draft_reduced_vocab=flag) for flag in (True, False))
    drafted, plain = SimpleNamespace(mode="speculative"), SimpleNamespace(mode="baseline")
    limited = output_figures("tool_call", d2t, plain)  # the reply ran without drafting (see requests.settings)
    assert limited["drafting_limited_by_grammar"] is True and "wrong id space" in limited["draft_skipped"]
    assert not any(output_figures(g, m, s)["drafting_limited_by_grammar"]
                   for g, m, s in [(None, d2t, drafted), ("json_schema", full, drafted)])


def test_a_grammar_on_a_d2t_draft_runs_without_drafting():
    """GenAI 2026.4.1 masks a d2t draft in the target's id space: output unlike plain decoding and heap
    corruption (benchmarks/grammar_drafting.py), so such a reply is decoded without the draft."""
    from eagle_chat.core.serving.requests import Limits, ServedModel, parse_chat

    body = {"model": "m", "messages": ASK, "response_format": {"type": "json_object"}}
    for reduced, drafted in ((True, False), (False, True)):
        model = ServedModel("m", True, "CPU", supports_tools=True, draft_reduced_vocab=reduced)
        settings = parse_chat(body, model, Limits()).settings(GenerationSettings(), True, reduced)
        assert settings.speculative is drafted and settings.constraint.kind == "json_object"
        assert settings.thinking is False  # the grammar leaves no room for <think>
    free = parse_chat({"model": "m", "messages": ASK}, model, Limits()).settings(GenerationSettings(), True, True)
    assert free.speculative and free.constraint is None  # no grammar: a d2t draft drafts as usual


def test_the_engine_itself_holds_a_d2t_draft_back_under_a_grammar(tiny_pair):
    """Whoever asks (the window's agent mode sends ``speculative=True`` with its tool-call grammar), the engine
    decodes a grammar on a d2t draft without drafting and says why in the stats; without a grammar it drafts."""
    from eagle_chat.core.generation.engine import Engine, PipelineSpec
    from eagle_chat.core.generation.structured import GRAMMAR_D2T_REASON

    d2t = tiny_pair[1].parent / "d2t"
    engine = Engine(PipelineSpec(d2t / "tiny-qwen3", d2t / "tiny-qwen3-eagle3", device="CPU", precision="f32"))
    try:
        assert engine.reduced_vocab
        settings = GenerationSettings(max_new_tokens=60, tools=tools_text(TOOLS), constraint=Constraint("tool_calls", FUNCTIONS))
        held = engine.generate(ASK, settings)
        assert held.stats.mode == "baseline" and held.stats.drafting_off_by_grammar
        assert held.stats.draft_skipped == GRAMMAR_D2T_REASON
        assert _calls(held.text).calls  # the grammar still holds the reply
        free = engine.generate(ASK, GenerationSettings(max_new_tokens=16))
        assert free.stats.mode == "speculative" and not free.stats.drafting_off_by_grammar
        assert free.stats.draft_skipped is None
    finally:
        engine.close()
