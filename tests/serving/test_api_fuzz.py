"""Fuzzing every endpoint and field of `eagle-chat serve` (hypothesis, about a minute on 2 cores).

No answer is a 5xx, every refusal is OpenAI's error shape without a machine path, every stream ends, the
process neither crashes nor logs a traceback, and a reference request is answered identically afterwards.
benchmarks/api_fuzz.py runs the same cases for minutes or hours and watches memory and threads too.
"""

from __future__ import annotations

import time

import httpx
import pytest
from hypothesis import HealthCheck, given, settings

from tests.serving.fuzzing import Tally, cases, send
from tests.serving.served import API_KEY, serve

EXAMPLES = 1200  # about a minute here (2 shared cores), the server's start included
REFERENCE = {"model": "tiny-qwen3", "max_tokens": 8, "num_assistant_tokens": 5,
             "messages": [{"role": "user", "content": "Write a Python function that reverses a string."}]}
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    # --max-tokens 8: a fuzzed request that generates is cheap, so the minute goes to many requests
    with serve(tmp_path_factory.mktemp("fuzzed"), "--max-tokens", "8") as server:
        yield server


def reference(http: httpx.Client) -> tuple:
    answer = http.post("/chat/completions", json=REFERENCE).json()
    message = answer["choices"][0]["message"]
    return message["content"], message.get("reasoning_content"), answer["usage"]


def test_fuzzing_every_endpoint_and_field_never_breaks_the_server(fuzzed):
    tally = Tally()
    headers = {"Authorization": f"Bearer {API_KEY}"}
    with httpx.Client(base_url=fuzzed.url.removesuffix("/v1"), headers=headers, timeout=60) as http, \
            httpx.Client(base_url=fuzzed.url, headers=headers, timeout=60) as api:
        before = reference(api)
        started = time.monotonic()

        @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(cases())
        def fuzz(case):
            send(http, case, tally)
            assert not tally.violations, tally.violations[-1]

        fuzz()
        elapsed = time.monotonic() - started
        assert fuzzed.process.poll() is None, "the server died"
        assert reference(api) == before
    print(f"\n{tally.requests} requests in {elapsed:.0f} s: {dict(sorted(tally.statuses.items()))}")
    assert tally.requests >= EXAMPLES and tally.statuses[200] > 0 and tally.statuses[400] > 0
    assert "Traceback" not in fuzzed.log(), fuzzed.log()[-3000:]
