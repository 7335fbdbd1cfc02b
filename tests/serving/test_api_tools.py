"""Tools and JSON output through `eagle-chat serve` on the tiny EAGLE-3 pair, with the official `openai` client.

The tiny pair was never trained on tool exchanges: a forced call (``required``, a named function) is valid
because a grammar makes it so; ``auto`` and ``none`` are checked for a well-formed response only.
"""

from __future__ import annotations

import json
import re
import shutil

import jsonschema
import openai
import pytest

from tests.conftest import TINY_TARGET
from tests.serving.served import API_KEY, serve

MODEL = "tiny-qwen3"
pytestmark = pytest.mark.slow
TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "The weather in a city.", "parameters": {
        "type": "object", "properties": {"city": {"type": "string", "enum": ["Paris", "Rome", "Oslo"]},
                                         "unit": {"type": "string", "enum": ["c", "f"]}},
        "required": ["city"], "additionalProperties": False}}},
    {"type": "function", "function": {"name": "add", "description": "Add two integers.", "parameters": {
        "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}}},
]
SCHEMAS = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}
ASK = [{"role": "user", "content": "What is the weather in Paris?"}]
ANSWER_SCHEMA = {"type": "object", "properties": {
    "city": {"type": "string", "enum": ["Paris", "Rome"]}, "sunny": {"type": "boolean"},
    "note": {"type": "string", "maxLength": 12}}, "required": ["city", "sunny", "note"], "additionalProperties": False}
NAMED = {"type": "function", "function": {"name": "add"}}
# The toy model never learned to stop calling: with parallel calls allowed it writes as many as the grammar lets
# it (8), ~80 tokens each — which makes a reply with several calls end to end.
FORCED_TOKENS = 1000


def ask(client, **fields):
    fields = {"model": MODEL, "messages": ASK, "tools": TOOLS, "max_tokens": 200, **fields}
    return client.chat.completions.create(**fields)


def streamed(client, **fields):
    """A streamed reply as the SDK itself accumulates the deltas (the state behind its stream helper, which
    raises on finish_reason "length" instead), and the raw chunks."""
    from openai.lib.streaming.chat import ChatCompletionStreamState

    fields = {"model": MODEL, "messages": ASK, "tools": TOOLS, "max_tokens": 200, **fields}
    state, chunks = ChatCompletionStreamState(), []
    for chunk in client.chat.completions.create(stream=True, **fields):
        chunks.append(chunk)
        state.handle_chunk(chunk)
    return state.current_completion_snapshot, chunks


def check_call(call, name=None):
    assert call.type == "function" and re.fullmatch(r"call_[0-9a-f]{24}", call.id)
    assert call.function.name in SCHEMAS and (name is None or call.function.name == name)
    jsonschema.validate(json.loads(call.function.arguments), SCHEMAS[call.function.name])


@pytest.mark.parametrize("choice", ["required", NAMED], ids=["required", "named"])
def test_a_forced_call_is_valid_streamed_and_not(client, choice):
    """``required`` lets the toy model write several calls; a named function exactly one, then the end."""
    whole = ask(client, tool_choice=choice, max_tokens=FORCED_TOKENS)
    assert whole.choices[0].finish_reason == "tool_calls"
    message = whole.choices[0].message
    assert message.content is None
    assert len(message.tool_calls) >= 2 if choice == "required" else len(message.tool_calls) == 1
    assert [c.id for c in message.tool_calls] == list(dict.fromkeys(c.id for c in message.tool_calls))
    for call in message.tool_calls:
        check_call(call, "add" if choice == NAMED else None)
    figures = whole.model_extra["eagle_chat"]
    assert figures["grammar"] == "tool_call" and figures["drafting_limited_by_grammar"] is False
    assert figures["mode"] == "speculative" and figures["accepted_tokens"] > 0  # a full-vocabulary draft drafts on
    assert "tool_call_errors" not in figures

    final, chunks = streamed(client, tool_choice=choice, max_tokens=FORCED_TOKENS)
    got = final.choices[0]
    assert got.finish_reason == "tool_calls" and not got.message.content
    assert [(c.function.name, c.function.arguments) for c in got.message.tool_calls] == \
           [(c.function.name, c.function.arguments) for c in message.tool_calls]  # greedy: the same call(s)
    deltas = [d for c in chunks if c.choices for d in (c.choices[0].delta.tool_calls or [])]
    # each call whole in one delta, once it is complete: index, id, name and all its arguments
    assert [d.index for d in deltas] == list(range(len(message.tool_calls)))
    for delta, call in zip(deltas, message.tool_calls, strict=True):
        assert delta.id.startswith("call_") and delta.type == "function"
        assert (delta.function.name, delta.function.arguments) == (call.function.name, call.function.arguments)
    assert not any("<tool" in (c.choices[0].delta.content or "") for c in chunks if c.choices)


def test_a_named_function_in_the_responses_api_is_one_call(client):
    tools = [{"type": "function", "name": t["function"]["name"], "parameters": t["function"]["parameters"]} for t in TOOLS]
    reply = client.responses.create(model=MODEL, input=ASK[0]["content"], tools=tools, max_output_tokens=FORCED_TOKENS,
                                    tool_choice={"type": "function", "name": "add"})
    calls = [item for item in reply.output if item.type == "function_call"]
    assert reply.status == "completed" and [c.name for c in calls] == ["add"]
    jsonschema.validate(json.loads(calls[0].arguments), SCHEMAS["add"])


def test_one_call_without_parallel_calls(client):
    for fields in ({}, {"stream": True}):
        if fields:
            final, _ = streamed(client, tool_choice="required", parallel_tool_calls=False, max_tokens=FORCED_TOKENS)
        else:
            final = ask(client, tool_choice="required", parallel_tool_calls=False, max_tokens=FORCED_TOKENS)
        assert final.choices[0].finish_reason == "tool_calls"
        assert len(final.choices[0].message.tool_calls) == 1
        check_call(final.choices[0].message.tool_calls[0])


@pytest.mark.parametrize("limit", [5, 12, 120], ids=["inside-the-tag", "inside-the-first", "inside-the-second"])
def test_a_call_cut_by_max_tokens_never_surfaces(client, limit):
    """``required`` calls cut by ``max_tokens`` (a call is ~80 tokens): only the complete ones come back, in the
    whole response and in the SDK's accumulation of the stream alike; the cut one is named in the figures."""
    whole = ask(client, tool_choice="required", max_tokens=limit)
    final, chunks = streamed(client, tool_choice="required", max_tokens=limit)
    for reply in (whole, final):
        got = reply.choices[0]
        assert got.finish_reason == "length"
        calls = got.message.tool_calls or []
        assert len(calls) == (1 if limit == 120 else 0)
        for call in calls:
            check_call(call)
        assert not got.message.content  # nor is a cut call's text passed off as content
    errors = whole.model_extra["eagle_chat"]["tool_call_errors"]
    assert len(errors) == 1 and f"tool call {len(calls)}" in errors[0] and "withheld: the reply ended inside" in errors[0]
    assert [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason] == ["length"]


def cached_on_the_second_turn(client, block=32):
    """A conversation's second turn (chat, whole and streamed) and a repeated Responses prompt report prompt
    tokens served from the cache: whole KV blocks (32 tokens on CPU), at least the first turn's prompt."""
    first = ask(client, tool_choice="none", max_tokens=20)
    conversation = [*ASK, {"role": "assistant", "content": first.choices[0].message.content or ""},
                    {"role": "user", "content": "And in Rome?"}]
    second = ask(client, messages=conversation, tool_choice="none", max_tokens=20)
    cached = second.usage.prompt_tokens_details.cached_tokens
    assert first.usage.prompt_tokens // block * block <= cached < second.usage.prompt_tokens and cached % block == 0
    chunks = list(client.chat.completions.create(model=MODEL, messages=conversation, tools=TOOLS, tool_choice="none",
                                                 max_tokens=20, stream=True, stream_options={"include_usage": True}))
    assert chunks[-1].usage.prompt_tokens_details.cached_tokens >= cached
    ask_twice = {"model": MODEL, "instructions": "You answer questions about the weather, briefly. " * 6,
                 "input": "What is the weather in Paris?", "max_output_tokens": 16}
    client.responses.create(**ask_twice)
    again = client.responses.create(**ask_twice)
    assert again.usage.input_tokens_details.cached_tokens >= block


def test_cached_tokens_on_the_second_turn(client):
    cached_on_the_second_turn(client)


@pytest.mark.parametrize("choice", ["auto", "none"])
def test_auto_and_none_give_well_formed_replies(client, choice):
    final, chunks = streamed(client, tool_choice=choice, max_tokens=60)
    last = next(c for c in chunks if c.choices and c.choices[0].finish_reason)
    final.model_extra["eagle_chat"] = last.model_extra["eagle_chat"]  # the figures ride on the finish chunk
    for reply in (ask(client, tool_choice=choice, max_tokens=60), final):
        got = reply.choices[0]
        assert got.finish_reason in (("stop", "length", "tool_calls") if choice == "auto" else ("stop", "length"))
        if choice == "none" or got.finish_reason != "tool_calls":
            assert not got.message.tool_calls and isinstance(got.message.content, str)
        for call in got.message.tool_calls or []:
            assert call.id.startswith("call_")
        assert reply.model_extra["eagle_chat"]["grammar"] is None  # auto generates freely: drafting as in chat


def test_a_round_trip_call_result_answer(client, spec_engine):
    call = ask(client, tool_choice={"type": "function", "function": {"name": "get_weather"}}).choices[0].message
    check_call(call.tool_calls[0], "get_weather")
    conversation = [*ASK, call.model_dump(exclude_none=True),
                    {"role": "tool", "tool_call_id": call.tool_calls[0].id, "content": "Sunny, 24 C."}]
    answer = ask(client, messages=conversation, tool_choice="none", max_tokens=40)
    assert answer.choices[0].finish_reason in ("stop", "length") and isinstance(answer.choices[0].message.content, str)
    # The server rendered the exchange with the model's template and the tools: GenAI's own rendering of it
    # (no app code in between) has the same number of tokens.
    import openvino_genai as ov_genai

    text = spec_engine.tokenizer.apply_chat_template(ov_genai.ChatHistory(conversation), add_generation_prompt=True,
                                                     tools=TOOLS)
    assert "<tools>\n" in text and "<tool_response>\nSunny, 24 C.\n</tool_response>" in text
    assert answer.usage.prompt_tokens == spec_engine.count_tokens(text)


def test_json_schema_output_validates_streamed_and_not(client):
    fmt = {"type": "json_schema", "json_schema": {"name": "answer", "schema": ANSWER_SCHEMA, "strict": True}}
    whole = ask(client, tools=openai.NOT_GIVEN, response_format=fmt)
    assert whole.choices[0].finish_reason == "stop"
    jsonschema.validate(json.loads(whole.choices[0].message.content), ANSWER_SCHEMA)
    figures = whole.model_extra["eagle_chat"]
    assert figures["grammar"] == "json_schema" and figures["schema_valid"] is True
    final, _ = streamed(client, tools=openai.NOT_GIVEN, response_format=fmt)
    assert final.choices[0].message.content == whole.choices[0].message.content
    obj = ask(client, tools=openai.NOT_GIVEN, response_format={"type": "json_object"})
    assert isinstance(json.loads(obj.choices[0].message.content), dict)


@pytest.mark.parametrize("fields, param", [
    ({"tools": [{"type": "function", "function": {"name": "bad name"}}]}, "tools[0].function.name"),
    ({"tools": [{"type": "retrieval"}]}, "tools[0]"),
    ({"tool_choice": {"type": "function", "function": {"name": "nope"}}}, "tool_choice"),
    ({"tools": openai.NOT_GIVEN, "tool_choice": "required"}, "tool_choice"),
    ({"tool_choice": "required", "response_format": {"type": "json_object"}}, "response_format"),
    ({"tools": openai.NOT_GIVEN, "response_format": {"type": "json_schema", "json_schema": {
        "name": "x", "schema": {"not": {"type": "string"}}}}}, "response_format.json_schema.schema"),
    ({"tools": openai.NOT_GIVEN, "response_format": {"type": "json_schema", "json_schema": {
        "name": "x", "schema": {"type": 5}}}}, "response_format.json_schema.schema"),
    ({"messages": [*ASK, {"role": "tool", "content": "x"}]}, "messages[1].tool_call_id"),
])
def test_bad_tool_fields_are_400s_naming_the_field(client, fields, param):
    with pytest.raises(openai.BadRequestError) as caught:
        ask(client, **fields)
    assert caught.value.body["param"] == param


def test_models_advertise_tools_and_the_context_budget(client, spec_engine):
    model = client.models.list().data[0].model_extra
    limits = spec_engine.context_limits
    assert model["context_length"] == model["max_model_len"] == limits.context - limits.margin
    assert model["capabilities"]["tools"] is True and model["capabilities"]["reasoning"] is True
    assert model["eagle_chat"]["draft_reduced_vocabulary"] is False


def test_a_template_without_tools_gets_a_clear_400(tmp_path):
    """A copy of the tiny target with the template it had before its tools branch."""
    target = shutil.copytree(TINY_TARGET, tmp_path / "no-tools")
    template = ("{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + "
                "'<|im_end|>\\n' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
                "{%- endif %}")
    config = json.loads((target / "tokenizer_config.json").read_text(encoding="utf-8"))
    (target / "tokenizer_config.json").write_text(json.dumps({**config, "chat_template": template}), encoding="utf-8")
    for name in ("openvino_tokenizer.xml", "openvino_detokenizer.xml"):
        xml = (target / name).read_text(encoding="utf-8")
        value = template.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
        (target / name).write_text(re.sub(r'<chat_template value="[^"]*" />', lambda _: f'<chat_template value="{value}" />',
                                          xml), encoding="utf-8")
    with serve(tmp_path / "home", model=target, draft=False) as server, \
            openai.OpenAI(base_url=server.url, api_key=API_KEY, max_retries=0, timeout=120) as client:
        model = client.models.list().data[0]
        assert model.model_extra["capabilities"]["tools"] is False
        for fields in ({}, {"tools": openai.NOT_GIVEN, "messages": [*ASK, {"role": "assistant", "content": None,
                        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "add", "arguments": "{}"}}]},
                        {"role": "tool", "tool_call_id": "c1", "content": "3"}]}):
            with pytest.raises(openai.BadRequestError) as caught:
                client.chat.completions.create(**{"model": model.id, "messages": ASK, "tools": TOOLS, **fields})
            assert caught.value.body["code"] == "tools_unsupported"
            assert "chat template cannot take tools" in caught.value.body["message"]
        plain = client.chat.completions.create(model=model.id, messages=ASK, max_tokens=8)  # without tools: served
        assert plain.choices[0].finish_reason in ("stop", "length")


def test_a_grammar_on_the_d2t_pair_is_served_without_drafting_and_the_log_says_so(tmp_path):
    """The committed reduced-vocabulary pair (tests/models/d2t): a forced call and a JSON reply are decoded
    without drafting (GenAI 2026.4.1 aborts otherwise), the response says so, and so does the request log's line
    (the window's API request log and serve's console); a reply without a grammar drafts."""
    d2t = TINY_TARGET.parent / "d2t"
    with serve(tmp_path / "home", "--draft", str(d2t / "tiny-qwen3-eagle3"), model=d2t / "tiny-qwen3", draft=False) \
            as server, openai.OpenAI(base_url=server.url, api_key=API_KEY, max_retries=0, timeout=120) as client:
        forced = ask(client, tool_choice="required", parallel_tool_calls=False)
        check_call(forced.choices[0].message.tool_calls[0])
        named = ask(client, tool_choice=NAMED, max_tokens=FORCED_TOKENS)  # named: exactly one call on this pair too
        assert named.choices[0].finish_reason == "tool_calls" and len(named.choices[0].message.tool_calls) == 1
        check_call(named.choices[0].message.tool_calls[0], "add")
        cached_on_the_second_turn(client)
        as_json = client.chat.completions.create(model=MODEL, messages=ASK, max_tokens=60,
                                                 response_format={"type": "json_object"})
        free = client.chat.completions.create(model=MODEL, messages=ASK, max_tokens=30)
        for reply, grammar in ((forced, "tool_call"), (as_json, "json_object")):
            figures = reply.model_extra["eagle_chat"]
            assert (figures["grammar"], figures["drafting_limited_by_grammar"], figures["mode"]) == (grammar, True, "baseline")
        assert free.model_extra["eagle_chat"]["mode"] == "speculative"
        log = server.log_path.read_text(encoding="utf-8")
        for grammar in ("tool_call", "json_object"):
            assert f"{grammar} grammar: drafting off (reduced-vocabulary draft)" in log, log[-2000:]
        assert log.count("grammar") == 3  # the two forced calls and the JSON reply; the free replies' lines name none
