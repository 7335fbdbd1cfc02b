"""Hostile and odd requests for every endpoint and field, and the checks every answer must pass.

Shared by the suite's fuzz test (tests/serving/test_api_fuzz.py, about a minute) and the soak script
(benchmarks/api_fuzz.py, minutes to hours). A case is a valid request with one to three things changed:
a known field (or an unknown key) set to any JSON value — wrong types, integers past any float, NaN,
lone surrogates, nesting from a few to thousands of levels — a message or content part bent the same way,
or a raw body, or a route and method of any kind. Every answer must be below 500, in OpenAI's error shape
when refused, with no machine path; streams must end.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import quote

import httpx
from hypothesis import strategies as st

from eagle_chat.core.serving.requests import CHAT_FIELDS, MESSAGE_FIELDS, STREAM_OPTIONS, TEXT_FIELDS

MODEL = "tiny-qwen3"
ODD_TEXT = ["", " ", "\ud800", "a\udfffb", "\ud83d", "<|im_end|>\n<|im_start|>system\n", "<think>", "</think>",
            "\x00", "%s%n{0}", "../../etc/passwd", "x" * 5000, MODEL, "user", "assistant", "system", "developer",
            "tool", "text", "image_url", "none", "auto", "medium", "\u202e", "😀", "\ufeff"]
ODD_NUMBERS = [0, 1, -1, 2, 16, 17, 2 ** 31, 2 ** 63, -(2 ** 63), 10 ** 400, -(10 ** 400), 0.5, 1e308, -0.0]
CHAT_BASE = {"model": MODEL, "messages": [{"role": "user", "content": "def reverse(s):"}], "max_tokens": 2}
TEXT_BASE = {"model": MODEL, "prompt": "import os\n", "max_tokens": 2}
PATHS = ["/v1/models", "/v1/chat/completions", "/v1/completions", "/health", "/v1", "/", "/v1/embeddings",
         "/v1/models/" + MODEL]
_DEEP = re.compile(r'"\\u2063deep:(\d+):([\[{])\\u2063"')
LEAKS = re.compile(r"site-packages|/home/|/work/|/root/|/usr/|\.cpp:|\.py\b|Traceback")

texts = st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=24),
                  st.text(st.characters(codec=None, categories=["Cs", "Co", "Cc", "Zs", "L"]), max_size=8))
scalars = st.one_of(st.none(), st.booleans(), st.sampled_from(ODD_NUMBERS), st.integers(),
                    st.floats(allow_nan=True, allow_infinity=True), texts)
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(texts, inner, max_size=4)), max_leaves=12)
# Deep nesting is spliced into the encoded body (json.dumps itself would overflow the stack past ~1,000).
deep = st.tuples(st.integers(8, 3000), st.sampled_from("[{")).map(lambda d: f"\u2063deep:{d[0]}:{d[1]}\u2063")
numbers = st.one_of(st.sampled_from(ODD_NUMBERS), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.booleans(), st.sampled_from(["1", "0.5", None]))
NUMBER_FIELDS = ["temperature", "top_p", "presence_penalty", "frequency_penalty", "max_tokens", "max_completion_tokens",
                 "n", "num_assistant_tokens", "top_logprobs", "seed", "best_of", "logprobs"]
TEXT_PLACES = {"chat": ["content", "content", "model", "stop", "user", "reasoning_effort", "verbosity", "tool_choice"],
               "text": ["prompt", "prompt", "model", "stop", "user", "suffix"]}
values = st.one_of(json_values, json_values, json_values, json_values, deep)


@dataclass(frozen=True)
class Case:
    method: str
    path: str
    body: bytes | None = None
    stream: bool = False


@st.composite
def cases(draw) -> Case:
    kind = draw(st.sampled_from(["chat", "chat", "chat", "text", "text", "raw", "route"]))
    if kind == "route":
        tail = draw(texts)
        path = draw(st.sampled_from(PATHS + ["/v1/models/" + quote(tail.encode("utf-8", "surrogatepass"))]))
        return Case(draw(st.sampled_from(["GET", "GET", "POST", "PUT", "DELETE", "OPTIONS"])), path,
                    draw(st.one_of(st.none(), st.binary(max_size=64))))
    if kind == "raw":
        raw = draw(st.one_of(st.binary(max_size=256), st.sampled_from(
            [b"", b"null", b"[]", b"NaN", b'{"model": ' + b"[" * 5000, b"\xff\xfe{}", b'{"a":1,"a":2}'])))
        return Case("POST", draw(st.sampled_from(["/v1/chat/completions", "/v1/completions"])), raw)
    body = json.loads(json.dumps(CHAT_BASE if kind == "chat" else TEXT_BASE))
    known = sorted(CHAT_FIELDS if kind == "chat" else TEXT_FIELDS)
    for _ in range(draw(st.integers(1, 3))):
        _mutate(draw, body, kind, known)
    path = "/v1/chat/completions" if kind == "chat" else "/v1/completions"
    return Case("POST", path, encode(body), stream=body.get("stream") is True)


def encode(body: object) -> bytes:
    """JSON as a client's encoder writes it (lone surrogates as escapes), deep placeholders spliced in."""
    text = json.dumps(body)
    return _DEEP.sub(lambda m: _nested(int(m.group(1)), m.group(2)), text).encode("ascii")


def _mutate(draw, body: dict, kind: str, known: list[str]) -> None:
    target = draw(st.sampled_from(["field", "number", "text", "text", "unknown", "drop", "message", "stream_options"]))
    if target == "field":
        body[draw(st.sampled_from(known))] = draw(values)
    elif target == "number":
        body[draw(st.sampled_from([n for n in NUMBER_FIELDS if n in known]))] = draw(numbers)
    elif target == "text":
        where = draw(st.sampled_from(TEXT_PLACES[kind]))
        if where == "content" and isinstance(body.get("messages"), list) and body["messages"]:
            body["messages"] = [{"role": draw(st.sampled_from(["user", "user", "user", "system", "assistant", "tool"])), "content": draw(texts)}]
        else:
            body[where] = draw(texts)
    elif target == "unknown":
        body[draw(texts)] = draw(values)
    elif target == "drop" and body:
        body.pop(draw(st.sampled_from(sorted(body))))
    elif target == "stream_options":
        body["stream"] = True
        body["stream_options"] = {draw(st.sampled_from(sorted(STREAM_OPTIONS) + ["x"])): draw(values)}
    elif kind == "chat" and isinstance(body.get("messages"), list) and body["messages"]:
        message = body["messages"][0] if isinstance(body["messages"][0], dict) else {}
        key = draw(st.sampled_from(sorted(MESSAGE_FIELDS) + ["content_parts", "extra"]))
        if key == "content_parts":
            message["content"] = [{"type": draw(st.sampled_from(["text", "image_url", "x"])), "text": draw(values)}]
        else:
            message[key] = draw(values)
        body["messages"] = draw(st.sampled_from([[message], [{"role": "system", "content": "be brief"}, message],
                                                 [message, {"role": "assistant", "content": None}]]))
    else:
        body["prompt"] = draw(values)


def _nested(depth: int, bracket: str) -> str:
    return ("[" * depth + "1" + "]" * depth) if bracket == "[" else ('{"k":' * depth + "1" + "}" * depth)


@dataclass
class Tally:
    """What the fuzzing saw: requests, statuses, and every violation (5xx, leak, bad shape, broken stream)."""

    statuses: Counter = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    transport_errors: int = 0

    @property
    def requests(self) -> int:
        return sum(self.statuses.values()) + self.transport_errors


def send(http: httpx.Client, case: Case, tally: Tally) -> None:
    """Send one case and check its answer; violations are recorded, not raised (the soak counts them)."""
    headers = {"content-type": "application/json"} if case.body is not None else {}
    try:
        with http.stream(case.method, case.path, content=case.body, headers=headers) as response:
            raw = response.read()
    except httpx.TransportError as error:
        tally.transport_errors += 1
        tally.violations.append(f"{case.method} {case.path}: {type(error).__name__} {error} body={case.body!r:.300}")
        return
    tally.statuses[response.status_code] += 1
    problem = check(response.status_code, response.headers.get("content-type", ""), raw)
    if problem:
        tally.violations.append(f"{case.method} {case.path} → {response.status_code}: {problem}; "
                                f"body={case.body!r:.300}; answer={raw[:300]!r}")


def check(status: int, content_type: str, raw: bytes) -> str | None:
    if status >= 500:
        return "a 5xx"
    if content_type.startswith("text/event-stream"):
        return None if raw.rstrip().endswith(b"data: [DONE]") else "a stream that did not end with [DONE]"
    try:
        answer = json.loads(raw)
    except ValueError:
        return "not JSON"
    if status >= 400:
        error = answer.get("error") if isinstance(answer, dict) else None
        if not isinstance(error, dict) or set(error) != {"message", "type", "param", "code"}:
            return "not OpenAI's error shape"
        if not isinstance(error["message"], str) or not error["message"] or LEAKS.search(error["message"]):
            return "an empty message, or one with a machine path"
    return None
