"""The main window's menu bar: File (Quit, Ctrl+Q), Models, View (compare, theme, language), Demo (pre-flight, full screen,
speed-demo pair) and Conversation (new, regenerate, edit, continue, export, import, search, stats export)."""

from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication

from eagle_chat.ui.speed import exporters
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.words import i18n
from eagle_chat.ui.shell.about_dialog import open_about_dialog
from eagle_chat.ui.shell.restart import restart
from eagle_chat.ui.words.i18n import translate
from eagle_chat.ui.shell.shortcuts_dialog import open_shortcuts_dialog


def build_menus(window) -> None:
    """Add the menus to ``window``'s menu bar; their actions call the window's public methods (and those of
    its :class:`~eagle_chat.ui.chat.message_actions.MessageActions`)."""
    bar = window.menuBar()
    file_menu = bar.addMenu(translate("menus", "&File"))
    quit_action = QAction(translate("menus", "&Quit"), window, shortcut=QKeySequence("Ctrl+Q"))
    quit_action.setObjectName("actionQuit")
    quit_action.setMenuRole(QAction.MenuRole.QuitRole)
    quit_action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)  # from the comparison window too
    quit_action.triggered.connect(window.close)  # the usual close: stops a reply, saves, waits for the engine
    file_menu.addAction(quit_action)
    bar.addMenu(window.models_menu)
    view_menu = bar.addMenu(translate("menus", "&View"))
    compare = QAction(translate("menus", "Compare baseline vs EAGLE-3"), window)
    compare.triggered.connect(lambda: window.open_compare())
    view_menu.addAction(compare)
    view_menu.addSeparator()
    add_appearance_menus(window, view_menu)
    demo_menu = bar.addMenu(translate("menus", "&Demo"))
    preflight = QAction(translate("menus", "&Prepare the demo (pre-flight check)…"), window, shortcut=QKeySequence(Qt.Key.Key_F11))
    preflight.setObjectName("demoPreflightAction")
    preflight.triggered.connect(lambda: window.dialogs.open_preflight())
    full = QAction(translate("menus", "&Full-screen comparison"), window, shortcut=QKeySequence("Shift+F11"))
    full.setObjectName("demoFullScreenAction")
    full.triggered.connect(lambda: window.open_compare(demo=True))
    speed = QAction(translate("menus", "Use the &speed-demo pair (build, load at f32, tune)"), window)
    speed.setObjectName("demoSpeedPairAction")
    speed.triggered.connect(lambda: window.demo.flow.start(run=False))
    demo_menu.addActions([preflight, full, speed])
    chat_menu = bar.addMenu(translate("menus", "&Conversation"))
    new = QAction(translate("menus", "New conversation"), window, shortcut=QKeySequence.StandardKey.New)
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
    export = QAction(translate("menus", "Export stats (CSV, JSON) and chart (PNG)…"), window)
    export.triggered.connect(lambda: exporters.export_from_window(window))
    chat_menu.addAction(export)
    chat_menu.addSeparator()
    tools = QAction(translate("menus", "&Tools (MCP servers)…"), window)
    tools.setObjectName("actionTools")
    tools.triggered.connect(lambda: window.agent.open_tools_dialog())
    chat_menu.addAction(tools)
    help_menu = bar.addMenu(translate("menus", "&Help"))
    keys = QAction(translate("menus", "&Keyboard shortcuts"), window, shortcut=QKeySequence.StandardKey.HelpContents)
    keys.setObjectName("actionKeyboardShortcuts")
    keys.triggered.connect(lambda: open_shortcuts_dialog(window))
    help_menu.addAction(keys)
    about = QAction(translate("menus", "&About EagleChat"), window)
    about.setObjectName("actionAbout")
    about.setMenuRole(QAction.MenuRole.AboutRole)
    about.triggered.connect(lambda: open_about_dialog(window))
    help_menu.addAction(about)


def add_appearance_menus(window, view_menu) -> None:
    """View → Theme (applied at once) and View → Language (applied on restart, which the notice offers)."""
    _choice_menu(view_menu, translate("menus", "&Theme"), "theme", window.settings.theme,
                 (("system", translate("menus", "Follow the system")), ("light", translate("menus", "Light")),
                  ("dark", translate("menus", "Dark"))),
                 lambda value: _set_theme(window, value))
    _choice_menu(view_menu, translate("menus", "&Language"), "language", window.settings.language,
                 ((None, translate("menus", "Follow the system")), *i18n.LANGUAGES.items()),
                 lambda value: _set_language(window, value))


def _choice_menu(parent, title: str, name: str, current, choices, on_choose) -> None:
    """A submenu of exclusive checkable actions, objectName ``<name>Menu`` / ``<name>_<value>``
    (``system`` for None), the ``current`` value checked; choosing one calls ``on_choose(value)``."""
    menu = parent.addMenu(title)
    menu.setObjectName(f"{name}Menu")
    group = QActionGroup(menu)
    for value, label in choices:
        action = menu.addAction(label)
        action.setObjectName(f"{name}_{value or 'system'}")
        action.setCheckable(True)
        action.setChecked(current == value)
        group.addAction(action)
        action.triggered.connect(lambda _=False, v=value: on_choose(v))


def _set_theme(window, value: str) -> None:
    theme.apply_theme(QApplication.instance(), value)
    window.binder.update(theme=value)


def _set_language(window, value: str | None) -> None:
    window.binder.update(language=value)
    window.binder.flush()  # on disk before a restart reads it
    window.show_notice(translate("menus", "The new language applies when EagleChat starts again."),
                       action=(translate("menus", "Restart now"), lambda: restart(window)))
