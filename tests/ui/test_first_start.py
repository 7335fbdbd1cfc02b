"""The first minutes on the bundled pair: where the keyboard is, and what the chat says to a newcomer."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.gui import REPLY_TIMEOUT_MS, send, wait_ready


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


def test_the_bundled_pair_opens_on_a_card_that_says_it_is_a_toy_and_offers_a_real_model(qtbot, open_window):
    from eagle_chat.core.acquisition.staging import format_bytes

    window = open_window()
    _activate(qtbot, window)
    card, first = window.first_run.card, window.first_run.suggestion
    assert window.model.bundled and card.isVisibleTo(window)
    assert "toy" in card.title.text() and "Python" in card.body.text()
    for fact in (first.entry.title, format_bytes(first.approx_bytes), first.device):
        assert fact in card.get_button.text()
    qtbot.mouseClick(card.get_button, Qt.MouseButton.LeftButton)
    dialog = window.dialogs.get_models
    assert dialog is not None and dialog.isVisible()
    assert dialog.selected_entry().name == first.entry.name and dialog.device_combo.currentText() == first.device
    dialog.close()
    send(qtbot, window, "Hello")
    assert not card.isVisibleTo(window)  # a conversation with messages: the chat is the user's
    window.new_conversation()
    assert card.isVisibleTo(window)
    qtbot.mouseClick(card.dismiss_button, Qt.MouseButton.LeftButton)
    window.new_conversation()
    assert not card.isVisibleTo(window)  # hidden by the user: it stays hidden


def test_the_card_loads_the_speed_demo_pair_in_one_click_and_then_steps_aside(qtbot, open_window):
    window = open_window()
    _activate(qtbot, window)
    card = window.first_run.card
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS * 2):
        qtbot.mouseClick(card.demo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.model.name == "speed-demo")
    assert not card.isVisibleTo(window)  # not the toy pair any more


def test_the_model_label_shows_the_whole_name_and_ends_in_an_ellipsis_only_when_it_must(qtbot, open_window):
    from eagle_chat.core.models.choice import ModelChoice
    from eagle_chat.ui.widgets import screen_fit
    from eagle_chat.ui.words import texts

    window = open_window()
    window.resize(screen_fit.MAIN_WINDOW_SIZE)  # the default size on a screen that has room for it
    window.show()
    qtbot.waitExposed(window)
    label, full = window.model_bar.model_label, texts.model_label(window.model)
    assert label.text() == full and full in label.toolTip()
    assert not label.is_elided(), (label.width(), full)
    long = texts.model_label(ModelChoice(Path("/models") / ("qwen3-8b-int4-" * 8), Path("/models/qwen3-8b-eagle3")))
    window.model_bar.set_model_text(long)
    qtbot.waitUntil(label.is_elided)  # too long for the bar: "…", and the tooltip still has it all
    assert long in label.toolTip()
