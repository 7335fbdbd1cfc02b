"""Other OpenAI clients against a real `eagle-chat serve` on the tiny pair: litellm and langchain-openai.

    python3 -m venv /tmp/clients-venv && /tmp/clients-venv/bin/pip install litellm langchain-openai
    /tmp/clients-venv/bin/python benchmarks/clients_check.py [--python /work/main/.venv/bin/python]

The clients run in their own virtual environment (they are not the project's dependencies); the server runs
with the project's Python (``--python``, default the one in /work/main/.venv). Each check prints PASS or FAIL
with what it got (MODEL: the client took the server's answer, the toy model's content is what did not fit). The tiny pair was never trained on tools, so the calls are forced (``tool_choice``) where the
client lets one force them, and a structured output is whatever the grammar lets the toy model write — what is
checked is that the client accepts and parses the server's answers.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import traceback
from importlib import metadata
from pathlib import Path

from _common import ROOT, start_serve

MODELS = ROOT / "tests" / "models"
KEY = "clients-check-key"
WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "The weather in a city.",
                                            "parameters": {"type": "object", "properties": {
                                                "city": {"type": "string", "enum": ["Paris", "Rome"]}},
                                                "required": ["city"], "additionalProperties": False}}}
ASK = "What is the weather in Paris?"


def start(python: str):
    home = Path(tempfile.mkdtemp(prefix="clients-check-"))
    return start_serve(["--model", str(MODELS / "tiny-qwen3"), "--draft", str(MODELS / "tiny-qwen3-eagle3"),
                        "--precision", "f32"], home, python=python,
                       env={"EAGLE_CHAT_HOME": str(home), "EAGLE_CHAT_API_KEY": KEY, "QT_QPA_PLATFORM": "offscreen"})


def litellm_tools(url: str, model: str) -> str:
    import litellm

    reply = litellm.completion(model=f"openai/{model}", api_base=url, api_key=KEY, messages=[
        {"role": "user", "content": ASK}], tools=[WEATHER], tool_choice="required", max_tokens=200,
        parallel_tool_calls=False)
    call = reply.choices[0].message.tool_calls[0]
    assert call.function.name == "get_weather" and json.loads(call.function.arguments)["city"] in ("Paris", "Rome")
    messages = [{"role": "user", "content": ASK}, reply.choices[0].message.model_dump(exclude_none=True),
                {"role": "tool", "tool_call_id": call.id, "content": "Sunny"}]
    answer = litellm.completion(model=f"openai/{model}", api_base=url, api_key=KEY, messages=messages,
                                tools=[WEATHER], tool_choice="none", max_tokens=20)
    return f"call {call.function.name}({call.function.arguments}); after the result: {answer.choices[0].finish_reason}"


def litellm_stream(url: str, model: str) -> str:
    import litellm

    chunks = list(litellm.completion(model=f"openai/{model}", api_base=url, api_key=KEY, stream=True, messages=[
        {"role": "user", "content": ASK}], tools=[WEATHER], tool_choice="required", max_tokens=200,
        parallel_tool_calls=False))
    whole = litellm.stream_chunk_builder(chunks)
    call = whole.choices[0].message.tool_calls[0]
    assert call.function.name == "get_weather" and json.loads(call.function.arguments)
    return f"streamed call rebuilt by litellm: {call.function.name}({call.function.arguments})"


class ModelLimit(Exception):
    """The client took the server's answer; what the toy model wrote in it is what failed."""


def chat_model(url: str, model: str, **kw):
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(model=model, base_url=url, api_key=KEY, temperature=0, max_tokens=200, max_retries=0, **kw)


def langchain_bind_tools(url: str, model: str) -> str:
    from langchain_core.tools import tool

    @tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return "Sunny"

    message = chat_model(url, model).bind_tools([get_weather], tool_choice="get_weather").invoke(ASK)
    call = message.tool_calls[0]
    assert call["name"] == "get_weather" and "city" in call["args"], message
    streamed = None
    for chunk in chat_model(url, model).bind_tools([get_weather], tool_choice="get_weather").stream(ASK):
        streamed = chunk if streamed is None else streamed + chunk
    assert streamed.tool_calls and streamed.tool_calls[0]["name"] == "get_weather", streamed
    return f"{call['name']}({call['args']}), streamed the same: {streamed.tool_calls[0]['args'] == call['args']}"


def langchain_responses_api(url: str, model: str) -> str:
    from langchain_core.tools import tool

    @tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return "Sunny"

    llm = chat_model(url, model, use_responses_api=True)
    text = llm.invoke("Write a Python function.")
    assert isinstance(text.text, str) and text.text, text
    message = llm.bind_tools([get_weather], tool_choice="get_weather", parallel_tool_calls=False).invoke(ASK)
    assert message.tool_calls and message.tool_calls[0]["name"] == "get_weather", message
    return f"text {len(text.text)} chars; call {message.tool_calls[0]['name']}({message.tool_calls[0]['args']})"


def langchain_structured(method: str):
    def check(url: str, model: str) -> str:
        from pydantic import BaseModel, Field

        class Weather(BaseModel):
            """The weather in a city."""

            city: str = Field(description="the city", max_length=12)
            sunny: bool

        llm = chat_model(url, model)
        if method == "json_mode":  # no schema reaches the server: the grammar guarantees a JSON object, no more
            runnable = llm.with_structured_output(Weather, method="json_mode", include_raw=True)
            got = runnable.invoke(f"{ASK} Answer in JSON with keys city and sunny.")
            if got["parsing_error"] is not None:
                content = json.loads(got["raw"].content)  # the server's answer is JSON (this raises if not)
                raise ModelLimit(f"the client parsed the server's JSON {content!r}; the toy model's object lacks the "
                                 f"keys ({type(got['parsing_error']).__name__})")
            got = got["parsed"]
        else:
            got = llm.with_structured_output(Weather, method=method, **({"strict": True} if method == "json_schema"
                                                                          else {})).invoke(ASK)
        assert isinstance(got, Weather), got
        return repr(got)
    return check


CHECKS = {
    "litellm completion with tools (forced call, round trip)": litellm_tools,
    "litellm streamed tool call (stream_chunk_builder)": litellm_stream,
    "langchain-openai bind_tools (invoke and stream)": langchain_bind_tools,
    "langchain-openai use_responses_api (text, bind_tools) on /v1/responses": langchain_responses_api,
    "langchain-openai with_structured_output json_schema": langchain_structured("json_schema"),
    "langchain-openai with_structured_output function_calling": langchain_structured("function_calling"),
    "langchain-openai with_structured_output json_mode": langchain_structured("json_mode"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default="/work/main/.venv/bin/python", help="the project's Python, for serve")
    args = parser.parse_args()
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # litellm fetches a price list from GitHub otherwise
    versions = {name: metadata.version(name) for name in ("openai", "litellm", "langchain-openai", "langchain-core")}
    print("client versions:", ", ".join(f"{k} {v}" for k, v in versions.items()))
    process, url = start(args.python)
    failed = limited = 0
    try:
        import openai

        model = openai.OpenAI(base_url=url, api_key=KEY).models.list().data[0].id
        for name, check in CHECKS.items():
            try:
                print(f"PASS {name}: {check(url, model)}")
            except ModelLimit as limit:
                limited += 1
                print(f"MODEL {name}: {limit}")
            except Exception as error:  # noqa: BLE001 - a report, not a test run
                failed += 1
                print(f"FAIL {name}: {type(error).__name__}: {str(error)[:400]}")
                traceback.print_exc(limit=3, file=sys.stdout)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    print(f"{len(CHECKS) - failed - limited} of {len(CHECKS)} passed, {limited} limited by the toy model, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
