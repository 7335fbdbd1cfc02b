"""The "Remote server" backend against a served EagleChat (`eagle-chat serve` in a subprocess)."""

from __future__ import annotations

import json
import stat

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from eagle_chat import paths
from tests.conftest import TINY_DRAFT, TINY_TARGET
from tests.gui import LOAD_TIMEOUT_MS, REPLY_TIMEOUT_MS, send
from tests.serving.served import API_KEY, serve

pytestmark = pytest.mark.slow
PROMPT = "Write a Python function that returns the n-th Fibonacci number."


@pytest.fixture
def served(tmp_path):
    with serve(tmp_path / "server") as server:
        yield server


def connect(qtbot, window, url: str, key: str):
    dialog = window.remote.choose()
    dialog.url.setText(url)
    dialog.key.setText(key)
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=LOAD_TIMEOUT_MS) as loaded:
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    return loaded.args[0]


def test_a_reply_streams_into_the_window_through_the_remote_server(qtbot, open_window, served, spec_engine):
    window = open_window("--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT))
    info = connect(qtbot, window, served.url, API_KEY)
    assert info.device == "REMOTE" and info.has_draft  # the served EagleChat says it has a draft
    assert window.model_bar.device_combo.currentData() == "REMOTE"
    qtbot.waitUntil(lambda: "remote server" in window.model_bar.model_label.text())
    assert served.url in window.status.state_label.text()
    window.options.max_tokens.setValue(300)
    window.model_bar.k_slider.setValue(5)
    updates, prompts = [], []
    window.controller.sig_reply_text.connect(lambda _m, text: updates.append(text))
    window.controller.sig_reply_started.connect(
        lambda handle: prompts.append((window.controller.reply.prompt, handle.settings)))

    message, result = send(qtbot, window, PROMPT)

    prompt, settings = prompts[0]  # what the window asked of the remote server, asked of the local engine
    assert (settings.max_new_tokens, settings.num_assistant_tokens, settings.speculative) == (300, 5, True)
    expected = spec_engine.generate(prompt, settings)
    assert message.content == expected.text and message.status == "complete"
    assert len(updates) >= 2 and updates[-1] == expected.text  # it streamed in, not all at once
    stats = result.stats
    assert stats.device == "REMOTE" and stats.mode == "speculative"
    assert (stats.generated_tokens, stats.accepted_tokens, stats.draft_tokens) == (
        expected.stats.generated_tokens, expected.stats.accepted_tokens, expected.stats.draft_tokens)
    assert "tok/s" in window.stats_label.text() and "acceptance" in window.stats_label.text()
    assert len(window.chart.series_by_mode("speculative")) >= 1
    assert window.chart.series_by_mode("speculative")[-1].count() > 0  # the live line, through the server

    window.binder.flush()
    settings_text = paths.settings_file().read_text(encoding="utf-8")
    assert API_KEY not in settings_text and json.loads(settings_text)["remote_url"] == served.url
    keys = paths.remote_keys_file()  # tests have no OS keyring: the private file
    assert json.loads(keys.read_text())[served.url] == API_KEY
    assert stat.S_IMODE(keys.stat().st_mode) == 0o600


def test_stop_ends_a_remote_reply_and_the_server_stops_generating(qtbot, open_window, served):
    window = open_window("--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT))
    connect(qtbot, window, served.url, API_KEY)
    window.options.max_tokens.setValue(4000)
    send(qtbot, window, PROMPT, wait=False)
    qtbot.waitUntil(lambda: window.controller.reply is not None and window.controller.reply.tokens > 20,
                    timeout=REPLY_TIMEOUT_MS)
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as finished:
        qtbot.mouseClick(window.stop_button, _left())
    message, result = finished.args
    assert message.status == "stopped" and result.stats.stopped
    qtbot.waitUntil(lambda: any("disconnected" in line for line in served.records()), timeout=10_000)
    produced = int(next(line for line in served.records() if "disconnected" in line).split("+")[1].split()[0])
    assert produced < 4000


def test_a_wrong_key_is_a_clear_notice_and_the_window_keeps_working(qtbot, open_window, served):
    window = open_window("--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT))
    dialog = window.remote.choose()
    dialog.url.setText(served.url)
    dialog.key.setText("wrong")
    with qtbot.waitSignal(window.loads.sig_refused, timeout=LOAD_TIMEOUT_MS) as failed:
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    assert "401" in failed.args[0] and "API key" in failed.args[0]
    window.model_bar.device_combo.setCurrentIndex(0)
    window.model_bar.device_combo.activated.emit(0)  # back to CPU, as a user picks it
    qtbot.waitUntil(lambda: window.controller.state == "ready", timeout=LOAD_TIMEOUT_MS)
    assert window.controller.loaded.device == "CPU"


def _left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton
