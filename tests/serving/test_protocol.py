"""The protocol pieces on their own: request checks, the reasoning split, stop sequences, SSE framing."""

from __future__ import annotations

from dataclasses import replace

import json

import pytest

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.reasoning import ReasoningSplitter, split_reasoning
from eagle_chat.core.serving.errors import ApiError, public_message, server_fault
from eagle_chat.core.serving.requests import Limits, ServedModel, parse_chat, parse_completion
from eagle_chat.core.serving.responses import SSE_DONE, sse
from eagle_chat.core.serving.stops import StopScanner

MODEL = ServedModel(id="m", has_draft=True, device="CPU")
PLAIN = ServedModel(id="m", has_draft=False, device="CPU")
USER = [{"role": "user", "content": "hi"}]


def chat(**fields):
    return parse_chat({"model": "m", "messages": USER, **fields}, MODEL, Limits(max_tokens=100))


def refused(body, model=MODEL) -> ApiError:
    with pytest.raises(ApiError) as caught:
        parse_chat(body, model, Limits())
    return caught.value


def test_a_plain_request_gets_greedy_settings_and_the_cap():
    request = chat()
    assert (request.max_tokens, request.stream, request.stop, request.sampling) == (100, False, (), False)
    settings = request.settings(GenerationSettings(num_assistant_tokens=4), has_draft=True)
    assert settings.speculative and settings.num_assistant_tokens == 4 and not settings.do_sample
    assert chat(max_tokens=10_000).max_tokens == 100  # capped, not refused
    assert chat(max_completion_tokens=7, max_tokens=9).max_tokens == 7


def test_extensions_set_k_and_thinking():
    request = chat(num_assistant_tokens=0, chat_template_kwargs={"enable_thinking": False})
    settings = request.settings(GenerationSettings(), has_draft=True)
    assert not settings.speculative and settings.thinking is False
    assert chat(num_assistant_tokens=7).settings(GenerationSettings(tree_depth=3, branching_factor=2), True).tree_depth == 0
    assert chat(reasoning_effort="none").thinking is False and chat(reasoning_effort="xhigh").thinking is True


@pytest.mark.parametrize("body, param", [
    ({"model": "m", "messages": USER, "frobnicate": 1}, "frobnicate"),
    ({"model": "m", "messages": []}, "messages"),
    ({"model": "m", "messages": [{"role": "tool", "content": "x"}]}, "messages[0].tool_call_id"),
    ({"model": "m", "messages": [{"role": "function", "content": "x"}]}, "messages[0].role"),
    ({"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, "messages[0].content[0]"),
    ({"model": "m", "messages": USER, "n": 3}, "n"),
    ({"model": "m", "messages": USER, "max_tokens": 0}, "max_tokens"),
    ({"model": "m", "messages": USER, "max_tokens": True}, "max_tokens"),
    ({"model": "m", "messages": USER, "temperature": 3}, "temperature"),
    ({"model": "m", "messages": USER, "stop": ["a", "b", "c", "d", "e"]}, "stop"),
    ({"model": "m", "messages": USER, "tools": [{"type": "function"}]}, "tools[0].function"),
    ({"model": "m", "messages": USER, "tools": [{"type": "function", "function": {"name": "f"}}]}, "tools"),
    ({"model": "m", "messages": USER, "num_assistant_tokens": 99}, "num_assistant_tokens"),
    ({"model": "m", "messages": USER, "temperature": 0.8}, "temperature"),
    ({"model": "m", "messages": USER, "seed": "42"}, "seed"),
    ({"model": "m", "messages": USER, "seed": 4.5}, "seed"),
    ({"messages": USER}, "model"),
])
def test_refusals_name_the_parameter(body, param):
    error = refused(body)
    assert error.status == 400 and error.param == param and error.message


def test_an_unknown_model_is_404_and_sampling_without_a_draft_is_fine():
    assert refused({"model": "other", "messages": USER}).status == 404
    request = parse_chat({"model": "m", "messages": USER, "temperature": 0.8, "top_p": 0.9}, PLAIN, Limits())
    settings = request.settings(GenerationSettings(), has_draft=False)
    assert settings.do_sample and settings.temperature == 0.8 and settings.top_p == 0.9 and settings.seed is None
    seeded = parse_chat({"model": "m", "messages": USER, "temperature": 0.8, "seed": -7}, PLAIN, Limits())
    assert seeded.settings(GenerationSettings(), has_draft=False).seed == -7
    # without a draft prompt lookup still drafts, so K is taken; only where nothing speculates (NPU alone) it is refused
    assert parse_chat({"model": "m", "messages": USER, "num_assistant_tokens": 3}, PLAIN, Limits()).num_assistant_tokens == 3
    npu = replace(PLAIN, device="NPU")
    assert refused({"model": "m", "messages": USER, "num_assistant_tokens": 3}, npu).param == "num_assistant_tokens"


def test_greedy_fallback_from_the_request_or_the_server():
    assert chat(temperature=0.8, greedy_fallback=True).sampling_ignored
    served = parse_chat({"model": "m", "messages": USER, "temperature": 0.8}, MODEL, Limits(greedy_fallback=True))
    assert served.sampling_ignored and not served.sampling
    assert refused({"model": "m", "messages": USER, "temperature": 0.8, "greedy_fallback": False}).status == 400


def test_content_parts_developer_role_and_plain_prompts():
    request = parse_chat({"model": "m", "messages": [
        {"role": "developer", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]}, MODEL, Limits())
    assert request.prompt == ({"role": "system", "content": "be brief"}, {"role": "user", "content": "a\nb"})
    text = parse_completion({"model": "m", "prompt": ["import os\n"]}, MODEL, Limits())
    assert text.prompt == "import os\n" and text.settings(GenerationSettings(), True).chat_template is False
    with pytest.raises(ApiError):
        parse_completion({"model": "m", "prompt": [1, 2, 3]}, MODEL, Limits())


@pytest.mark.parametrize("text, reasoning, content, still_open", [
    ("plain answer", None, "plain answer", False),
    ("<think>\nweigh it\n</think>\n\nthe answer", "weigh it", "the answer", False),
    ("  <think>half way", "half way", "", True),
    ("<think></think>answer", "", "answer", False),
    ("answer with </think> inside", None, "answer with </think> inside", False),
])
def test_split_reasoning(text, reasoning, content, still_open):
    split = split_reasoning(text)
    shown = split.thinking if split.has_thinking else None  # what reasoning_content carries
    assert (shown, split.answer, split.has_thinking and not split.closed) == (reasoning, content, still_open)


def test_split_reasoning_when_the_prompt_opened_the_tag():
    assert split_reasoning("thoughts</think>\nanswer", inside=True).thinking == "thoughts"


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 100])
def test_the_streamed_split_adds_up_to_the_whole_split_whatever_the_chunking(size):
    text = "<think>\nfirst I think </thin about it\n</think>\n\nHere is `code`:\n</think> kept"
    stream = ReasoningSplitter()
    reasoning, content = [], []
    for i in range(0, len(text), size):
        r, c = stream.feed(text[i:i + size])
        reasoning.append(r)
        content.append(c)
    r, c = stream.finish()
    whole = split_reasoning(text)
    assert "".join(reasoning) + r == whole.thinking
    assert "".join(content) + c == whole.answer


@pytest.mark.parametrize("size", [1, 2, 4, 50])
def test_stop_scanner_never_lets_part_of_a_stop_through(size):
    text = "alpha be beta gamma"
    scanner = StopScanner(("beta", "zeta"))
    out = "".join(scanner.feed(text[i:i + size]) for i in range(0, len(text), size)) + scanner.finish()
    assert out == "alpha be " and scanner.hit
    clean = StopScanner(("zzz",))
    assert "".join(clean.feed(p) for p in ("ab", "cz", "z")) + clean.finish() == "abczz" and not clean.hit


def test_sse_framing():
    event = sse({"a": "ü"})
    assert event.startswith(b"data: ") and event.endswith(b"\n\n")
    assert json.loads(event[6:]) == {"a": "ü"}
    assert SSE_DONE == b"data: [DONE]\n\n"


# --- every bad input is a 400 that names its field ----------------------------------------------------------
def nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("fields, param, code", [
    ({"metadata": {"a": nested(40)}}, "metadata.a" + "[0]" * 30, "nested_too_deep"),
    ({"temperature": 10 ** 400}, "temperature", None),
    ({"top_p": -(10 ** 400)}, "top_p", None),
    ({"presence_penalty": 10 ** 400}, "presence_penalty", None),
    ({"frequency_penalty": float("inf")}, "frequency_penalty", None),
    ({"messages": [{"role": ["user"], "content": "x"}]}, "messages[0].role", None),
    ({"messages": [{"role": {"r": 1}, "content": "x"}]}, "messages[0].role", None),
    ({"model": "m\ud800"}, "model", "invalid_text"),
    ({"\ud800": 1}, "\\ud800", "invalid_text"),
    ({"messages": [{"role": "user", "content": "hi \udfff"}]}, "messages[0].content", "invalid_text"),
    ({"messages": [{"role": "user", "content": [{"type": "text", "text": "\ud83d"}]}]},
     "messages[0].content[0].text", "invalid_text"),
    ({"stop": ["ok", "\ud800"]}, "stop[1]", "invalid_text"),
    ({"stream_options": {"include_usage": "yes"}}, "stream_options.include_usage", None),
    ({"chat_template_kwargs": {"enable_thinking": [1]}}, "chat_template_kwargs.enable_thinking", None),
    ({"messages": [{"role": "user", "content": "x", "name": 5}]}, "messages[0].name", None),
    ({"messages": [{"role": "assistant", "content": "x", "tool_calls": [{"id": "1"}]}, *USER]},
     "messages[0].tool_calls[0].function", None),
    ({"n": True}, "n", None),  # true is not 1
    ({"logprobs": 0}, "logprobs", None),  # 0 is not false
    ({"reasoning_effort": ["high"]}, "reasoning_effort", None),
    ({"verbosity": "low"}, "verbosity", None),  # would make the answer shorter at OpenAI: refused, not ignored
    ({"web_search_options": {}}, "web_search_options", None),
    ({"moderation": {"model": "omni-moderation-latest"}}, "moderation", None),
    ({"modalities": ["text", "audio"]}, "modalities", None),
])
def test_bad_values_of_any_type_are_400s_naming_the_field(fields, param, code):
    error = refused({"model": "m", "messages": USER, **fields})
    assert (error.status, error.param, error.code) == (400, param, code), error.message
    assert param.split("[")[0].split(".")[0].replace("\\ud800", "") in error.message or param == "\\ud800"
    json.loads(error.json_bytes())  # the body always encodes, whatever the field held


def test_a_lone_surrogate_in_an_error_message_still_encodes():
    body = json.loads(ApiError(404, "The model 'x\ud800' does not exist here.").json_bytes())
    assert body["error"]["message"] == "The model 'x\ud800' does not exist here."


def test_engine_failures_reach_clients_without_the_machines_paths():
    text = ("Generation failed unexpectedly: Exception from /home/jenkins/agent/workspace/b/repos/openvino.genai/"
            "src/cpp/src/json_container.cpp:97:\nFailed to construct JsonContainer from JSON string")
    message = server_fault(text).message
    assert "/home" not in message and "json_container" not in message
    assert message.startswith("Generation failed") and "Failed to construct JsonContainer" in message
    assert "/work/main" not in public_message("x: /work/main/.venv/lib/python3.11/site-packages/a.py line 3")


# --- lenient with legitimate clients -----------------------------------------------------------------------
def test_current_openai_fields_that_change_nothing_here_are_accepted():
    request = chat(prompt_cache_key="k", safety_identifier="s", user="u", store=False, metadata={"a": "b"},
                   service_tier="auto", prediction={"type": "content", "content": "x"},
                   prompt_cache_retention="24h", prompt_cache_options={"ttl": "30m"}, parallel_tool_calls=False,
                   modalities=["text"], verbosity="medium", tools=[], tool_choice="none", functions=[],
                   stream=True, stream_options={"include_usage": True, "include_obfuscation": False},
                   chat_template_kwargs={"enable_thinking": True})
    assert request.stream and request.include_usage and request.thinking is True
    assert chat(chat_template_kwargs={"enable_thinking": True}).settings(GenerationSettings(), True) == \
        request.settings(GenerationSettings(), True)
    echoed = parse_chat({"model": "m", "messages": [
        {"role": "user", "content": [{"type": "text", "text": "a", "prompt_cache_breakpoint": {"mode": "explicit"}}]},
        {"role": "assistant", "content": None, "refusal": None, "tool_calls": [], "function_call": None,
         "audio": None, "name": "bot"},
        {"role": "user", "content": "b"}]}, MODEL, Limits())
    assert [m["content"] for m in echoed.prompt] == ["a", "", "b"]
    text = parse_completion({"model": "m", "prompt": "x", "user": "u", "prompt_cache_key": "k",
                             "stream_options": {"include_obfuscation": True}}, MODEL, Limits())
    assert text.prompt == "x"


def test_an_unexpected_failure_is_a_500_in_openais_shape_with_no_details():
    from starlette.testclient import TestClient

    from eagle_chat.core.serving.http import ApiState, HttpOptions, build_app

    class Failing:  # a backend with a bug: the HTTP side must not pass its words (or paths) on
        def served_model(self):
            raise RuntimeError("boom in /work/main/.venv/lib/python3.11/site-packages/x.py")

    app = build_app(HttpOptions(), Failing(), ApiState())
    with TestClient(app, raise_server_exceptions=False, base_url="http://127.0.0.1") as client:
        response = client.post("/v1/chat/completions", json={"model": "m", "messages": USER})
    assert response.status_code == 500 and response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert (error["type"], error["code"]) == ("server_error", "internal_error")
    assert "boom" not in error["message"] and "/" not in error["message"]
