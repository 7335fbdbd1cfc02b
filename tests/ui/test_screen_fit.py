"""The window and every window it opens fit the screen: at 1280×720 (a 1920×1080 laptop at 150 %) and at
1024×768 every key control lies inside the screen's available area, in English and in Chinese.

Each case runs in a child process, because the offscreen platform's screen is chosen when the
QApplication starts (``offscreen:configfile=…``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget
from eagle_chat.app import create_main_window
from eagle_chat.ui.shell.shortcuts_dialog import open_shortcuts_dialog
from tests.ui import fit_probe

KEY_WIDGETS = ["chatView", "promptEdit", "sendButton", "stopButton", "deviceCombo", "assistantTokensSlider",
               "speedChart", "compareButton", "statsLabel", "serverToggle", "stateLabel", "modelLabel",
               "chooseModelsButton", "draftToggle", "newConversationButton", "conversationList",
               "systemPromptEdit", "prefixCacheCheck", "samplingCheck"]
window = create_main_window([])
app = QApplication.instance()
area = QGuiApplication.primaryScreen().availableGeometry()

def pump(until=lambda: False, seconds=0.3):
    fit_probe.pump(app, until, seconds)

def outside(widget, name):
    return fit_probe.outside(widget, name, area)

window.show()
pump(lambda: window.controller.state in ("ready", "empty"), None)
pump()
problems = outside(window, "main window") + outside(window.statusBar(), "status bar")
for name in KEY_WIDGETS:
    widget = window.findChild(QWidget, name)
    problems += [f"{name} missing"] if widget is None else outside(widget, name)
dialogs = [window.dialogs.open_get_models(), window.dialogs.open_compare(), window.dialogs.open_tune(),
           window.dialogs.open_preflight()]
try:
    dialogs.append(open_shortcuts_dialog(window))
except RuntimeError:
    pass  # Help → Keyboard shortcuts has its own defect (a deleted QAction), fixed elsewhere
pump()
for dialog in dialogs:
    problems += outside(dialog, dialog.objectName())
    for button in dialog.findChildren(QAbstractButton):
        if button.isVisible():
            problems += outside(button, f"{dialog.objectName()}: {button.text()}")
window.close()
pump(lambda: window.closer.done, None)
print("FIT " + json.dumps({"area": area.getRect(), "window": window.frameGeometry().getRect(),
                          "problems": problems}))
"""


def _probe(tmp_path: Path, width: int, height: int, lang: str = "en_US.UTF-8") -> dict:
    """Open the window (and its dialogs) on a ``width``×``height`` screen, with the home in ``tmp_path``."""
    screen = tmp_path / f"screen-{width}x{height}.json"
    screen.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": width, "height": height,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(LANG=lang, EAGLE_CHAT_HOME=str(home), QT_QPA_PLATFORM=f"offscreen:configfile={screen}",
               PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=240)
    line = next((x for x in result.stdout.splitlines() if x.startswith("FIT ")), None)
    assert line, result.stdout + result.stderr
    return json.loads(line[len("FIT "):])


@pytest.mark.parametrize(("width", "height", "lang"), [(1280, 720, "en_US.UTF-8"), (1024, 768, "en_US.UTF-8"),
                                                       (1280, 720, "zh_CN.UTF-8")])
def test_every_key_control_and_dialog_lies_on_a_small_screen(tmp_path, width, height, lang):
    fit = _probe(tmp_path, width, height, lang)
    assert fit["area"] == [0, 0, width, height]
    assert not fit["problems"], "\n".join(fit["problems"])


@pytest.mark.slow
def test_a_geometry_saved_on_a_larger_screen_is_restored_only_where_it_fits(tmp_path):
    big = _probe(tmp_path, 1920, 1080)  # closing saves the 1280×800 window of a large monitor
    assert big["window"][3] >= 800 and not big["problems"]
    small = _probe(tmp_path, 1280, 720)  # the same settings on a laptop
    assert not small["problems"], "\n".join(small["problems"])


def test_a_window_shown_partly_off_the_screen_is_brought_inside_and_shrunk_to_fit(qtbot):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QWidget

    from eagle_chat.ui.widgets import screen_fit

    widget = QWidget()
    qtbot.addWidget(widget)
    screen_fit.keep_on_screen(widget)
    area = screen_fit.available_area(widget)
    widget.setGeometry(area.right() - 100, area.bottom() - 100, area.width() + 200, 300)  # too wide, half off
    widget.show()
    qtbot.waitUntil(lambda: area.contains(widget.frameGeometry()))
    assert widget.width() <= area.width()
    widget.hide()
    widget.move(area.right() - 50, area.top())  # later shows leave it where the user put it
    widget.show()
    # The event: a zero timer started after this show has fired, so one the show started (as the first
    # show's bring_inside is) would have run before it.
    after_show = []
    QTimer.singleShot(0, lambda: after_show.append(True))
    qtbot.waitUntil(lambda: bool(after_show))
    assert widget.x() == area.right() - 50
