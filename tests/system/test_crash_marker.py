"""A native crash mid-reply (OpenVINO aborting the process) is noticed on the next start: the window says
so, the partial reply is kept, and turning prefix caching off is offered when it was on."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QPushButton

from eagle_chat import paths
from tests.gui import REPLY_TIMEOUT_MS, close_window, send, wait_ready
from tests.system.test_faults import kill_mid_reply, streaming_row


def test_killed_mid_reply_the_next_start_says_so_keeps_the_reply_and_offers_caching_off(qtbot, open_window,
                                                                                        eagle_home):
    marker = paths.reply_marker_file()

    def in_flight():
        partial = streaming_row(paths.database_file())
        if partial and marker.exists():
            return partial, json.loads(marker.read_text(encoding="utf-8"))
        return None

    seen, output = kill_mid_reply(eagle_home, in_flight)
    partial, facts = seen or (None, None)
    assert partial and facts, f"no reply in flight was seen:\n{output}"
    assert facts["prefix_cache"] is True and facts["message_id"] and facts["conversation_id"]

    window = open_window()
    assert "stopped in the middle of a reply" in window.notice.text()
    assert "Prefix caching was on" in window.notice.text()
    assert not marker.exists()  # taken: the next start is a clean one
    conversation = window.controller.store.load_conversation(facts["conversation_id"])
    reply = next(m for m in conversation.messages if m.id == facts["message_id"])
    assert reply.status == "interrupted" and reply.content.startswith(partial)

    offer = window.findChild(QPushButton, "noticeActionButton")
    assert offer.isVisibleTo(window) and offer.text() == "Turn prefix caching off"
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS):
        offer.click()
    assert window.controller.loaded.spec.prefix_cache is False
    assert window.settings.prefix_cache is False and not window.options.prefix_cache.isChecked()
    assert window.notice.isHidden()
    window.binder.flush()
    assert json.loads(paths.settings_file().read_text(encoding="utf-8"))["prefix_cache"] is False


def test_the_marker_exists_only_while_a_reply_is_generated(qtbot, open_window):
    window = open_window()
    marker = paths.reply_marker_file()
    seen = []
    window.controller.sig_reply_started.connect(lambda *_: seen.append(marker.exists()))
    window.options.max_tokens.setValue(16)
    send(qtbot, window, "hello")
    assert seen == [True] and not marker.exists()
    window.options.max_tokens.setValue(4000)
    send(qtbot, window, "a long one", wait=False)
    assert marker.exists()
    close_window(qtbot, window)  # closing mid-reply stops it cleanly: not a crash
    assert not marker.exists()
    again = open_window()
    assert "middle of a reply" not in again.notice.text()


def test_a_crash_with_prefix_caching_off_is_reported_without_the_offer(qtbot, open_window):
    paths.settings_file().write_text(json.dumps({"prefix_cache": False}), encoding="utf-8")
    paths.reply_marker_file().write_text(json.dumps({"prefix_cache": False, "message_id": None}), encoding="utf-8")
    window = open_window()
    assert "stopped in the middle of a reply" in window.notice.text()
    assert "Prefix caching" not in window.notice.text()
    assert not window.findChild(QPushButton, "noticeActionButton").isVisibleTo(window)
    wait_ready(qtbot, window)
    assert window.controller.loaded.spec.prefix_cache is False
