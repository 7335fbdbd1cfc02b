"""Refusals: each gets the right status and an OpenAI-shaped error, and the server goes on serving."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading

import httpx
import pytest

from tests.helpers.polling import wait_until
from tests.serving.served import API_KEY, ROOT, serve

MODEL = "tiny-qwen3"
GOOD = {"model": MODEL, "messages": [{"role": "user", "content": "Write a Python function that reverses a string."}],
        "max_tokens": 8}
pytestmark = pytest.mark.slow


def assert_openai_error(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["code"] == code and error["message"] and error["type"]
    return error


def still_serving(http: httpx.Client) -> None:
    reply = http.post("/chat/completions", json=GOOD)
    assert reply.status_code == 200, reply.text
    assert reply.json()["usage"]["completion_tokens"] > 0


@pytest.fixture
def http(served):
    with httpx.Client(base_url=served.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=60) as client:
        yield client


@pytest.mark.parametrize("case", ["malformed_json", "unknown_field", "bad_value", "oversize", "wrong_key",
                                  "no_key", "foreign_host", "unknown_model", "unknown_route"])
def test_refusals_are_openai_errors_and_the_server_keeps_serving(http, case):
    post = "/chat/completions"
    if case == "malformed_json":
        response = http.post(post, content=b'{"model": "tiny-qwen3", "messages": [', headers={"content-type": "application/json"})
        error = assert_openai_error(response, 400, "invalid_json")
    elif case == "unknown_field":
        response = http.post(post, json={**GOOD, "frobnicate": True})
        error = assert_openai_error(response, 400, "unknown_parameter")
        assert "frobnicate" in error["message"] and error["param"] == "frobnicate"
    elif case == "bad_value":
        error = assert_openai_error(http.post(post, json={**GOOD, "n": 2}), 400, None)
        assert error["param"] == "n"
    elif case == "oversize":
        huge = {**GOOD, "messages": [{"role": "user", "content": "x" * (5 << 20)}]}
        error = assert_openai_error(http.post(post, json=huge), 413, "request_too_large")
    elif case == "wrong_key":
        response = http.post(post, json=GOOD, headers={"Authorization": "Bearer not-the-key"})
        error = assert_openai_error(response, 401, "invalid_api_key")
    elif case == "no_key":
        response = httpx.get(str(http.base_url) + "models", timeout=30)
        assert_openai_error(response, 401, "invalid_api_key")
    elif case == "foreign_host":
        response = http.get("/models", headers={"Host": "attacker.example:8000"})
        error = assert_openai_error(response, 400, "invalid_host")
    elif case == "unknown_model":
        error = assert_openai_error(http.post(post, json={**GOOD, "model": "gpt-4o"}), 404, "model_not_found")
    else:
        assert_openai_error(http.get("/nothing-here"), 404, "not_found")
    still_serving(http)


def test_the_openai_client_sees_a_wrong_key_as_an_authentication_error(served):
    import openai

    with openai.OpenAI(base_url=served.url, api_key="wrong", max_retries=0) as client:
        with pytest.raises(openai.AuthenticationError):
            client.models.list()


def test_a_full_queue_answers_429_and_shutdown_answers_what_is_running(tmp_path):
    """With --queue-limit 1: one reply runs, one waits, the next is 429. Then SIGINT: both are answered
    in full, new work is refused, and the process exits 0.

    Nothing here races the machine's speed: the grace is one no load can use up (cutting a reply past it is
    test_shutdown.py's subject; at 60 s, two 1500-token replies on a machine at load 18 outlived it and came
    back cut), and the threads and the server are waited for as long as they take (pytest-timeout bounds a
    hang). A thread's error is kept, so a failure says what happened rather than KeyError."""
    long = {**GOOD, "max_tokens": 1500, "stream": True}
    results: dict[str, object] = {}

    def stream(name: str, base: str) -> None:
        try:
            with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {API_KEY}"},
                              timeout=httpx.Timeout(60, read=None)) as client:  # queued: silent until its turn
                with client.stream("POST", "/chat/completions", json=long) as response:
                    lines = [line for line in response.iter_lines() if line.startswith("data:")]
            results[name] = (response.status_code, lines)
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            results[name] = (repr(error), [])

    with serve(tmp_path, "--queue-limit", "1", "--grace", "1e9") as served:
        health = served.url.removesuffix("/v1") + "/health"
        with httpx.Client(base_url=served.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=60) as http:
            running = threading.Thread(target=stream, args=("running", served.url))
            running.start()
            wait_until(lambda: http.get(health).json()["running"])
            waiting = threading.Thread(target=stream, args=("waiting", served.url))
            waiting.start()
            wait_until(lambda: http.get(health).json()["queued"] == 1)
            full = http.post("/chat/completions", json=GOOD)
            error = assert_openai_error(full, 429, "queue_full")
            assert full.headers["retry-after"] == "1" and "queue" in error["message"]
            served.process.send_signal(signal.SIGINT)
            wait_until(lambda: "Stopping" in served.log())
            try:
                refused = http.post("/chat/completions", json=GOOD)
                assert_openai_error(refused, 503, "shutting_down")
            except httpx.TransportError:
                pass  # the listener may already be closed: refused all the same
            for thread in (running, waiting):
                thread.join()
            code = served.process.wait()
    assert code == 0
    for name in ("running", "waiting"):
        status, lines = results[name]
        assert status == 200 and lines[-1] == "data: [DONE]", (name, status, lines[-3:])
        final = json.loads(lines[-2].removeprefix("data: "))
        assert final["choices"][0]["finish_reason"] in ("length", "stop"), final


def test_a_non_loopback_bind_needs_an_api_key(tmp_path):
    result = subprocess.run([sys.executable, "-m", "eagle_chat", "serve", "--host", "0.0.0.0", "--home", str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=120,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 2
    assert "API key" in result.stderr and "0.0.0.0" in result.stderr
