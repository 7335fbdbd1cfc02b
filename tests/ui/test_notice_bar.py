"""A notice can be dismissed: the × hides it (it used to stay until something replaced it)."""

from __future__ import annotations

from PySide6.QtCore import Qt


def test_the_cross_dismisses_a_notice(qtbot, open_window, tiny_pair):
    window = open_window("--draft", str(tiny_pair[1]))  # a draft without a model: the window says so
    window.show()
    qtbot.waitExposed(window)
    assert window.notice.isVisible() and window.notice.text()
    close = window.notice.close_button
    assert close.isVisible() and close.accessibleName()
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert not window.notice.isVisible()
