"""The remote engine's reading of a server that reports no speculative figures, job event order, and
where the remote key is kept."""

from __future__ import annotations

import asyncio
import json
import stat
import threading

import pytest

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.serving.backend import Job
from eagle_chat.core.serving.keys import KeyStore
from eagle_chat.core.serving.remote import REMOTE, RemoteSpec, _Reply
from eagle_chat.ui.words import texts

# What OpenVINO Model Server streams: OpenAI's chunks, usage at the end, no speculative figures.
OVMS_STREAM = [
    {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "def"}, "finish_reason": None}]},
    {"choices": [{"index": 0, "delta": {"content": " add"}, "finish_reason": None}]},
    {"choices": [{"index": 0, "delta": {"content": "(a, b):"}, "finish_reason": "stop"}]},
    {"choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}},
]


def test_figures_a_server_does_not_report_stay_unknown_not_zero():
    chunks = []
    reply = _Reply(chunks.append)
    reply.start()
    for payload in OVMS_STREAM:
        assert reply.event(json.dumps(payload)) is False
    assert reply.event("[DONE]") is True
    result = reply.result(stopped=False, settings=GenerationSettings())
    stats = result.stats
    assert result.text == "def add(a, b):" and [c.text for c in chunks] == ["def", " add", "(a, b):"]
    assert (stats.input_tokens, stats.generated_tokens) == (12, 5)
    assert stats.mode == "remote" and stats.device == REMOTE
    assert stats.accepted_tokens is None and stats.draft_tokens is None
    assert stats.acceptance is None and stats.tokens_per_step is None
    summary = texts.stats_summary(stats)
    assert "unknown" in summary and "acceptance 0" not in summary and "0.00 tok/step" not in summary


def test_reasoning_from_a_server_is_put_back_in_think_tags_like_a_local_reply():
    reply = _Reply(None)
    reply.start()
    for delta in ({"reasoning_content": "weigh"}, {"reasoning_content": " it"}, {"content": "answer"}):
        reply.event(json.dumps({"choices": [{"index": 0, "delta": delta}]}))
    assert reply.result(stopped=False, settings=GenerationSettings()).text == "<think>\nweigh it\n</think>\n\nanswer"


def test_a_server_error_event_fails_the_reply_with_its_message():
    from eagle_chat.core.generation.engine import EngineError

    reply = _Reply(None)
    with pytest.raises(EngineError, match="out of memory"):
        reply.event(json.dumps({"error": {"message": "out of memory", "type": "server_error"}}))


def test_the_remote_spec_never_shows_its_key():
    spec = RemoteSpec("http://127.0.0.1:1/v1", api_key="s3cret")
    assert "s3cret" not in repr(spec)


def test_job_events_keep_their_order_across_threads():
    async def run():
        job = Job("p", GenerationSettings())
        other = threading.Thread(target=lambda: [job.on_chunk(str(i), i, 0.0) for i in range(50)])
        other.start()
        other.join()
        job.on_finished(None)  # posted on the loop's thread while the others may still be in transit
        kinds = []
        while not job.ended:
            event = await job.next_event()
            kinds.append(event.text if event.kind == "chunk" else event.kind)
        return kinds

    assert asyncio.run(run()) == [str(i) for i in range(50)] + ["finished"]


class _MemoryKeyring:
    """A keyring backend that keeps passwords in memory (keyring's own interface)."""

    priority = 1

    def __init__(self):
        self.store = {}

    def get_password(self, service, user):
        return self.store.get((service, user))

    def set_password(self, service, user, password):
        self.store[(service, user)] = password

    def delete_password(self, service, user):
        self.store.pop((service, user), None)


def test_keys_go_to_the_keyring_when_there_is_one(tmp_path):
    backend = _MemoryKeyring()
    keys = KeyStore(tmp_path / "keys.json", keyring_backend=backend)
    assert keys.set("http://h:8000/v3", "abc") == "keyring"
    assert keys.get("http://h:8000/v3") == "abc" and not (tmp_path / "keys.json").exists()
    keys.set("http://h:8000/v3", "")
    assert keys.get("http://h:8000/v3") is None


def test_without_a_keyring_keys_go_to_a_private_file(tmp_path):
    keys = KeyStore(tmp_path / "keys.json", keyring_backend=None)
    assert keys.where == "file" and keys.set("http://h/v1", "abc") == "file"
    path = tmp_path / "keys.json"
    assert json.loads(path.read_text()) == {"http://h/v1": "abc"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert KeyStore(path, keyring_backend=None).get("http://h/v1") == "abc"


def test_tests_never_reach_the_users_keyring(tmp_path):
    assert KeyStore(tmp_path / "k.json").where == "file"  # conftest pins keyring's fail backend
