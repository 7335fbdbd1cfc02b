"""The engine host killed mid-reply (SIGKILL, as the kernel or a GenAI abort ends it): one reply lost at most.

In a real window, 20 times in a row: the app stays up, each reply is kept as far as it streamed and marked
interrupted, the next reply works, and the conversation database is whole with every message in it. Then
the same through ``eagle-chat serve`` with the official ``openai`` client: the streaming request gets a
clear error, the next request the engine's own answer.
"""

from __future__ import annotations

import os
import signal
import sqlite3

import psutil
import pytest

from eagle_chat import paths
from tests.gui import send
from tests.serving.served import API_KEY, serve

pytestmark = pytest.mark.slow
KILLS = 20
RESTART_TIMEOUT_MS = 60_000
LONG_REPLY_TOKENS = 2048  # far longer than the time to the first chunk: the kill lands mid-reply


def kill_host_mid_reply(qtbot, window, text: str):
    """Send ``text``, SIGKILL the engine host at the first streamed text; the failed (message, result)."""
    c = window.controller
    pid = c.engine_pid()
    assert pid is not None
    killed = []

    def kill_at_first_text(message, _text):
        if not killed and message is not None:
            killed.append(pid)
            os.kill(pid, signal.SIGKILL)

    c.sig_reply_text.connect(kill_at_first_text)
    try:
        with qtbot.waitSignal(c.sig_engine_restarted, timeout=RESTART_TIMEOUT_MS):
            finished = send(qtbot, window, text)
    finally:
        c.sig_reply_text.disconnect(kill_at_first_text)
    assert killed, "the reply ended before any text streamed"
    assert c.engine_pid() not in (None, pid)  # a new host, with the same model
    return finished


def test_killing_the_engine_host_20_times_costs_one_reply_each_time(qtbot, open_window):
    window = open_window()
    window.show()
    window.options.max_tokens.setValue(LONG_REPLY_TOKENS)
    c = window.controller
    kept = []
    for _round in range(KILLS):
        c.conversations.new_conversation()  # a first question: the tiny pair answers it at length (a history can end it early)
        message, result = kill_host_mid_reply(qtbot, window, "Write a long story about a parser.")
        assert result is None and message.status == "interrupted", message.status
        assert message.content.strip() or message.thinking.strip(), "the text streamed before the kill is kept"
        assert "engine" in message.error and str(paths.engine_log_file()) in message.error
        kept.append((message.id, message.content, message.thinking))
        window.options.max_tokens.setValue(16)
        message, result = send(qtbot, window, "Now a short one.")  # the next reply works
        assert result is not None and message.status in ("complete", "stopped") and result.stats.generated_tokens
        window.options.max_tokens.setValue(LONG_REPLY_TOKENS)
    assert window.isVisible() and c.state == "ready"
    c.store.flush()
    with sqlite3.connect(paths.database_file()) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = {row[0]: row[1:] for row in db.execute("SELECT id, status, content, thinking FROM messages")}
    for message_id, content, thinking in kept:
        assert rows[message_id] == ("interrupted", content, thinking)
    assert [status for status, *_ in rows.values()].count("interrupted") == KILLS
    assert len(rows) == 4 * KILLS  # each round: two questions, an interrupted reply and a finished one


def test_a_crash_while_streaming_an_api_reply_is_an_error_and_the_next_request_is_answered(tmp_path, spec_engine):
    import openai

    from eagle_chat.core.generation.reasoning import split_reasoning
    from tests.serving.test_api_openai import K, MODEL, engine_reply, messages

    with serve(tmp_path / "home") as served, \
            openai.OpenAI(base_url=served.url, api_key=API_KEY, max_retries=0, timeout=120) as client:
        for _round in range(3):
            host = engine_host_of(served.process.pid)
            stream = client.chat.completions.create(model=MODEL, messages=messages("Write a long story."),
                                                    max_tokens=LONG_REPLY_TOKENS, stream=True)
            with pytest.raises(openai.APIError) as raised:
                for chunk in stream:
                    if chunk.choices and (chunk.choices[0].delta.content or "").strip() and host.is_running():
                        host.kill()
            assert "engine" in str(raised.value.message).lower()
            assert raised.value.body.get("code") == "engine_crashed"
            conversation = messages("Write a function that adds two numbers.")
            expected = engine_reply(spec_engine, conversation, 32)
            answer = client.chat.completions.create(model=MODEL, messages=conversation, max_tokens=32,
                                                    extra_body={"num_assistant_tokens": K})
            assert answer.choices[0].message.content == split_reasoning(expected.text).answer
            assert engine_host_of(served.process.pid).pid != host.pid


def engine_host_of(pid: int) -> psutil.Process:
    """The engine host child of the serve process ``pid`` (not multiprocessing's resource tracker)."""
    hosts = [p for p in psutil.Process(pid).children() if "spawn_main" in " ".join(p.cmdline())]
    assert len(hosts) == 1, hosts
    return hosts[0]
