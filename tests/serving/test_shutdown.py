"""Shutdown tells the truth: past the --grace deadline the reply in flight is cut and says so (finish_reason
"length", eagle_chat.cut "shutdown" — never "stop", which reads as a complete answer), streamed or not, and
a request still waiting gets 503 with Retry-After, so SDKs retry it (it used to be 400)."""

from __future__ import annotations

import json
import threading

import httpx
import pytest

from tests.helpers.polling import wait_until
from tests.serving.served import serve, stop

pytestmark = pytest.mark.slow
LONG = {"model": "tiny-qwen3", "max_tokens": 1500,
        "messages": [{"role": "user", "content": "Write a Python function that reverses a string."}]}


def ask(base: str, stream: bool, results: dict, name: str, first_text: threading.Event) -> None:
    body = {**LONG, "stream": stream, **({"stream_options": {"include_usage": True}} if stream else {})}
    with httpx.Client(base_url=base, timeout=120) as client:
        if not stream:
            response = client.post("/chat/completions", json=body)
            results[name] = (response.status_code, dict(response.headers), response.json())
            return
        with client.stream("POST", "/chat/completions", json=body) as response:
            if response.status_code != 200:  # refused before the stream began: an error in JSON
                response.read()
                results[name] = (response.status_code, dict(response.headers), response.json())
                return
            events = []
            for line in response.iter_lines():
                if line.startswith("data: {"):
                    events.append(json.loads(line.removeprefix("data: ")))
                    first_text.set()
        results[name] = (response.status_code, dict(response.headers), events)


@pytest.mark.parametrize("running_streams", [True, False], ids=["stream_cut", "plain_cut"])
def test_past_the_deadline_a_cut_reply_says_so_and_a_waiting_one_gets_503(tmp_path, running_streams):
    results: dict[str, tuple] = {}
    streamed = threading.Event()
    with serve(tmp_path, "--grace", "0", api_key=None) as served:
        health = served.url.removesuffix("/v1") + "/health"
        running = threading.Thread(target=ask, args=(served.url, running_streams, results, "running", streamed))
        running.start()
        wait_until(lambda: httpx.get(health).json()["running"])
        if running_streams:
            assert streamed.wait(60)  # text is flowing: the reply is well under way
        waiting = threading.Thread(target=ask, args=(served.url, not running_streams, results, "waiting",
                                                     threading.Event()))
        waiting.start()
        wait_until(lambda: httpx.get(health).json()["queued"] == 1)
        assert stop(served, timeout=120) == 0
        running.join(timeout=60)
        waiting.join(timeout=60)
        records = served.records()

    status, _headers, answer = results["running"]
    assert status == 200, answer
    if running_streams:
        final = next(e for e in answer if e["choices"] and e["choices"][0]["finish_reason"])
        usage = answer[-1]["usage"]
    else:
        final, usage = answer, answer["usage"]
    assert final["choices"][0]["finish_reason"] == "length", final
    assert final["eagle_chat"]["cut"] == "shutdown" and final["eagle_chat"]["stopped"] is True, final["eagle_chat"]
    assert 0 < usage["completion_tokens"] < LONG["max_tokens"], usage  # cut, not run to max_tokens

    status, headers, error = results["waiting"]
    assert status == 503, error
    assert headers["retry-after"] == "5"
    assert error["error"]["code"] == "shutting_down" and "retry" in error["error"]["message"], error

    assert any("200" in r and "cut_by_shutdown" in r for r in records), records
    assert any("503" in r and "shutting_down" in r for r in records), records
