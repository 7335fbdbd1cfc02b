"""A search left in the conversation list's box hid a newly started conversation (issue 40, item 10): it matches
nothing yet, so the user typed into a conversation the list did not show. Starting one (the button, the menu's
New conversation)
ends the search; checked on the list as laid out — the row under the list's first line is the new one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from tests.gui import send


def _top_row_id(window):
    """The conversation whose row is drawn at the top of the list (what a person sees first)."""
    widget = window.conversations.list
    widget.doItemsLayout()
    item = widget.itemAt(widget.viewport().rect().left() + 4, 4)  # the first line of the list, as laid out
    return item.data(Qt.ItemDataRole.UserRole) if item is not None and not item.isHidden() else None


def test_starting_a_conversation_during_a_search_shows_it(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(8)
    send(qtbot, window, "First topic")
    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    send(qtbot, window, "Second topic")
    qtbot.keyClicks(window.conversations.search, "first")
    qtbot.waitUntil(lambda: window.conversations.titles() == ["First topic"], timeout=5_000)

    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    new = window.controller.conversation.id
    assert _top_row_id(window) == new and window.conversations.current_id() == new
    assert window.conversations.search.text() == ""
    assert len(window.conversations.titles()) == 3
    send(qtbot, window, "Third topic")  # what the user types into it: its row is there, on top
    assert window.conversations.titles()[0] == "Third topic" and _top_row_id(window) == new

    qtbot.keyClicks(window.conversations.search, "second")  # Conversation → New conversation (Ctrl+N) the same
    qtbot.waitUntil(lambda: window.conversations.titles() == ["Second topic"], timeout=5_000)
    window.findChild(QAction, "actionNewConversation").trigger()
    assert window.conversations.search.text() == "" and _top_row_id(window) == window.controller.conversation.id
