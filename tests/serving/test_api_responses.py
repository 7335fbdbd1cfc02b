"""`/v1/responses` (stateless) through `eagle-chat serve` on the tiny EAGLE-3 pair, with the official `openai` SDK.

Greedy decoding makes the checks exact: a Responses request must give what the chat completion it amounts to gives
(the same prompt tokens, the same text), streamed or not.
"""

from __future__ import annotations

import json

import jsonschema
import openai
import pytest

from tests.serving.served import serve
from tests.serving.test_api_tools import ANSWER_SCHEMA, MODEL

pytestmark = pytest.mark.slow
TOOLS = [{"type": "function", "name": "get_weather", "description": "The weather in a city.", "strict": True,
          "parameters": {"type": "object", "properties": {"city": {"type": "string", "enum": ["Paris", "Rome"]}},
                         "required": ["city"], "additionalProperties": False}}]
CHAT_TOOLS = [{"type": "function", "function": {k: v for k, v in TOOLS[0].items() if k != "type"}}]
FORMAT = {"type": "json_schema", "name": "answer", "schema": ANSWER_SCHEMA, "strict": True}
ASK = "What is the weather in Paris?"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Prefilling as soon as a reply ends (``--prefill-idle-ms 0``): the round trip below checks its next
    turn was prefilled, and sends it at once (see test_api_agent_turns)."""
    with serve(tmp_path_factory.mktemp("served-responses"), "--prefill-idle-ms", "0") as server:
        yield server


def test_a_text_round_trip_is_the_chat_completions_reply_with_reasoning_apart(client):
    response = client.responses.create(model=MODEL, instructions="Answer briefly.", store=False, max_output_tokens=40,
                                       input=[{"role": "user", "content": [{"type": "input_text", "text": ASK}]}])
    chat = client.chat.completions.create(model=MODEL, max_tokens=40, messages=[
        {"role": "system", "content": "Answer briefly."}, {"role": "user", "content": ASK}])
    message = chat.choices[0].message
    assert response.object == "response" and response.id.startswith("resp_")
    assert response.status == ("incomplete" if chat.choices[0].finish_reason == "length" else "completed")
    assert response.output_text == message.content
    assert response.usage.input_tokens == chat.usage.prompt_tokens
    assert response.usage.output_tokens == chat.usage.completion_tokens
    reasoning = [item for item in response.output if item.type == "reasoning"]
    assert reasoning and reasoning[0].content[0].text == message.model_extra["reasoning_content"]
    assert response.output[-1].type == "message" and response.model_extra["store"] is False
    assert response.model_extra["eagle_chat"]["mode"] == "speculative"


def test_streamed_events_assemble_into_the_same_response(client):
    whole = client.responses.create(model=MODEL, input=ASK, text={"format": FORMAT}, max_output_tokens=200)
    assert whole.status == "completed"
    jsonschema.validate(json.loads(whole.output_text), ANSWER_SCHEMA)
    with client.responses.stream(model=MODEL, input=ASK, text={"format": FORMAT}, max_output_tokens=200) as stream:
        events = list(stream)
        final = stream.get_final_response()  # the SDK's own accumulation of the events
    assert final.output_text == whole.output_text
    kinds = [e.type for e in events]
    assert kinds[:3] == ["response.created", "response.in_progress", "response.output_item.added"]
    assert kinds[-1] == "response.completed" and "response.output_text.delta" in kinds
    assert kinds.count("response.output_item.added") == kinds.count("response.output_item.done") == len(final.output)
    assert [e.sequence_number for e in events] == list(range(len(events)))
    deltas = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert deltas == final.output_text
    assert final.model_extra["eagle_chat"]["grammar"] == "json_schema"


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_function_call_round_trip(client, stream):
    fields = dict(model=MODEL, input=ASK, tools=TOOLS, tool_choice={"type": "function", "name": "get_weather"},
                  parallel_tool_calls=False, max_output_tokens=200)
    if stream:
        with client.responses.stream(**fields) as events:
            kinds = [e.type for e in events]
            response = events.get_final_response()
        assert "response.function_call_arguments.delta" in kinds and "response.function_call_arguments.done" in kinds
    else:
        response = client.responses.create(**fields)
    calls = [item for item in response.output if item.type == "function_call"]
    assert response.status == "completed" and len(calls) == 1
    call = calls[0]
    assert call.name == "get_weather" and call.call_id.startswith("call_") and call.status == "completed"
    jsonschema.validate(json.loads(call.arguments), TOOLS[0]["parameters"])

    history = [{"role": "user", "content": ASK}, call.model_dump(exclude_none=True),
               {"type": "function_call_output", "call_id": call.call_id, "output": "Sunny, 24 C."}]
    answer = client.responses.create(model=MODEL, input=history, tools=TOOLS, tool_choice="none", max_output_tokens=30)
    assert answer.status in ("completed", "incomplete") and isinstance(answer.output_text, str)
    assert not [item for item in answer.output if item.type == "function_call"]
    # The same exchange as chat completions renders it: the same prompt, token for token in number.
    chat = client.chat.completions.create(model=MODEL, tools=CHAT_TOOLS, tool_choice="none", max_tokens=30, messages=[
        {"role": "user", "content": ASK},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call.call_id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}]},
        {"role": "tool", "tool_call_id": call.call_id, "content": "Sunny, 24 C."}])
    assert answer.usage.input_tokens == chat.usage.prompt_tokens and answer.output_text == chat.choices[0].message.content
    # The call's reply was prefilled for this next turn (see test_api_agent_turns)
    assert answer.model_extra["eagle_chat"]["prefilled_tokens"] > answer.usage.input_tokens - 25


@pytest.mark.parametrize("fields, param", [
    ({"previous_response_id": "resp_1"}, "previous_response_id"),
    ({"tools": [{"type": "function", "name": "bad name"}]}, "tools[0].name"),
    ({"tools": [{"type": "web_search"}]}, "tools[0]"),
    ({"input": [{"type": "input_image", "image_url": "x"}]}, "input[0].type"),
    ({"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "x"}]}]}, "input[0].content[0]"),
    ({"text": {"format": {"type": "json_schema", "name": "x", "schema": {"type": 5}}}}, "text.format.schema"),
    ({"max_output_tokens": 0}, "max_output_tokens"),
    ({"extra_body": {"frequency_penalty": 1}}, "frequency_penalty"),
])
def test_bad_fields_are_400s_naming_the_responses_field(client, fields, param):
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(**{"model": MODEL, "input": ASK, **fields})
    assert caught.value.body["param"] == param
