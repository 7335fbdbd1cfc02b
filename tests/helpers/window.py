"""The real main window, wired to the real engine on the bundled tiny pair, driven as a user drives it.

``open_window`` is the factory every window test uses. The warm start (a reply per mode after every load)
and the next-turn prefill (the conversation run again after every reply) are *off* in the windows it makes:
both are background replies that keep the engine busy after a load and after every reply, which in ~100
window tests costs minutes and adds runs no test looks at. A test about them (or about how something
gives way to them) asks for them: ``open_window(warm_start=True)``, ``open_window(next_turn_prefill=True)``.
"""

from __future__ import annotations

import pytest

LOAD_TIMEOUT_MS = 60_000
REPLY_TIMEOUT_MS = 60_000


@pytest.fixture
def open_window(qtbot, eagle_home):
    """A factory: ``open_window(*argv)`` returns a loaded MainWindow; every window is closed at teardown.
    ``wait_loaded=False`` returns it at once; ``warm_start`` / ``next_turn_prefill`` turn those on (see the
    module)."""
    from eagle_chat.app import create_main_window
    from eagle_chat.ui.widgets.screen_fit import MAIN_WINDOW_SIZE

    windows = []

    def factory(*argv: str, wait_loaded: bool = True, warm_start: bool = False, next_turn_prefill: bool = False):
        window = create_main_window(list(argv))
        # Before the load that create_main_window started can end: its end reaches the window as a queued
        # signal, so no event has been processed yet, and the warm start looks at ``enabled`` when it comes.
        window.demo.warm_start.enabled = warm_start
        window.controller.next_turn.enabled = next_turn_prefill
        # The offscreen screen is 800×800, so the window fits itself to that; tests run at the size it has on
        # a desktop with room for it (tests/ui/test_screen_fit.py checks small screens in child processes).
        window.resize(MAIN_WINDOW_SIZE)
        windows.append(window)  # not qtbot.addWidget: pytest-qt would delete it before a close is over
        if wait_loaded:
            wait_ready(qtbot, window)
        return window

    yield factory
    for window in windows:
        window.close()  # waits for a reply or a load to end first (the window says "Closing after …")
        qtbot.waitUntil(lambda: window.closer.done, timeout=LOAD_TIMEOUT_MS)
        assert not window.controller.engine.is_running()
        window.deleteLater()


def close_window(qtbot, window) -> None:
    """Close ``window`` as the user does and wait until it is really closed (a reply stops first)."""
    window.close()
    qtbot.waitUntil(lambda: window.closer.done, timeout=LOAD_TIMEOUT_MS)


def wait_ready(qtbot, window) -> None:
    qtbot.waitUntil(lambda: window.controller.state in ("ready", "empty"), timeout=LOAD_TIMEOUT_MS)
    assert window.controller.state == "ready", window.notice.text()


def send(qtbot, window, text: str, *, wait: bool = True):
    """Type ``text`` into the prompt and press Enter, like a user; returns the finished (message, result)."""
    from PySide6.QtCore import Qt

    window.prompt.setFocus()
    qtbot.keyClicks(window.prompt, text)
    if not wait:
        qtbot.keyClick(window.prompt, Qt.Key.Key_Return)
        return None
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as blocker:
        qtbot.keyClick(window.prompt, Qt.Key.Key_Return)
    return blocker.args


def close_popups() -> None:
    """Close any open menu (a button's menu, a context menu)."""
    from PySide6.QtWidgets import QApplication

    while (popup := QApplication.activePopupWidget()) is not None:
        popup.close()


def choose_in_context_menu(widget, pos, index: int) -> tuple[list[str], str | None]:
    """Right-click ``widget`` at ``pos`` and choose the ``index``-th item of the menu it shows, as a user does
    (made current, then Enter: a menu run by exec() hands it back to its caller). Returns the menu's item
    texts and the chosen one (None: nothing to choose there, or no menu)."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMenu

    seen: list[str] = []
    chosen: list[str] = []

    def choose():
        popup = QApplication.activePopupWidget()
        if not isinstance(popup, QMenu) or seen:
            return
        items = [a for a in popup.actions() if not a.isSeparator() and a.isVisible()]
        seen.extend(a.text().replace("&", "").split("\t")[0].strip() for a in items)
        if index < len(items) and items[index].isEnabled() and items[index].menu() is None:
            chosen.append(seen[index])
            popup.setActiveAction(items[index])
            QTest.keyClick(popup, Qt.Key.Key_Return)
        else:
            popup.close()

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(choose)  # exec() blocks: choose from inside it
    timer.start()
    QApplication.sendEvent(widget, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, widget.mapToGlobal(pos)))
    choose()  # popup() returned at once
    timer.stop()
    close_popups()
    return seen, (chosen[0] if chosen else None)
