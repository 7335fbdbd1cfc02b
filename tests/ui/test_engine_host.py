"""The engine host seen from the window: another model chosen during a load, unload, a reply that ignores Stop."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal

from eagle_chat.core.hosting import client
from eagle_chat.core.hosting.restarts import RestartPolicy
from eagle_chat.core.models.choice import ModelChoice
from tests.gui import LOAD_TIMEOUT_MS, REPLY_TIMEOUT_MS, send


def engine_hosts() -> list:
    return [p for p in multiprocessing.active_children() if p.name == "EagleChat engine"]


def test_another_model_chosen_during_a_load_is_the_one_loaded(qtbot, open_window, tiny_pair, tmp_path):
    other = shutil.copytree(tiny_pair[0], tmp_path / "another-model")
    window = open_window()
    c = window.controller
    with qtbot.waitSignal(c.sig_state, check_params_cb=lambda state: state == "loading"):
        assert window.set_precision("f32")  # a load under way …
    first = window.loads.pending.load_id
    assert window.model_bar.choose_button.isEnabled()  # … does not lock the model choice
    with qtbot.waitSignal(c.sig_loaded, timeout=LOAD_TIMEOUT_MS) as loaded:
        assert window.set_model(ModelChoice(other, None))  # … and another choice cancels it
    assert loaded.args[0].load_id != first and loaded.args[0].spec.target_dir == other
    assert window.settings.target_dir == str(other) and window.settings.draft_dir is None
    assert len(engine_hosts()) == 1  # the cancelled load's host is gone
    _, result = send(qtbot, window, "hello")
    assert result is not None and result.stats.mode == "baseline"


def test_unloading_ends_the_engine_host_and_the_notice_loads_it_again(qtbot, open_window):
    window = open_window()
    c = window.controller
    pid = c.engine_pid()
    assert pid is not None and [p.pid for p in engine_hosts()] == [pid]
    with qtbot.waitSignal(c.sig_unloaded):
        window.findChild(type(window.menuBar().actions()[0]), "unloadModelAction").trigger()
    assert c.state == "empty" and c.loaded is None
    qtbot.waitUntil(lambda: not engine_hosts(), timeout=5000)  # its memory went with its process
    assert not window.send_button.isEnabled()
    assert window.notice.action_button.isVisibleTo(window)
    with qtbot.waitSignal(c.sig_loaded, timeout=LOAD_TIMEOUT_MS):
        window.notice.action_button.click()  # "Load the model again"
    assert c.engine_pid() not in (None, pid)
    _, result = send(qtbot, window, "back?")
    assert result is not None and result.stats.generated_tokens > 0


def test_a_reply_that_ignores_stop_offers_to_restart_the_engine(qtbot, open_window, monkeypatch):
    monkeypatch.setattr(client, "HUNG_AFTER_S", 0.5)
    window = open_window()
    window.options.max_tokens.setValue(2048)
    c = window.controller
    pid = c.engine_pid()
    frozen = []

    def freeze_at_first_text(message, _text):
        if not frozen:
            frozen.append(pid)
            os.kill(pid, signal.SIGSTOP)  # a host that no longer answers: Stop cannot reach its streamer
            window.stop_button.click()

    c.sig_reply_text.connect(freeze_at_first_text)
    with qtbot.waitSignal(c.sig_engine_hung, timeout=REPLY_TIMEOUT_MS):
        send(qtbot, window, "Write a long story about a parser.", wait=False)
    assert "Stop" in window.notice.text() and window.notice.action_button.isVisibleTo(window)
    with qtbot.waitSignal(c.sig_engine_restarted, timeout=LOAD_TIMEOUT_MS), \
            qtbot.waitSignal(c.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as finished:
        window.notice.action_button.click()  # "Restart the engine"
    message, result = finished.args
    assert result is None and message.status == "interrupted" and "restarted" in message.error
    assert c.engine_pid() not in (None, pid)
    window.options.max_tokens.setValue(16)
    _, result = send(qtbot, window, "and now?")
    assert result is not None and result.stats.generated_tokens > 0


def test_crashes_that_come_too_often_stop_the_restarts_and_offer_prefix_caching_off(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(2048)
    c = window.controller
    c.engine.worker.restarts = RestartPolicy(max_crashes=1)  # this crash is already one too many
    assert window.settings.prefix_cache
    pid = c.engine_pid()

    def abort_at_first_text(message, _text):
        if c.engine_pid() == pid:
            os.kill(pid, signal.SIGABRT)  # as GenAI's heap abort ends it (a SIGKILL is not counted)

    c.sig_reply_text.connect(abort_at_first_text)
    with qtbot.waitSignal(c.sig_engine_lost, timeout=REPLY_TIMEOUT_MS) as lost:
        send(qtbot, window, "Write a long story about a parser.", wait=False)
    message, restarting = lost.args
    assert not restarting and "not restarted again" in message and "prefix caching" in message
    qtbot.waitUntil(lambda: c.reply is None, timeout=REPLY_TIMEOUT_MS)
    assert "interrupted — the app or its engine stopped" in window.chat.toPlainText()  # the app did not close
    assert not engine_hosts() and c.engine_pid() is None
    assert window.notice.action_button.isVisibleTo(window)
    assert window.notice.action_button.text() == "Turn prefix caching off"
    with qtbot.waitSignal(c.sig_loaded, timeout=LOAD_TIMEOUT_MS) as loaded:
        window.notice.action_button.click()
    assert loaded.args[0].spec.prefix_cache is False and not window.settings.prefix_cache
    window.options.max_tokens.setValue(16)
    _, result = send(qtbot, window, "and now?")
    assert result is not None and result.stats.generated_tokens > 0
