"""Thinking switched on with a model that does not think: the window says so, once, and offers to switch it
off (the chat used to show nothing and say nothing)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.gui import send


@pytest.mark.slow
def test_a_model_that_answers_without_thinking_is_named_and_thinking_can_be_switched_off(qtbot, open_window):
    window = open_window()
    assert window.options.thinking.isEnabled()  # the tiny pair's template accepts enable_thinking
    window.options.thinking.setChecked(True)
    window.options.max_tokens.setValue(12)
    message, _result = send(qtbot, window, "Think about quicksort.")
    assert not message.thinking and message.content  # it answered without a thought
    assert window.notice.isVisibleTo(window) and "without thinking" in window.notice.text()
    qtbot.mouseClick(window.notice.action_button, Qt.MouseButton.LeftButton)
    assert not window.options.thinking.isChecked()


def test_the_note_is_not_shown_when_thinking_was_off(qtbot, open_window):
    window = open_window()
    window.options.thinking.setChecked(False)
    window.options.max_tokens.setValue(8)
    send(qtbot, window, "Hello")
    assert "without thinking" not in window.notice.text()
