"""Every action of the real window, triggered: the menu bar's (into every submenu, re-read after each opening
since some menus are rebuilt), every context menu's, every link under the messages, every enabled button of
the window and of each dialog those open. Nothing is listed by hand: the test walks the menus, the widget
tree and the chat document, so a new action, button or link is driven without editing this file.

Modal file dialogs, questions and input dialogs are answered by stubs (a path under tmp_path, Yes unless the
code made another button the default, a title), so what each action does really runs. Afterwards nothing may
have reached the failure reporter, the log may hold no traceback, no exception may have escaped into Qt
(pytest-qt fails the test on one), and the window still answers a message.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QFileDialog,
    QInputDialog,
    QListWidget,
    QMenu,
    QMessageBox,
    QWidget,
)

from eagle_chat import paths
from tests.gui import choose_in_context_menu, close_popups, send, wait_ready

SETTLE_MS = 120_000  # a load, a speed-demo build or a comparison the action started, on 2 busy cores
NO_MENU = (Qt.ContextMenuPolicy.NoContextMenu, Qt.ContextMenuPolicy.PreventContextMenu,
           Qt.ContextMenuPolicy.ActionsContextMenu)


@dataclass
class Drive:
    """What the walk did, for the assertions and for the report when it fails."""

    driven: list[str] = field(default_factory=list)  # "Menu › Item", "context: widget › Item", "button: …"
    modals: list[str] = field(default_factory=list)  # what the stubs answered
    opened: list[str] = field(default_factory=list)  # windows that appeared (dialogs, companions)
    explored: set[str] = field(default_factory=set)  # windows whose buttons were clicked already


@pytest.fixture
def stubs(monkeypatch, tmp_path):
    """Answer every modal question: save → the suggested name under tmp_path, open → the newest file written
    there that the dialog's filter accepts (else Cancel), folder → a new empty folder, questions → their default button or Yes, text → a new title."""
    drive = Drive()
    out = tmp_path / "out"
    out.mkdir()

    def save(parent=None, caption="", folder="", filters="", *args, **kwargs):
        drive.modals.append(f"save: {caption}")
        return str(out / (Path(folder).name or "file")), ""

    def open_file(parent=None, caption="", folder="", filters="", *args, **kwargs):
        patterns = re.findall(r"\*\.\w+", filters) or ["*"]
        exported = sorted((f for pattern in patterns for f in out.rglob(pattern)), key=lambda f: f.stat().st_mtime)
        drive.modals.append(f"open: {caption} → {exported[-1].name if exported else 'Cancel'}")
        return (str(exported[-1]), "") if exported else ("", "")

    def open_files(parent=None, caption="", folder="", filters="", *args, **kwargs):
        chosen, kind = open_file(parent, caption, folder, filters)
        return ([chosen] if chosen else []), kind

    def folder(parent=None, caption="", *args, **kwargs):
        drive.modals.append(f"folder: {caption}")
        made = out / f"folder-{len(drive.modals)}"
        made.mkdir()
        return str(made)

    def question(parent, title, text, buttons=None, default=QMessageBox.StandardButton.NoButton):
        answer = default if default != QMessageBox.StandardButton.NoButton else QMessageBox.StandardButton.Yes
        drive.modals.append(f"question: {title} → {answer.name}")
        return answer

    def get_text(parent, title, label, *args, **kwargs):
        drive.modals.append(f"text: {title}")
        return "Renamed by the smoke test", True

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(open_file))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(open_files))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(folder))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(get_text))
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: drive.modals.append(f"url: {url}")))
    return drive


def quiet(window) -> bool:
    """Nothing the last action started is still running: no reply, load, build, batch or download."""
    c, d = window.controller, window.dialogs
    runners = [getattr(dialog, "runner", None) for dialog in (d.tune, d.compare, d.get_models) if dialog]
    return (c.state in ("ready", "empty") and not c.is_busy() and not window.models_menu.is_building()
            and not window.demo.flow.is_running()
            and not any(r.is_running() if hasattr(r, "is_running") else r.running for r in runners if r))


def settle(qtbot, window) -> None:
    qtbot.waitUntil(lambda: quiet(window), timeout=SETTLE_MS)


def title(text: str) -> str:
    return text.replace("&", "").strip()


# --- menus -----------------------------------------------------------------------------------------------
def walk_menu(qtbot, window, menu: QMenu, path: str, drive: Drive) -> None:
    """Trigger each item of ``menu`` (and of its submenus), opening it afresh before each (aboutToShow may
    rebuild it), with a conversation that has a reply open so what needs one is enabled."""
    done: set[str] = set()
    while True:
        ensure_reply(qtbot, window)
        menu.aboutToShow.emit()
        pending = [a for a in menu.actions() if not a.isSeparator() and a.isVisible()
                   and f"{a.objectName()}|{a.text()}" not in done]
        if not pending:
            return
        action = pending[0]
        done.add(f"{action.objectName()}|{action.text()}")
        if action.objectName() == "actionQuit":  # File → Quit closes the window: the test's last step
            continue
        name = f"{path} › {title(action.text())}"
        if action.menu() is not None:
            walk_menu(qtbot, window, action.menu(), name, drive)
            continue
        if action.isEnabled():
            trigger(qtbot, window, action, name, drive)


def trigger(qtbot, window, action: QAction, name: str, drive: Drive) -> None:
    began = time.monotonic()
    action.trigger()
    settle(qtbot, window)
    drive.driven.append(f"{name}  ({time.monotonic() - began:.1f} s)")
    explore_new_windows(qtbot, window, drive)


def ensure_reply(qtbot, window) -> None:
    """An action may have emptied the path (New conversation, Delete): send a message again."""
    path = window.controller.conversation.messages if window.controller.conversation else []
    if not any(m.role == "assistant" and m.content for m in path):
        window.prompt.clear()
        send(qtbot, window, "Say hello.")


# --- other windows ---------------------------------------------------------------------------------------
def explore_new_windows(qtbot, window, drive: Drive) -> None:
    """Click every enabled button of each window or dialog that appeared (once per window), then close it."""
    for top in QApplication.topLevelWidgets():
        if top is window or not top.isVisible() or isinstance(top, QMenu) or top.isWindow() is False:
            continue
        key = top.objectName() or type(top).__name__
        if key in drive.explored:
            continue
        drive.explored.add(key)
        drive.opened.append(key)
        click_buttons(qtbot, window, top, key, drive)
        if top is not window:
            top.close()
            settle(qtbot, window)
    for dialog in window.findChildren(QWidget):
        if dialog.isWindow() and dialog.isVisible() and not isinstance(dialog, QMenu) and dialog is not window:
            key = dialog.objectName() or type(dialog).__name__
            if key not in drive.explored:
                drive.explored.add(key)
                drive.opened.append(key)
                click_buttons(qtbot, window, dialog, key, drive)
                dialog.close()
                settle(qtbot, window)


def click_buttons(qtbot, window, top: QWidget, where: str, drive: Drive) -> None:
    """Click each enabled, visible button of ``top`` once (a checkable one twice: on, then back)."""
    done: set[int] = set()
    while True:
        pending = [b for b in top.findChildren(QAbstractButton)
                   if b.window() is top and b.isVisible() and b.isEnabled() and id(b) not in done]
        if not pending:
            return
        button = pending[0]
        done.add(id(button))
        label = title(button.text() or button.accessibleName() or button.toolTip() or button.objectName()
                      or f"{type(button).__name__} of {button.parentWidget().objectName()}")
        began = time.monotonic()
        QTimer.singleShot(0, close_popups)  # a button with a menu opens it modally
        button.click()
        settle(qtbot, window)
        if button.isCheckable() and button.isEnabled() and button.isVisible():
            QTimer.singleShot(0, close_popups)
            button.click()
            settle(qtbot, window)
        drive.driven.append(f"button: {where} › {label}  ({time.monotonic() - began:.1f} s)")
        explore_new_windows(qtbot, window, drive)


# --- context menus ----------------------------------------------------------------------------------------
def context_targets(window) -> list[QWidget]:
    """Every visible widget of the window that offers a context menu (a scroll area's through its viewport)."""
    found = []
    for widget in window.findChildren(QWidget):
        if widget.window() is not window or not widget.isVisible() or widget.contextMenuPolicy() in NO_MENU:
            continue
        if isinstance(widget, QAbstractScrollArea):
            widget = widget.viewport()
        if widget not in found and widget.parentWidget() is not None:
            found.append(widget)
    return found


def context_point(widget: QWidget) -> QPoint:
    owner = widget.parentWidget()
    if isinstance(owner, QListWidget) and owner.count():
        return owner.visualItemRect(owner.item(0)).center()
    return widget.rect().center()


def walk_context_menus(qtbot, window, drive: Drive) -> None:
    """Each item of each widget's context menu, the app's own menus (custom ones) first."""
    targets = sorted(context_targets(window),
                     key=lambda w: (w.parentWidget() if w.objectName() == "qt_scrollarea_viewport" else w)
                     .contextMenuPolicy() != Qt.ContextMenuPolicy.CustomContextMenu)
    for widget in targets:
        owner = widget.parentWidget() if widget.objectName() == "qt_scrollarea_viewport" else widget
        where = owner.objectName() or type(owner).__name__
        index = 0
        while widget.isVisible():
            items, chosen = choose_in_context_menu(widget, context_point(widget), index)
            if index >= len(items):
                break
            index += 1
            if chosen is not None:
                drive.driven.append(f"context: {where} › {chosen}")
                settle(qtbot, window)
                explore_new_windows(qtbot, window, drive)


# --- the chat's links ------------------------------------------------------------------------------------
def link_hrefs(view) -> list[str]:
    """Every link target in a chat view's document, in order, once per text run that carries it."""
    links, block = [], view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            href = it.fragment().charFormat().anchorHref()
            if href:
                links.append(href)
            it += 1
        block = block.next()
    return links


def chat_links(window) -> list[str]:
    """The window's chat links, each once."""
    return list(dict.fromkeys(link_hrefs(window.chat)))


def kind(href: str) -> str:
    """``action:regenerate:12`` → ``action:regenerate``; ``copy-code:3:0`` → ``copy-code``."""
    head, _, rest = href.partition(":")
    return f"{head}:{rest.split(':')[0]}" if head == "action" else head


def walk_chat_links(qtbot, window, drive: Drive) -> None:
    """Click each kind of link under the messages once (the newest of its kind), deletes last; the links are
    read again after each click, so the ones a click brings (‹ › after a regenerate) are clicked too."""
    done: set[str] = set()
    while True:
        links = [h for h in chat_links(window) if kind(h) not in done]
        if not links:
            return
        links.sort(key=lambda h: kind(h) == "action:delete")
        href = links[-1] if kind(links[0]) == "action:delete" else next(
            h for h in reversed(links) if kind(h) == kind(links[0]))
        done.add(kind(href))
        began = time.monotonic()
        window.chat.anchorClicked.emit(QUrl(href))
        settle(qtbot, window)
        drive.driven.append(f"link: {kind(href)}  ({time.monotonic() - began:.1f} s)")
        explore_new_windows(qtbot, window, drive)


# --- the test --------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_every_action_button_and_link_runs_without_a_failure(qtbot, qasync_loop, open_window, stubs):
    """With the app's asyncio loop (qasync) running, as app.main runs it: the API server button really
    starts the server (without one it failed once an earlier test had cleared the thread's loop)."""
    started = time.monotonic()
    window = open_window()
    window.settings.server_port = 0  # the Server switch listens on any free port, not the user's
    window.show()
    qtbot.waitExposed(window)
    window.options.max_tokens.setValue(24)
    reported: list[str] = []
    window.failures.sig_failure.connect(lambda sentence, _details: reported.append(sentence))
    send(qtbot, window, "Write a Python function that reverses a string.")
    send(qtbot, window, "And in C?")

    walk_chat_links(qtbot, window, stubs)
    ensure_reply(qtbot, window)
    walk_context_menus(qtbot, window, stubs)
    ensure_reply(qtbot, window)
    click_buttons(qtbot, window, window, "main window", stubs)
    for top in window.menuBar().actions():
        if top.menu() is not None:
            walk_menu(qtbot, window, top.menu(), title(top.text()), stubs)
    wait_ready(qtbot, window)

    print(f"\ndrove {len(stubs.driven)} actions, buttons and links in {time.monotonic() - started:.0f} s:")
    print("\n".join(stubs.driven))
    print("windows opened:", ", ".join(stubs.opened))
    print("modal answers:", "; ".join(stubs.modals))
    assert reported == [], reported
    window.app_log.flush()
    log = paths.log_file().read_text(encoding="utf-8")
    assert "Traceback" not in log, log[log.index("Traceback") - 300:][:3000]
    window.prompt.clear()
    message, _ = send(qtbot, window, "Still there?")  # the window still answers
    assert message.content and message is window.controller.conversation.messages[-1]
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # File → Quit
    qtbot.waitUntil(lambda: window.closer.done, timeout=60_000)  # closes properly (the fixture checks threads)
    assert not window.isVisible()
