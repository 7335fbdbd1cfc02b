"""The Models menu, driven as a user does: open it (its pairs are read again), then trigger its items."""

from __future__ import annotations

from PySide6.QtGui import QAction



def menu_action(menu, text: str) -> QAction:
    found = [a for a in menu.actions() if a.text() == text]
    assert len(found) == 1, [a.text() for a in menu.actions()]
    return found[0]


def test_get_models_opens_the_dialog(qtbot, open_window):
    """It passed a Signal where Qt wants a callable: every click said "native Qt signal instance
    'sig_get_models' is not callable". The earlier test only checked that the item was there."""
    window = open_window()
    window.models_menu.aboutToShow.emit()  # what opening the menu does
    menu_action(window.models_menu, "Get models…").trigger()
    dialog = window.dialogs.get_models
    assert dialog is not None and dialog.isVisible() and dialog.objectName() == "getModelsDialog"

