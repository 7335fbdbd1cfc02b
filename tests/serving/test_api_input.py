"""What clients send, hostile or merely up to date, against `eagle-chat serve` on the tiny pair.

Bad input of any kind is a 400 in OpenAI's shape naming the field, never a 500 and never a machine path;
current OpenAI fields that change nothing are accepted; a one-token prompt is answered; ``stop`` applies to
the answer, not the reasoning.
"""

from __future__ import annotations

import json

import httpx
import pytest

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.reasoning import split_reasoning
from tests.serving.served import API_KEY

MODEL = "tiny-qwen3"
K = 5
USER = [{"role": "user", "content": "Write a Python function that reverses a string."}]
pytestmark = pytest.mark.slow


@pytest.fixture
def http(served):
    with httpx.Client(base_url=served.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=60) as client:
        yield client


def body(**fields) -> bytes:
    """JSON as a client's encoder writes it: a lone surrogate becomes the escape "\\ud800"."""
    return json.dumps({"model": MODEL, "messages": USER, "max_tokens": 4, **fields}).encode("ascii")


BAD = [
    ("deep_json", "/chat/completions", b'{"model": "tiny-qwen3", "messages": ' + b"[" * 1000 + b"]" * 1000 + b"}",
     None, "nested_too_deep"),
    ("deep_ignored_field", "/chat/completions", body(metadata={"a": json.loads("[" * 100 + "]" * 100)}),
     "metadata.a" + "[0]" * 30, "nested_too_deep"),
    ("huge_temperature", "/chat/completions", body(temperature=10 ** 400), "temperature", None),
    ("huge_top_p", "/chat/completions", body(top_p=10 ** 400), "top_p", None),
    ("huge_penalty", "/chat/completions", body(frequency_penalty=-(10 ** 400)), "frequency_penalty", None),
    ("list_role", "/chat/completions", body(messages=[{"role": ["user"], "content": "x"}]), "messages[0].role", None),
    ("surrogate_model", "/chat/completions", body(model="\ud800"), "model", "invalid_text"),
    ("surrogate_key", "/chat/completions", body(**{"\ud800": 1}), "\\ud800", "invalid_text"),
    ("surrogate_content", "/chat/completions", body(messages=[{"role": "user", "content": "hi \ud800"}]),
     "messages[0].content", "invalid_text"),
    ("surrogate_prompt", "/completions", json.dumps({"model": MODEL, "prompt": "\udc00 x"}).encode(), "prompt",
     "invalid_text"),
    ("string_cache_control", "/chat/completions",
     body(messages=[{"role": "user", "content": "x", "cache_control": "yes"}]), "messages[0].cache_control", None),
    ("bool_n", "/completions", json.dumps({"model": MODEL, "prompt": "x", "best_of": True}).encode(), "best_of", None),
]


@pytest.mark.parametrize("path, raw, param, code", [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_bad_input_is_a_400_naming_the_field_without_machine_paths(http, path, raw, param, code):
    response = http.post(path, content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert (error["param"], error["code"], error["type"]) == (param, code, "invalid_request_error")
    assert "/" not in error["message"].replace("/v1", "") and "site-packages" not in error["message"]
    good = http.post("/chat/completions", content=body(), headers={"content-type": "application/json"})
    assert good.status_code == 200 and good.json()["usage"]["completion_tokens"] > 0


@pytest.mark.parametrize("stream", [False, True])
def test_a_one_token_prompt_is_answered_without_the_draft(client, plain_engine, stream):
    expected = plain_engine.generate("hi", GenerationSettings(max_new_tokens=16, speculative=False, chat_template=False))
    assert expected.stats.input_tokens == 1 and expected.text
    reply = client.completions.create(model=MODEL, prompt="hi", max_tokens=16, stream=stream,
                                      stream_options={"include_usage": True} if stream else None,
                                      extra_body={"num_assistant_tokens": K})
    if stream:
        chunks = list(reply)
        text = "".join(c.choices[0].text for c in chunks if c.choices)
        figures = chunks[-1].model_extra["eagle_chat"]
    else:
        text, figures = reply.choices[0].text, reply.model_extra["eagle_chat"]
    assert text == expected.text
    assert figures["mode"] == "baseline" and figures["draft_tokens"] == 0
    assert "one token" in figures["draft_skipped"]


def test_the_openai_sdk_may_send_every_field_that_changes_nothing(client, spec_engine):
    plain = client.chat.completions.create(model=MODEL, messages=USER, max_tokens=24)
    assert plain.model_extra["eagle_chat"]["draft_skipped"] is None
    for stream in (False, True):
        reply = client.chat.completions.create(
            model=MODEL, messages=USER, max_tokens=24, stream=stream, user="u-1", safety_identifier="hash-1",
            prompt_cache_key="agent-7", prompt_cache_retention="24h", store=False, metadata={"run": "1"},
            service_tier="auto", seed=7, verbosity="medium", parallel_tool_calls=False, modalities=["text"],
            prediction={"type": "content", "content": "def reverse(s):"}, reasoning_effort="high",
            stream_options={"include_usage": True, "include_obfuscation": False} if stream else None)
        if stream:
            content = "".join(c.choices[0].delta.content or "" for c in reply if c.choices)
        else:
            content = reply.choices[0].message.content
        assert content == plain.choices[0].message.content
    text = client.completions.create(model=MODEL, prompt="import os\n", max_tokens=8, user="u", seed=1,
                                     extra_body={"prompt_cache_key": "k", "safety_identifier": "s"})
    assert text.choices[0].text


# The bytes litellm 1.110 and langchain-openai 1.8 send with a prompt-caching mark (captured on the wire;
# litellm's "openai/" provider passes it on, its cache_control_injection_points adds it to a message).
LITELLM_MARKED = (b'{"model":"tiny-qwen3","messages":[{"role":"system","content":"You write Python.",'
                  b'"cache_control":{"type":"ephemeral"}},{"role":"user","content":"Write a Python function that '
                  b'reverses a string."}],"max_tokens":16}')
LANGCHAIN_MARKED = (b'{"model":"tiny-qwen3","stream":false,"messages":[{"content":"You write Python.","role":"system"}'
                    b',{"content":[{"type":"text","text":"Write a Python function that reverses a string.",'
                    b'"cache_control":{"type":"ephemeral"}}],"role":"user"}],"max_completion_tokens":16}')


def test_a_prompt_caching_mark_from_litellm_or_langchain_changes_nothing(http):
    unmarked = http.post("/chat/completions", json={"model": MODEL, "max_tokens": 16, "messages": [
        {"role": "system", "content": "You write Python."}, USER[0]]})
    assert unmarked.status_code == 200, unmarked.text
    for raw, client in ((LITELLM_MARKED, "litellm/1.110.2"), (LANGCHAIN_MARKED, "OpenAI/Python 3.60.0")):
        reply = http.post("/chat/completions", content=raw,
                          headers={"content-type": "application/json", "user-agent": client})
        assert reply.status_code == 200, reply.text
        assert reply.json()["choices"][0]["message"] == unmarked.json()["choices"][0]["message"]
        assert reply.json()["usage"] == unmarked.json()["usage"]


# The bytes langchain-openai 1.8's OpenAI(temperature=0).batch([...]) sends: every prompt in one request.
LANGCHAIN_BATCH = (b'{"model":"tiny-qwen3","prompt":["def reverse(s):","import os\\n"],'
                   b'"frequency_penalty":0,"logprobs":null,"max_tokens":8,"n":1,"presence_penalty":0,"seed":null,'
                   b'"temperature":0.0,"top_p":1}')


def test_a_list_of_prompts_gets_a_choice_per_prompt_as_each_alone_would(http, client):
    alone = [client.completions.create(model=MODEL, prompt=p, max_tokens=8)
             for p in ("def reverse(s):", "import os\n")]
    reply = http.post("/completions", content=LANGCHAIN_BATCH, headers={"content-type": "application/json"})
    assert reply.status_code == 200, reply.text
    choices = reply.json()["choices"]
    assert [(c["index"], c["text"], c["finish_reason"]) for c in choices] == \
        [(i, a.choices[0].text, a.choices[0].finish_reason) for i, a in enumerate(alone)]
    assert all(c["eagle_chat"]["mode"] == "speculative" for c in choices)
    assert reply.json()["usage"]["completion_tokens"] == sum(a.usage.completion_tokens for a in alone)
    for fields, param in (({"prompt": ["a b", " "]}, "prompt[1]"), ({"prompt": ["a b"] * 33}, "prompt"),
                          ({"prompt": ["a b", "c d"], "stream": True}, "stream"), ({"prompt": [1, 2]}, "prompt")):
        refused = http.post("/completions", json={"model": MODEL, "max_tokens": 4, **fields})
        assert (refused.status_code, refused.json()["error"]["param"]) == (400, param)


def test_what_would_change_the_answer_is_refused_naming_the_field(client):
    import openai

    for fields, param in (({"verbosity": "low"}, "verbosity"),
                          ({"web_search_options": {}}, "web_search_options"),
                          ({"extra_body": {"moderation": {"model": "omni-moderation-latest"}}}, "moderation")):
        with pytest.raises(openai.BadRequestError) as refused:
            client.chat.completions.create(model=MODEL, messages=USER, max_tokens=4, **fields)
        assert refused.value.body["param"] == param


def test_a_stop_string_applies_to_the_answer_not_the_reasoning(client, spec_engine, prompts):
    conversation = [{"role": "system", "content": "You write Python."}, {"role": "user", "content": prompts[1]}]
    full = split_reasoning(spec_engine.generate(conversation, GenerationSettings(max_new_tokens=64,
                                                                                   num_assistant_tokens=K)).text)
    stop = "Python"
    assert stop in full.thinking and stop in full.answer  # the case that used to empty the answer
    for stream in (False, True):
        reply = client.chat.completions.create(model=MODEL, messages=conversation, max_tokens=64, stop=[stop],
                                               stream=stream, extra_body={"num_assistant_tokens": K})
        if stream:
            chunks = [c for c in reply if c.choices]
            content = "".join(c.choices[0].delta.content or "" for c in chunks)
            reasoning = "".join((c.choices[0].delta.model_extra or {}).get("reasoning_content") or "" for c in chunks)
            finish = chunks[-1].choices[0].finish_reason
        else:
            message = reply.choices[0].message
            content, reasoning = message.content, message.model_extra["reasoning_content"]
            finish = reply.choices[0].finish_reason
        assert reasoning == full.thinking, stream
        assert content == full.answer[: full.answer.index(stop)] and content, stream
        assert finish == "stop"
