"""The window's Server switch: the API runs in the window's own loop, on the window's pipeline and queue."""

from __future__ import annotations

import concurrent.futures
import threading

import httpx
import pytest

from tests.conftest import TINY_DRAFT, TINY_TARGET
from tests.gui import REPLY_TIMEOUT_MS, send

pytestmark = pytest.mark.slow
PROMPT = "Write a Python function that reverses a string."


@pytest.fixture
def pool():
    """Clients run on their own threads: the server lives on this (the GUI) thread."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
        yield executor


def switch(qtbot, window, on: bool) -> None:
    panel = window.server
    with qtbot.waitSignal(panel.sig_running, timeout=30_000) as running:
        qtbot.mouseClick(panel.toggle, _left())
    assert running.args[0] is on and panel.toggle.isChecked() is on


def _left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_the_server_switch_serves_the_windows_model_and_stops_with_no_thread_left(
        qtbot, qasync_loop, open_window, pool):
    window = open_window("--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT))
    window.settings.server_port = 0  # any free port on 127.0.0.1
    threads_before = set(threading.enumerate())
    switch(qtbot, window, True)
    url = window.server.url
    assert url.startswith("http://127.0.0.1:") and window.server.url_label.text() == url
    assert not window.server.log.isHidden()
    assert set(threading.enumerate()) == threads_before  # uvicorn runs in the window's loop, no thread

    def ask():
        with httpx.Client(base_url=url, timeout=60) as client:
            return client.post("/chat/completions", json={"model": "tiny-qwen3", "max_tokens": 24,
                                                          "messages": [{"role": "user", "content": PROMPT}]})

    future = pool.submit(ask)
    qtbot.waitUntil(future.done, timeout=REPLY_TIMEOUT_MS)
    reply = future.result()
    assert reply.status_code == 200, reply.text
    assert reply.json()["eagle_chat"]["mode"] == "speculative"
    qtbot.waitUntil(lambda: "/v1/chat/completions 200" in window.server.log.toPlainText())
    assert window.chart.series_by_mode("api-speculative"), "the API reply draws its own line"
    assert window.chart.series_by_mode("api-speculative")[0].count() > 0

    switch(qtbot, window, False)
    assert window.server.url is None and window.server.url_label.text() == ""
    with pytest.raises(httpx.ConnectError):
        httpx.get(url + "/models", timeout=5)
    leftover = [t for t in threading.enumerate() if t not in threads_before and t.is_alive()
                and not t.name.startswith("ThreadPoolExecutor")]  # the test's own client threads
    assert not leftover


def test_api_requests_and_the_windows_replies_share_one_queue(qtbot, qasync_loop, open_window, pool):
    """A window message sent while an API reply runs waits for it, then runs on the same pipeline."""
    window = open_window("--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT))
    window.settings.server_port = 0
    switch(qtbot, window, True)
    url = window.server.url
    finished = []
    window.controller.sig_reply_started.connect(
        lambda handle: handle.api and handle.sig_ended.connect(lambda _r: finished.append(("api", handle))))
    window.controller.sig_reply_finished.connect(lambda message, _r: finished.append(("window", message.id)))

    def ask():
        with httpx.Client(base_url=url, timeout=60) as client:
            body = {"model": "tiny-qwen3", "max_tokens": 600, "stream": True,
                    "messages": [{"role": "user", "content": PROMPT}]}
            with client.stream("POST", "/chat/completions", json=body) as response:
                return [line for line in response.iter_lines() if line.startswith("data:")]

    future = pool.submit(ask)
    qtbot.waitUntil(lambda: window.controller.reply is not None and window.controller.reply.job is not None)
    send(qtbot, window, "Write a Python class for a simple stack with push and pop.", wait=False)
    qtbot.waitUntil(lambda: len(window.controller.queue) == 1)  # the window's message waits its turn
    qtbot.waitUntil(lambda: len(finished) == 2 and future.done(), timeout=REPLY_TIMEOUT_MS)
    assert [kind for kind, _ in finished] == ["api", "window"]
    assert future.result()[-1] == "data: [DONE]"
    message = window.controller.conversation.messages[-1]
    assert message.role == "assistant" and message.status == "complete" and message.content
    switch(qtbot, window, False)


def test_closing_the_window_with_the_server_on_closes_it(qtbot, qasync_loop, open_window):
    window = open_window("--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT))
    window.settings.server_port = 0
    switch(qtbot, window, True)
    url, task = window.server.url, window.server.server._task
    window.close()
    qtbot.waitUntil(task.done, timeout=10_000)
    with pytest.raises(httpx.ConnectError):
        httpx.get(url + "/models", timeout=5)


def test_switching_off_answers_a_request_waiting_behind_the_windows_reply_503_at_once(
        qtbot, qasync_loop, open_window, pool, monkeypatch):
    """Past the grace period an API request still waiting behind the window's own (long) reply is answered
    503 with Retry-After at once, not left hanging until the window's reply ends or the listener drops it."""
    from eagle_chat.ui.server import panel

    monkeypatch.setattr(panel, "STOP_GRACE_S", 0.2)
    window = open_window("--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT))
    window.settings.server_port = 0
    window.options.max_tokens.setValue(4000)  # the window's reply outlasts the switch-off by far
    switch(qtbot, window, True)
    url = window.server.url
    send(qtbot, window, PROMPT, wait=False)
    qtbot.waitUntil(lambda: window.controller.reply is not None and window.controller.reply.job is None)

    def ask():
        with httpx.Client(base_url=url, timeout=60) as client:
            response = client.post("/chat/completions", json={"model": "tiny-qwen3", "max_tokens": 8,
                                                              "messages": [{"role": "user", "content": PROMPT}]})
            return response.status_code, response.headers.get("retry-after"), response.json()

    future = pool.submit(ask)
    qtbot.waitUntil(lambda: len(window.controller.queue) == 1)  # the API request waits its turn
    switch(qtbot, window, False)
    qtbot.waitUntil(future.done, timeout=10_000)
    status, retry_after, body = future.result()
    assert (status, retry_after, body["error"]["code"]) == (503, "5", "shutting_down"), body
    reply = window.controller.reply
    assert reply is not None and reply.job is None  # answered while the window's reply still runs
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS):
        window.controller.stop()


def test_the_windows_stop_on_an_api_reply_tells_its_client_the_text_is_incomplete(qtbot, qasync_loop, open_window,
                                                                                 pool):
    """Stop in the window ends the API reply in flight; the client reads finish_reason "length" (incomplete)
    and eagle_chat.cut "stopped", not "stop" (which reads as a whole answer)."""
    import json

    window = open_window("--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT))
    window.settings.server_port = 0
    switch(qtbot, window, True)
    url = window.server.url
    first = threading.Event()

    def ask():
        with httpx.Client(base_url=url, timeout=60) as client:
            body = {"model": "tiny-qwen3", "max_tokens": 4000, "stream": True,
                    "messages": [{"role": "user", "content": PROMPT}]}
            with client.stream("POST", "/chat/completions", json=body) as response:
                events = []
                for line in response.iter_lines():
                    if line.startswith("data: {"):
                        events.append(json.loads(line.removeprefix("data: ")))
                        first.set()
                return events

    future = pool.submit(ask)
    qtbot.waitUntil(first.is_set, timeout=REPLY_TIMEOUT_MS)
    window.controller.stop()
    qtbot.waitUntil(future.done, timeout=REPLY_TIMEOUT_MS)
    final = future.result()[-1]
    assert final["choices"][0]["finish_reason"] == "length", final
    assert final["eagle_chat"]["cut"] == "stopped", final["eagle_chat"]
    switch(qtbot, window, False)
