"""An agent's next step finds its prompt prefilled: after each chat reply the server runs the conversation (the
request's messages and the reply as the client sends it back) through the model for its likely next turn.

The observable is ``eagle_chat.prefilled_tokens``: how many of a request's first prompt tokens the prefill just
before it had run — token ids, not timings, so it holds on a loaded machine. (TTFT per step is what
``benchmarks/agent_loop.py`` measures.)
"""

from __future__ import annotations

import pytest

from tests.serving.served import API_KEY, serve
from tests.serving.test_api_tools import ASK, MODEL, TOOLS

pytestmark = pytest.mark.slow
RESULT = "Sunny, 24 C."
# What a step adds after the prefilled part: the tool result's (or user message's) text, the end of its turn and
# the generation prompt — a dozen tokens on the tiny pair's tokenizer, far fewer than the history.
NEW_TOKENS = 25


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server prefills a conversation as soon as a reply ends (``--prefill-idle-ms 0``): these tests send
    the next step at once, as an agent whose tool answers instantly does (by default the server then skips
    the prefill: test_a_step_sent_at_once_is_not_made_to_wait_for_a_prefill)."""
    with serve(tmp_path_factory.mktemp("served-prefill"), "--prefill-idle-ms", "0") as server:
        yield server


def call_then_result(client, **fields):
    """A forced call (streamed: the streamed path queues the prefill too), then the tool result sent back."""
    from openai.lib.streaming.chat import ChatCompletionStreamState

    state = ChatCompletionStreamState()
    for chunk in client.chat.completions.create(model=MODEL, messages=ASK, tools=TOOLS, tool_choice="required",
                                                parallel_tool_calls=False, max_tokens=200, stream=True, **fields):
        state.handle_chunk(chunk)
    call = state.current_completion_snapshot.choices[0].message
    messages = [*ASK, call.model_dump(exclude_none=True),
                {"role": "tool", "tool_call_id": call.tool_calls[0].id, "content": RESULT}]
    return messages, client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS, max_tokens=20)


def test_each_next_step_was_prefilled_after_a_call_and_after_prose(client):
    first = client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "Hello there"}],
                                           max_tokens=8)
    assert first.model_extra["eagle_chat"]["prefilled_tokens"] == 0  # nothing before it rendered this conversation

    messages, after_call = call_then_result(client)
    prompt, prefilled = after_call.usage.prompt_tokens, after_call.model_extra["eagle_chat"]["prefilled_tokens"]
    assert prompt - NEW_TOKENS < prefilled < prompt  # all but the tool result and the generation prompt

    reply = after_call.choices[0].message
    assert not reply.tool_calls  # prose: the next message is the user's
    messages += [reply.model_dump(exclude_none=True), {"role": "user", "content": "And in Rome?"}]
    after_prose = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS, max_tokens=8)
    prompt, prefilled = after_prose.usage.prompt_tokens, after_prose.model_extra["eagle_chat"]["prefilled_tokens"]
    assert prompt - NEW_TOKENS < prefilled < prompt


def test_no_prefill_turns_it_off(tmp_path):
    import openai

    with serve(tmp_path / "home", "--no-prefill") as server, \
            openai.OpenAI(base_url=server.url, api_key=API_KEY, max_retries=0, timeout=120) as client:
        _, after_call = call_then_result(client)
    assert after_call.model_extra["eagle_chat"]["prefilled_tokens"] == 0


def test_a_step_sent_at_once_is_not_made_to_wait_for_a_prefill_and_a_slow_tool_gets_one(tmp_path):
    """By default the server prefills only once it has been idle a moment after a reply: an agent whose tool
    answers at once would otherwise wait behind a prefill Stop cannot cut. Here the idle time is 1 s."""
    import time

    import openai

    with serve(tmp_path / "home", "--prefill-idle-ms", "1000") as server, \
            openai.OpenAI(base_url=server.url, api_key=API_KEY, max_retries=0, timeout=120) as client:
        messages, at_once = call_then_result(client)  # the tool result sent straight after the call
        assert at_once.model_extra["eagle_chat"]["prefilled_tokens"] == 0
        messages += [at_once.choices[0].message.model_dump(exclude_none=True),
                     {"role": "user", "content": "And in Rome?"}]
        time.sleep(3)  # a tool (or a person) taking its time: the server is idle, so it prefills
        later = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS, max_tokens=8)
    prompt, prefilled = later.usage.prompt_tokens, later.model_extra["eagle_chat"]["prefilled_tokens"]
    assert prompt - NEW_TOKENS < prefilled < prompt
