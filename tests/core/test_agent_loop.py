"""The agent loop's rules (core.tools.agent), and the whole loop on the tiny models with a real MCP server:
required mode makes the toy model call a tool, the result goes back as a tool message, the next step runs."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.tools import agent
from eagle_chat.core.tools.config import ServerConfig
from eagle_chat.core.tools.hub import ServerState, ToolHub
from eagle_chat.core.tools.results import ToolResult

TOOLS_SERVER = str(Path(__file__).resolve().parents[1] / "mcp_servers" / "tools_server.py")
ADD = {"name": "add", "description": "Add", "input_schema": {"type": "object", "properties": {
    "a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}}
WEATHER = {"name": "weather", "description": "Weather", "input_schema": {"type": "object", "properties": {
    "city": {"type": "string"}}, "required": ["city"]}}


def state(name, *tools, status="ready", approve=()):
    return ServerState(ServerConfig(name=name, command="x", auto_approve=frozenset(approve)), status=status,
                       tools=list(tools))


def test_offered_tools_skip_servers_not_ready_and_disabled_tools_and_prefix_shared_names():
    tools = agent.offered_tools([state("a", ADD, WEATHER), state("b", ADD), state("c", WEATHER, status="failed")],
                                disabled={("a", "weather")})
    assert [(t.model_name, t.server, t.tool) for t in tools] == [("a__add", "a", "add"), ("b__add", "b", "add")]


def test_the_offer_per_mode_and_step():
    tools = agent.offered_tools([state("a", ADD, WEATHER)])
    assert agent.step_offer("off", 0, tools) == agent.StepOffer(None, None)
    auto = agent.step_offer("auto", 0, tools)
    assert auto.constraint is None and json.loads(auto.tools)[0]["function"]["name"] == "add"
    required = agent.step_offer("required", 0, tools)
    assert required.constraint.kind == "tool_calls" and required.constraint.max_calls == 1
    assert {f["name"] for f in json.loads(required.constraint.schema)} == {"add", "weather"}
    assert agent.step_offer("required", 1, tools).constraint is None, "required applies to the first step only"
    assert agent.step_offer("auto", 0, []) == agent.StepOffer(None, None)


def test_a_parameterless_tool_is_required_with_exactly_empty_arguments():
    hang = {"name": "hang", "description": "", "input_schema": {"type": "object", "properties": {}}}
    offer = agent.step_offer("required", 0, agent.offered_tools([state("a", hang, ADD)]))
    parameters = {f["name"]: f["parameters"] for f in json.loads(offer.constraint.schema)}
    assert parameters == {"hang": {"const": {}}, "add": ADD["input_schema"]}
    assert 'r_1 ::= "{}"' in __import__("eagle_chat.core.generation.structured",
                                         fromlist=["grammar"]).grammar(offer.constraint)


def test_a_reply_with_many_calls_is_capped_and_prose_kept():
    one = '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>'
    reply = agent.read_reply("Let me add.\n" + "\n".join([one] * 7))
    assert reply.content == "Let me add." and len(reply.calls) == agent.MAX_CALLS_PER_STEP and reply.dropped == 3
    assert agent.call_arguments(reply.calls[0]) == {"a": 1, "b": 2}
    assert agent.read_reply("Just an answer.").calls == []


def test_approval_auto_approved_always_and_ask():
    tools = agent.offered_tools([state("a", ADD, WEATHER)])
    add, weather = tools
    book = agent.Approvals()
    assert book.decide(add, auto_approved=False) == agent.ASK
    assert book.decide(add, auto_approved=True) == agent.RUN
    book.allow_always(add)
    assert book.decide(add, auto_approved=False) == agent.RUN
    assert book.decide(weather, auto_approved=False) == agent.ASK


def test_messages_for_the_next_step_and_the_step_limit():
    reply = agent.read_reply('<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>')
    message = agent.assistant_message(reply)
    assert message["tool_calls"][0]["function"] == {"name": "add", "arguments": '{"a": 1, "b": 2}'}
    call = reply.calls[0]
    assert agent.tool_message(call, None)["content"] == agent.DENIED_TEXT
    assert agent.tool_message(call, ToolResult("a", "add", "boom", is_error=True))["content"] == "Error: boom"
    assert agent.tool_message(call, ToolResult("a", "add", "3")) == {"role": "tool", "tool_call_id": call.id,
                                                                      "content": "3"}
    assert not agent.step_limit_reached(agent.MAX_STEPS - 1) and agent.step_limit_reached(agent.MAX_STEPS)


@pytest.mark.slow
def test_required_mode_on_the_tiny_models_calls_a_real_mcp_tool_and_the_next_step_reads_its_result(spec_engine):
    hub = ToolHub([ServerConfig(name="t", command=sys.executable, args=(TOOLS_SERVER,))])
    hub.start()
    try:
        assert hub.wait_started(60)
        tools = [t for t in agent.offered_tools(hub.states()) if t.tool in ("add", "weather")]
        messages = [{"role": "user", "content": "What is the weather in Oslo?"}]
        offer = agent.step_offer("required", 0, tools)
        first = spec_engine.generate(messages, GenerationSettings(max_new_tokens=120, tools=offer.tools,
                                                                  constraint=offer.constraint))
        reply = agent.read_reply(first.text)
        assert len(reply.calls) == 1 and reply.calls[0].error is None, first.text
        tool = agent.find_tool(tools, reply.calls[0].name)
        result = hub.call(tool.server, tool.tool, agent.call_arguments(reply.calls[0])).result(30)
        assert not result.is_error, result.text
        returned = time.monotonic()
        messages += [agent.assistant_message(reply), agent.tool_message(reply.calls[0], result)]
        offer = agent.step_offer("required", 1, tools)
        second = spec_engine.generate(messages, GenerationSettings(max_new_tokens=60, tools=offer.tools))
        prompt = spec_engine.prompt(messages, None, tools=offer.tools).text
        assert f"<tool_response>\n{result.text}\n</tool_response>" in prompt
        print(f"\nstep 1: {first.stats.generated_tokens} tokens (tool call), step 2: "
              f"{second.stats.generated_tokens} tokens; tool result -> step 2 done in "
              f"{time.monotonic() - returned:.3f} s, step 2 TTFT {second.stats.ttft_ms:.1f} ms")
    finally:
        hub.close()


def test_a_call_the_reply_ended_inside_is_never_run():
    one = '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>'
    reply = agent.read_reply(one + '\n<tool_call>\n{"name": "add", "arguments": {"a": 1, "b')
    assert [json.loads(c.arguments) for c in reply.calls] == [{"a": 1, "b": 2}] and reply.cut == 1
    assert agent.read_reply('<tool_call>\n{"name": "ad').calls == [] == agent.read_reply('<tool_call>\n{"name": '
                                                                                         '"add", "arguments": {"a').calls
    bad = agent.read_reply('<tool_call>\n{"name": "add", "arguments": {"a": 1,, }}\n</tool_call>')
    assert len(bad.calls) == 1 and bad.calls[0].error and bad.cut == 0  # whole but not JSON: the model is told
