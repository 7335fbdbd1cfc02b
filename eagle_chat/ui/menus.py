"""The main window's menu bar: Models, View (compare), Demo (pre-flight, full screen, speed-demo pair) and
Conversation (export, new)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence


def build_menus(window) -> None:
    """Add the menus to ``window``'s menu bar; their actions call the window's public methods."""
    bar = window.menuBar()
    bar.addMenu(window.models_menu)
    view_menu = bar.addMenu("&View")
    compare = QAction("Compare baseline vs EAGLE-3", window)
    compare.triggered.connect(lambda: window.open_compare())
    view_menu.addAction(compare)
    demo_menu = bar.addMenu("&Demo")
    preflight = QAction("&Prepare the demo (pre-flight check)…", window, shortcut=QKeySequence(Qt.Key.Key_F11))
    preflight.setObjectName("demoPreflightAction")
    preflight.triggered.connect(lambda: window.dialogs.open_preflight())
    full = QAction("&Full-screen comparison", window, shortcut=QKeySequence("Shift+F11"))
    full.setObjectName("demoFullScreenAction")
    full.triggered.connect(lambda: window.open_compare(demo=True))
    speed = QAction("Use the &speed-demo pair (build, load at f32, tune)", window)
    speed.setObjectName("demoSpeedPairAction")
    speed.triggered.connect(lambda: window.demo.flow.start(run=False))
    demo_menu.addActions([preflight, full, speed])
    chat_menu = bar.addMenu("&Conversation")
    export = QAction("Export stats (CSV, JSON) and chart (PNG)…", window)
    export.triggered.connect(window.export_clicked)
    chat_menu.addAction(export)
    new = QAction("New conversation", window, shortcut=QKeySequence.StandardKey.New)
    new.triggered.connect(window.new_conversation)
    window.addAction(new)
