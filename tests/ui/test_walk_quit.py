"""File → Quit (Ctrl+Q) closes the window as its close button does, and View → Language offers to start
EagleChat again (it used to say only, in the status bar, that the language applies at the next start)."""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest

from eagle_chat.ui.shell import restart


def test_ctrl_q_quits(qtbot, open_window):
    window = open_window()
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.closer.done, timeout=60_000)
    assert not window.isVisible() and not window.controller.engine.is_running()


def test_a_language_change_offers_a_restart_that_closes_and_starts_again(qtbot, open_window, monkeypatch):
    started: list[list[str]] = []
    monkeypatch.setattr(restart.QProcess, "startDetached",
                        staticmethod(lambda program, args: started.append([program, *args]) or (True, 1)))
    window = open_window()
    window.show()
    window.findChild(QAction, "language_zh_CN").trigger()
    assert window.notice.isVisibleTo(window) and "starts again" in window.notice.text()
    assert window.notice.action_button.isVisibleTo(window)
    assert window.notice.action_button.text().replace("&", "") == "Restart now"
    window.notice.action_button.click()
    qtbot.waitUntil(lambda: window.closer.done and bool(started), timeout=60_000)
    assert started[0][:3] == [sys.executable, "-m", "eagle_chat"]
    assert window.settings.language == "zh_CN"
