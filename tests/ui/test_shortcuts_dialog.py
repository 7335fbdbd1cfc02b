"""Help → Keyboard shortcuts lists what the real window has, read from its actions and shortcuts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QTableWidget

from eagle_chat.ui.shell.shortcuts_dialog import ShortcutRow, open_shortcuts_dialog, plain

NATIVE = QKeySequence.SequenceFormat.NativeText


def native(keys) -> str:
    return QKeySequence(keys).toString(NATIVE)


def table_rows(dialog) -> list[tuple[str, str, str]]:
    table = dialog.findChild(QTableWidget, "shortcutsTable")
    return [tuple(table.item(row, column).text() for column in range(3))
            for row in range(table.rowCount()) if not table.isRowHidden(row)]


def action(window, name: str) -> QAction:
    found = window.findChild(QAction, name)
    assert found is not None, name
    return found


@pytest.mark.slow
def test_the_dialog_lists_the_window_s_own_actions_and_follows_them(qtbot, open_window):
    window = open_window()
    dialog = open_shortcuts_dialog(window)
    assert dialog.objectName() == "shortcutsDialog" and dialog.isVisible()
    rows = table_rows(dialog)
    assert (native(QKeySequence.StandardKey.New), "New conversation", "Conversation") in rows
    assert (native("Ctrl+R"), "Regenerate reply", "Conversation") in rows
    assert (native("Ctrl+F") + ", " + native("Ctrl+K"), "Search conversations", "Conversation") in rows
    assert (native("F11"), "Prepare the demo (pre-flight check)…", "Demo") in rows
    assert (native("F2"), "Rename", "Conversations") in rows  # the conversation list's own actions
    # Every action of the window that has a shortcut is listed, with its text as the action shows it.
    with_keys = [a for a in window.findChildren(QAction) if a.shortcuts() and a.isVisible()]
    assert len(with_keys) >= 7
    assert {plain(a.text()) for a in with_keys} <= {text for _, text, _ in rows}

    # Read from the live objects, not a table: a changed shortcut and a new action show up on reopening.
    action(window, "actionRegenerate").setShortcut(QKeySequence("Ctrl+Shift+R"))
    extra = QAction("Toggle the side panel", window, shortcut=QKeySequence("Ctrl+Alt+P"))
    window.addAction(extra)
    assert open_shortcuts_dialog(window) is dialog  # one dialog per window
    rows = table_rows(dialog)
    assert (native("Ctrl+Shift+R"), "Regenerate reply", "Conversation") in rows
    assert (native("Ctrl+R"), "Regenerate reply", "Conversation") not in rows
    assert (native("Ctrl+Alt+P"), "Toggle the side panel", "Main window") in rows


def test_the_comparisons_keys_are_listed_before_it_was_ever_opened(qtbot, open_window):
    """F1 before the comparison was opened left out F5 and Alt+1…9 (what a presenter looks up first)."""
    window = open_window()
    assert window.dialogs.compare is None
    rows = table_rows(open_shortcuts_dialog(window))
    compare = window.dialogs.compare
    assert compare is not None and not compare.isVisible()
    found = {(keys, where) for keys, _, where in rows}
    assert (native("F5"), compare.windowTitle()) in found
    assert all((native(f"Alt+{n}"), compare.windowTitle()) in found for n in range(1, 5)), sorted(found)


def test_the_filter_and_esc(qtbot, open_window):
    window = open_window()
    dialog = open_shortcuts_dialog(window)
    total = len(table_rows(dialog))
    qtbot.keyClicks(dialog.filter, "regenerate")
    assert [text for _, text, _ in table_rows(dialog)] == ["Regenerate reply"]
    assert dialog.count_label.text().startswith("1 ")
    dialog.filter.clear()
    assert len(table_rows(dialog)) == total
    dialog.table.setFocus()
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_keys_a_widget_handles_itself_are_listed_when_it_declares_them(qtbot, open_window):
    window = open_window()
    window.model_bar.key_bindings = lambda: [(QKeySequence("Alt+Down"), "Open the device list")]
    rows = open_shortcuts_dialog(window).rows
    assert ShortcutRow(native("Alt+Down"), "Open the device list", "Main window") in rows


@pytest.mark.slow
def test_send_and_stop_keys_of_the_message_box_are_listed(qtbot, open_window):
    window = open_window()
    rows = open_shortcuts_dialog(window).rows
    keys = {row.keys for row in rows if row.where == window.prompt.accessibleName()}
    assert native(Qt.Key.Key_Return) in keys and native(Qt.Key.Key_Escape) in keys


@pytest.mark.slow
def test_f1_works_in_a_shown_window(qtbot, open_window):
    """Once a window is shown its menu bar has an overflow menu that lists the top-level menus too. Walking up
    from a menu through ``menuAction().associatedObjects()`` reached it and made PySide mark an action
    deleted: F1 failed every time, but the other tests here never showed the window."""
    window = open_window()
    window.show()
    qtbot.waitExposed(window)
    action(window, "actionKeyboardShortcuts").trigger()
    dialog = window.findChild(QDialog, "shortcutsDialog")
    assert dialog is not None and dialog.isVisible()
    rows = table_rows(dialog)
    assert (native("Ctrl+R"), "Regenerate reply", "Conversation") in rows  # not " › Conversation"
    assert (native(QKeySequence.StandardKey.HelpContents), "Keyboard shortcuts", "Help") in rows
