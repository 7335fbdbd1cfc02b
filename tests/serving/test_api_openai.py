"""The official `openai` client against `eagle-chat serve` on the tiny pair (greedy, f32).

The engine in this process (the same pair, f32) is the reference: what the API returns must be what
the engine writes, and the figures must be the engine's.
"""

from __future__ import annotations

import concurrent.futures
import time

import httpx
import pytest

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.reasoning import split_reasoning
from tests.serving.served import API_KEY

MODEL = "tiny-qwen3"
K = 5
pytestmark = pytest.mark.slow


def engine_reply(engine, prompt, max_tokens: int, **changes):
    return engine.generate(prompt, GenerationSettings(max_new_tokens=max_tokens, num_assistant_tokens=K, **changes))


def messages(text: str) -> list[dict]:
    return [{"role": "system", "content": "You write Python."}, {"role": "user", "content": text}]


def test_models_lists_the_served_pair(client):
    models = client.models.list()
    assert [m.id for m in models.data] == [MODEL]
    assert models.data[0].model_extra["eagle_chat"]["draft"] == "tiny-qwen3-eagle3"


@pytest.mark.parametrize("prompt_index", [0, 2])
def test_chat_completion_is_the_engines_greedy_text(client, spec_engine, prompts, prompt_index):
    conversation = messages(prompts[prompt_index])
    expected = engine_reply(spec_engine, conversation, 48)
    split = split_reasoning(expected.text)

    whole = client.chat.completions.create(model=MODEL, messages=conversation, max_tokens=48,
                                           extra_body={"num_assistant_tokens": K})
    message = whole.choices[0].message
    assert message.content == split.answer
    assert message.model_extra.get("reasoning_content") == (split.thinking if split.has_thinking else None)
    assert whole.choices[0].finish_reason == ("length" if expected.stats.generated_tokens >= 48 else "stop")

    reasoning, content, finish, extra = [], [], None, None
    stream = client.chat.completions.create(model=MODEL, messages=conversation, max_tokens=48, stream=True,
                                            stream_options={"include_usage": True},
                                            extra_body={"num_assistant_tokens": K})
    for chunk in stream:
        if chunk.choices:
            delta = chunk.choices[0].delta
            reasoning.append((delta.model_extra or {}).get("reasoning_content") or "")
            content.append(delta.content or "")
            finish = chunk.choices[0].finish_reason or finish
        else:
            extra = chunk
    assert "".join(content) == split.answer
    assert "".join(reasoning) == split.thinking
    assert finish == whole.choices[0].finish_reason

    # usage and the speculative figures: present, and the engine's
    stats = expected.stats
    for usage, figures in ((whole.usage, whole.model_extra["eagle_chat"]),
                           (extra.usage, extra.model_extra["eagle_chat"])):
        assert (usage.prompt_tokens, usage.completion_tokens) == (stats.input_tokens, stats.generated_tokens)
        assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens
        assert figures["mode"] == "speculative" and figures["num_assistant_tokens"] == K
        assert (figures["accepted_tokens"], figures["draft_tokens"]) == (stats.accepted_tokens, stats.draft_tokens)
        assert figures["tokens_per_step"] == pytest.approx(stats.tokens_per_step, abs=1e-3)
        assert figures["tokens_per_s"] > 0 and figures["ttft_ms"] > 0
    timings = whole.model_extra["timings"]
    assert (timings["draft_n"], timings["draft_n_accepted"]) == (stats.draft_tokens, stats.accepted_tokens)
    assert timings["predicted_n"] == stats.generated_tokens


RAW_PROMPT = "import os\n"  # the tiny target continues Python source


def test_plain_completion_skips_the_chat_template(client, spec_engine):
    prompt = RAW_PROMPT
    expected = engine_reply(spec_engine, prompt, 32, chat_template=False)
    assert expected.text.strip()
    reply = client.completions.create(model=MODEL, prompt=prompt, max_tokens=32,
                                      extra_body={"num_assistant_tokens": K})
    assert reply.choices[0].text == expected.text
    assert reply.usage.completion_tokens == expected.stats.generated_tokens
    templated = engine_reply(spec_engine, prompt, 32)
    assert templated.text != expected.text  # the endpoint really sends the raw prompt


def test_zero_draft_tokens_is_plain_decoding_with_the_same_text(client, plain_engine, prompts):
    conversation = messages(prompts[3])
    expected = plain_engine.generate(conversation, GenerationSettings(max_new_tokens=40, speculative=False))
    reply = client.chat.completions.create(model=MODEL, messages=conversation, max_tokens=40,
                                           extra_body={"num_assistant_tokens": 0})
    figures = reply.model_extra["eagle_chat"]
    assert figures["mode"] == "baseline" and figures["draft_tokens"] == 0
    split = split_reasoning(expected.text)
    assert (reply.choices[0].message.content, reply.choices[0].message.model_extra.get("reasoning_content")) == (
        split.answer, split.thinking if split.has_thinking else None)


def test_stop_sequence_ends_the_reply_before_it(client, spec_engine):
    prompt = RAW_PROMPT
    # A long budget the unstopped reply fills: the stop reaches the engine host over a pipe while the tiny target
    # decodes a token in well under a millisecond, so 64 tokens could all be out before it arrived (seen once in
    # a loaded full run); 256 leave the engine ample time to be stopped, and a stop never sent still fails.
    budget = 256
    whole = engine_reply(spec_engine, prompt, budget, chat_template=False)
    assert whole.stats.generated_tokens == budget
    full = whole.text
    stop_at = full.split()[3]  # the reply's fourth word
    assert full.index(stop_at) > 0
    for stream in (False, True):
        reply = client.completions.create(model=MODEL, prompt=prompt, max_tokens=budget, stop=[stop_at], stream=stream,
                                          stream_options={"include_usage": True} if stream else None,
                                          extra_body={"num_assistant_tokens": K})
        if stream:
            chunks = list(reply)
            text = "".join(c.choices[0].text for c in chunks if c.choices)
            finish = [c.choices[0].finish_reason for c in chunks if c.choices][-1]
            usage = chunks[-1].usage
        else:
            text, finish, usage = reply.choices[0].text, reply.choices[0].finish_reason, reply.usage
        assert text == full[: full.index(stop_at)]
        assert finish == "stop"
        assert usage.completion_tokens < budget  # the engine was stopped, not run to max_tokens


def test_sampling_with_a_draft_is_refused_or_served_greedily(client, spec_engine, prompts):
    import openai

    conversation = messages(prompts[4])
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model=MODEL, messages=conversation, max_tokens=16, temperature=0.7)
    error = refused.value.body
    assert refused.value.status_code == 400 and error["code"] == "sampling_unsupported_with_draft"
    assert "greedily" in error["message"] and error["param"] == "temperature"

    served = client.chat.completions.create(model=MODEL, messages=conversation, max_tokens=16, temperature=0.7,
                                            extra_body={"greedy_fallback": True, "num_assistant_tokens": K})
    assert served.model_extra["eagle_chat"]["sampling"].startswith("greedy")
    assert served.choices[0].message.content == split_reasoning(engine_reply(spec_engine, conversation, 16).text).answer


def test_eight_concurrent_clients_are_all_answered_in_turn(served, spec_engine, prompts):
    import openai

    asks = [prompts[i % len(prompts)] for i in range(8)]
    expected = [split_reasoning(engine_reply(spec_engine, messages(p), 32).text) for p in asks]

    def ask(index: int):
        with openai.OpenAI(base_url=served.url, api_key=API_KEY, max_retries=0, timeout=120) as client:
            kwargs = dict(model=MODEL, messages=messages(asks[index]), max_tokens=32,
                          extra_body={"num_assistant_tokens": K})
            if index % 2:
                parts = [c.choices[0].delta.content or "" for c in
                         client.chat.completions.create(stream=True, **kwargs) if c.choices]
                return "".join(parts), None
            reply = client.chat.completions.create(**kwargs)
            return reply.choices[0].message.content, reply.model_extra["eagle_chat"]["queue_ms"]

    before = len(served.records())
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(ask, range(8)))
    assert [a for a, _ in answers] == [e.answer for e in expected]
    waits = [q for _, q in answers if q is not None]
    assert max(waits) > 0.0
    deadline = time.monotonic() + 10
    while len(served.records()) < before + 8 and time.monotonic() < deadline:
        time.sleep(0.05)
    new = served.records()[before:]
    assert len(new) == 8 and all(" 200" in line for line in new), new


def test_client_disconnect_stops_generation_within_a_step(served, prompts):
    headers = {"Authorization": f"Bearer {API_KEY}"}
    long_request = {"model": MODEL, "messages": messages(prompts[0]), "max_tokens": 4000, "stream": True}
    before = len(served.records())
    with httpx.Client(base_url=served.url, headers=headers, timeout=60) as http:
        with http.stream("POST", "/chat/completions", json=long_request) as response:
            assert response.status_code == 200
            lines = response.iter_lines()
            for _ in range(6):  # a few chunks in: generation is under way
                next(line for line in lines if line.startswith("data:"))
        # the connection is closed here; the next request must not wait for the 4,000 tokens
        started = time.perf_counter()
        reply = http.post("/chat/completions", json={"model": MODEL, "messages": messages(prompts[2]),
                                                     "max_tokens": 8}).json()
        elapsed_ms = (time.perf_counter() - started) * 1000
    queue_ms = reply["eagle_chat"]["queue_ms"]
    # 4,000 tokens take seconds on the tiny pair (about 300-900 tokens/s here); a step takes milliseconds
    assert queue_ms < 1000, (queue_ms, elapsed_ms)
    deadline = time.monotonic() + 10
    while len(served.records()) < before + 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    first = served.records()[before]
    assert "disconnected" in first, first
    produced = int(first.split("+")[1].split()[0])
    assert produced < 4000, first
