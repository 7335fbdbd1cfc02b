"""The conversation list's own behaviour, on the widget alone (no engine)."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from eagle_chat.core.storage.conversation import Conversation
from eagle_chat.ui.chat.conversation_list import ConversationList
from tests.gui import choose_in_context_menu


def test_right_clicks_leave_no_menus_behind(qtbot):
    """Each right-click made a QMenu child of the list that was never deleted (found by the smoke test of
    every action, which right-clicks every widget)."""
    widget = ConversationList()
    qtbot.addWidget(widget)
    widget.set_conversations([Conversation(id=1, title="First"), Conversation(id=2, title="Second")], 1)
    widget.show()
    qtbot.waitExposed(widget)
    point = widget.list.visualItemRect(widget.list.item(0)).center()
    for _ in range(3):
        items, chosen = choose_in_context_menu(widget.list.viewport(), point, 5)  # past its items: closes it
        assert items == ["Rename", "Delete"] and chosen is None
    qtbot.waitUntil(lambda: widget.findChildren(QMenu) == [])


def test_a_conversation_without_a_title_yet_is_named_in_the_windows_language(qtbot, qapp):
    from eagle_chat.ui.words import i18n

    i18n.apply_language(qapp, "zh_CN")  # the shared-app fixture puts English back afterwards
    widget = ConversationList()
    qtbot.addWidget(widget)
    widget.resize(220, 300)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_conversations([Conversation(id=1), Conversation(id=2, title="周末计划")], 1)
    assert widget.titles() == ["新对话", "周末计划"]
    widget.bring_to_top(Conversation(id=3))
    assert widget.titles()[0] == "新对话" and widget.list.item(0).toolTip() == "新对话"
