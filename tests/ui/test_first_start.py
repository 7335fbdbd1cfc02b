"""The first minutes on the bundled pair: where the keyboard is, and what the chat says to a newcomer."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.gui import wait_ready


def _activate(qtbot, window) -> None:
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)


def _type(text: str) -> None:
    """Keys go where a user's keys go: to the widget that has the keyboard focus."""
    QTest.keyClicks(QApplication.focusWidget(), text)


def test_typing_right_after_start_goes_to_the_message_box(qtbot, open_window):
    window = open_window()
    _activate(qtbot, window)
    _type("hello there friend")
    assert QApplication.focusWidget() is window.prompt
    assert window.prompt.toPlainText() == "hello there friend"
    assert window.controller.store.list_conversations() == []  # a space must not press "New conversation"


def test_the_message_box_has_the_keyboard_after_a_new_or_opened_conversation(qtbot, open_window):
    window = open_window()
    _activate(qtbot, window)
    window.conversations.new_button.setFocus()
    QTest.keyClick(window.conversations.new_button, Qt.Key.Key_Space)  # New conversation, from the keyboard
    qtbot.waitUntil(lambda: len(window.controller.store.list_conversations()) == 1)
    _type("first")
    assert window.prompt.toPlainText() == "first"
    window.prompt.clear()
    window.conversations.list.setFocus()
    item = window.conversations.list.item(0)
    window.conversations.list.setCurrentItem(item)
    QTest.keyClick(window.conversations.list, Qt.Key.Key_Return)  # opens the conversation
    _type("second")
    assert window.prompt.toPlainText() == "second"
    wait_ready(qtbot, window)
