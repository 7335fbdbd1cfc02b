"""Every control a keyboard can reach in the Get models dialog, the server panel, the remote server dialog,
the composer and the conversation list has a name a screen reader reads out (not just an object name)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QWidget

pytestmark = pytest.mark.slow  # opens the window on the tiny model


def spoken_name(widget: QWidget) -> str:
    """What a screen reader announces as the widget's name."""
    interface = QAccessible.queryAccessibleInterface(widget)
    name = interface.text(QAccessible.Text.Name) if interface is not None else ""
    return (name or widget.accessibleName()).strip()


def focusable(root: QWidget, *, visible_only: bool = True) -> list[QWidget]:
    """``root`` and its descendants that take keyboard focus in ``root``'s window (a combo box's popup list
    is a window of its own, read as part of the combo box)."""
    found = []
    for widget in [root, *root.findChildren(QWidget)]:
        if widget.focusPolicy() == Qt.FocusPolicy.NoFocus or widget.window() is not root.window():
            continue
        if visible_only and not (widget is root or widget.isVisibleTo(root)):
            continue
        found.append(widget)
    return found


def unnamed(widgets: list[QWidget]) -> list[str]:
    return [f"{type(w).__name__} {w.objectName() or '(no object name)'}" for w in widgets if not spoken_name(w)]


def test_get_models_dialog_controls_have_names(qtbot):
    from eagle_chat.ui.models.get_models import GetModelsDialog

    dialog = GetModelsDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    controls = focusable(dialog)
    names = {w.objectName() for w in controls}
    assert {"catalogList", "downloadDeviceCombo", "sourceCombo", "endpointEdit", "downloadButton"} <= names
    assert unnamed(controls) == []
    assert dialog.device_combo.accessibleName() == "Device"  # its own name, not the current item ("CPU")


def test_window_controls_have_names(qtbot, open_window):
    window = open_window()
    composer, conversations, panel = window.composer, window.conversations, window.server
    composer.show_edit_note("Editing your message")  # the note's Cancel button shows while editing
    panel.log.setVisible(True)  # shown once the server runs
    controls = focusable(composer) + focusable(conversations)
    controls += [w for part in (panel.toggle, panel.url_label, panel.log) for w in focusable(part)]
    names = {w.objectName() for w in controls}
    assert {"promptEdit", "sendButton", "stopButton", "cancelEditButton", "newConversationButton",
            "conversationSearch", "conversationList", "serverToggle", "serverUrlLabel", "apiRequestLog"} <= names
    assert unnamed(controls) == []
    assert spoken_name(panel.url_label) == "API server address"  # empty until the server runs: named anyway

    dialog = window.remote.choose()
    try:
        controls = focusable(dialog)
        assert {"remoteUrlEdit", "remoteKeyEdit", "remoteModelEdit"} <= {w.objectName() for w in controls}
        assert unnamed(controls) == []
        assert spoken_name(dialog.key) == "API key"
    finally:
        dialog.reject()
