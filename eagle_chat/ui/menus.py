"""The main window's menu bar: Models, View (compare, demo mode) and Conversation (new, regenerate, edit,
continue, export, import, search, stats export)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence


def build_menus(window) -> None:
    """Add the menus to ``window``'s menu bar; their actions call the window's public methods (and those of
    its :class:`~eagle_chat.ui.chat.message_actions.MessageActions`)."""
    bar = window.menuBar()
    bar.addMenu(window.models_menu)
    view_menu = bar.addMenu("&View")
    demo = QAction("Demo mode (full-screen comparison)", window, shortcut=QKeySequence(Qt.Key.Key_F11))
    demo.triggered.connect(lambda: window.open_compare(demo=True))
    compare = QAction("Compare baseline vs EAGLE-3", window)
    compare.triggered.connect(lambda: window.open_compare())
    view_menu.addActions([compare, demo])
    chat_menu = bar.addMenu("&Conversation")
    new = QAction("New conversation", window, shortcut=QKeySequence.StandardKey.New)
    new.setObjectName("actionNewConversation")
    new.triggered.connect(window.new_conversation)
    window.addAction(new)
    chat_menu.addAction(new)
    chat_menu.addSeparator()
    for action in window.message_actions.menu_actions():
        if action is None:
            chat_menu.addSeparator()
        else:
            chat_menu.addAction(action)
    export = QAction("Export stats (CSV, JSON) and chart (PNG)…", window)
    export.triggered.connect(window.export_clicked)
    chat_menu.addAction(export)
