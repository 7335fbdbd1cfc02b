"""Help → Keyboard shortcuts: every shortcut the window has, read from the window itself.

Nothing here is a table of keys: the rows come from the live objects, so a shortcut added, changed or
translated anywhere shows up as it is —

- every ``QAction`` with a shortcut owned by the window or its children (menus, the conversation list…),
- every ``QShortcut`` (its What's This text says what it does),
- every button with a shortcut (a mnemonic or ``setShortcut``),
- keys a widget handles itself in ``keyPressEvent`` (the message box's Enter and Esc), which Qt cannot list:
  such a widget declares them with a ``key_bindings()`` method returning ``[(QKeySequence | str, text)]``.

Companion windows the window keeps (``window.dialogs``: the comparison, auto-tune…) are read too, once
they exist. Key texts are ``QKeySequence.toString(NativeText)``: "Ctrl+R" here, "⌘R" on macOS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QMenuBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from eagle_chat.ui.widgets import screen_fit
from eagle_chat.ui.words.i18n import translate

NATIVE = QKeySequence.SequenceFormat.NativeText


@dataclass(frozen=True)
class ShortcutRow:
    keys: str  # as the platform writes them, several joined by ", "
    text: str  # what it does, as the action shows it (translated)
    where: str  # the menu, pane or window it belongs to


def plain(text: str) -> str:
    """A menu text without its accelerator marks: "&Conversation" → "Conversation", "A && B" → "A & B",
    "文件(&F)" → "文件"."""
    text = re.sub(r"\(&\w\)", "", text)
    return re.sub(r"&(.)", r"\1", text).strip()


def key_text(sequences) -> str:
    return ", ".join(QKeySequence(s).toString(NATIVE) for s in sequences if not QKeySequence(s).isEmpty())


def collect_shortcuts(window: QWidget) -> list[ShortcutRow]:
    """The rows for ``window`` and the companion windows it keeps, each shortcut once, in a stable order."""
    rows: list[ShortcutRow] = []
    for root in (window, *companions(window)):
        for action in root.findChildren(QAction):
            keys = key_text(action.shortcuts())
            if keys and action.isVisible() and not action.isSeparator():
                rows.append(ShortcutRow(keys, plain(action.text()), _action_place(action, window)))
        for shortcut in root.findChildren(QShortcut):
            keys = key_text(shortcut.keys())
            if keys:
                text = shortcut.whatsThis() or translate("ShortcutsDialog", "(no description)")
                rows.append(ShortcutRow(keys, text, _place(shortcut.parent(), window)))
        for widget in (root, *root.findChildren(QWidget)):
            if isinstance(widget, QAbstractButton) and key_text([widget.shortcut()]):
                rows.append(ShortcutRow(key_text([widget.shortcut()]), plain(widget.text() or widget.accessibleName()),
                                        _place(widget.parentWidget(), window)))
            bindings = getattr(widget, "key_bindings", None)
            if callable(bindings):
                rows += [ShortcutRow(key_text([keys]), text, _place(widget, window)) for keys, text in bindings()]
    unique = list(dict.fromkeys(rows))  # each once
    places = list(dict.fromkeys(row.where for row in unique))
    return sorted(unique, key=lambda row: places.index(row.where))  # grouped by place, stable inside


def companions(window: QWidget) -> list[QWidget]:
    """The separate windows ``window.dialogs`` has made so far (those parented to the window are its
    children already)."""
    dialogs = getattr(window, "dialogs", None)
    found = vars(dialogs).values() if dialogs is not None else ()
    return [w for w in found if isinstance(w, QWidget) and w is not window and not window.isAncestorOf(w)]


def _action_place(action: QAction, main: QWidget) -> str:
    """The menu path of an action in a menu, else the pane it was added to, else its window."""
    owners = action.associatedObjects()
    for owner in owners:
        if isinstance(owner, QMenu):
            return _menu_path(owner)
    panes = [o for o in owners if isinstance(o, QWidget) and not isinstance(o, QMenuBar)]
    return _place(panes[0] if panes else action.parent(), main)


def _menu_path(menu: QMenu) -> str:
    """"View › Theme": the titles of the menu and the menus it was made in (``parent.addMenu(title)``).

    Not through ``menuAction().associatedObjects()``: once the window is shown, the menu bar's overflow menu
    (a QMenu Qt makes) lists every top-level menu too, and ``menuAction()`` on the temporary wrapper of that
    menu ties its action's wrapper to it — PySide marks the action deleted when the wrapper goes, and F1 then
    failed with "Internal C++ object (QAction) already deleted" on the list being walked."""
    titles = []
    while isinstance(menu, QMenu):
        titles.append(plain(menu.title()))
        menu = menu.parentWidget()
    return " › ".join(reversed(titles))


def _place(widget, main: QWidget) -> str:
    """The nearest named pane around ``widget`` in the main window; another window's title."""
    if not isinstance(widget, QWidget):
        return translate("ShortcutsDialog", "Main window")
    top = widget.window()
    if top is not main:
        return plain(top.windowTitle()) or top.objectName()
    while widget is not None and widget is not top:
        if widget.accessibleName():
            return widget.accessibleName()
        widget = widget.parentWidget()
    return translate("ShortcutsDialog", "Main window")


class ShortcutsDialog(QDialog):
    """The list of shortcuts, with a filter; Esc or Close closes it."""

    COLUMNS = 3

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self._window = window
        self.filter = QLineEdit()
        self.filter.setObjectName("shortcutsFilter")
        self.filter.setPlaceholderText(self.tr("Filter by key or action"))
        self.filter.setAccessibleName(self.tr("Filter shortcuts"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.table = QTableWidget(0, self.COLUMNS)
        self.table.setObjectName("shortcutsTable")
        self.table.setAccessibleName(self.tr("Keyboard shortcuts"))
        self.table.setAccessibleDescription(self.tr("One row per shortcut: its keys, what it does and where"))
        self.table.setHorizontalHeaderLabels([self.tr("Keys"), self.tr("Action"), self.tr("Where")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table, arrows move inside it
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.count_label = QLabel()
        self.count_label.setObjectName("shortcutsCount")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count_label)
        layout.addWidget(buttons)
        screen_fit.fit(self, QSize(620, 480))
        screen_fit.keep_on_screen(self)
        self.rows: list[ShortcutRow] = []
        self.refresh()

    def refresh(self) -> None:
        """Read the window's shortcuts again (they can change: a dialog opened, an action added)."""
        self.rows = collect_shortcuts(self._window)
        self.table.setRowCount(len(self.rows))
        for index, row in enumerate(self.rows):
            for column, text in enumerate((row.keys, row.text, row.where)):
                item = QTableWidgetItem(text)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                self.table.setItem(index, column, item)
        self._apply_filter(self.filter.text())

    def visible_rows(self) -> list[ShortcutRow]:
        return [row for index, row in enumerate(self.rows) if not self.table.isRowHidden(index)]

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().casefold()
        for index, row in enumerate(self.rows):
            match = not needle or any(needle in value.casefold() for value in (row.keys, row.text, row.where))
            self.table.setRowHidden(index, not match)
        shown = len(self.visible_rows())
        self.count_label.setText(self.tr("%n shortcut(s)", "", shown))


def open_shortcuts_dialog(window: QWidget) -> ShortcutsDialog:
    """Show the window's one shortcuts dialog (made on first use, read afresh each time). The comparison
    window is made first (not shown) if it is not yet: its F5, F11 and Alt+1…9 are what a presenter looks up
    before the demo, and were missing until it had been opened once."""
    dialogs = getattr(window, "dialogs", None)
    if dialogs is not None and hasattr(dialogs, "compare_view"):
        dialogs.compare_view()
    dialog = window.findChild(ShortcutsDialog, "shortcutsDialog")
    if dialog is None:
        dialog = ShortcutsDialog(window)
    else:
        dialog.refresh()
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog
