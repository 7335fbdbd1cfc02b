"""At the window's default size no caption is cut: every label, check box and button is at least as wide as
its text needs (its sizeHint), and a button that opens a menu leaves room for the menu's arrow — in English
and in Chinese. Labels that wrap, or end in "…" with the whole text in their tooltip, are exempt.

Runs in a child process per language (the language is chosen when the window is made), on a screen large
enough for the default 1280×800 window."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, time
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QSizePolicy, QStyle, QStyleOptionToolButton, \
    QToolButton, QWidget
from eagle_chat.app import create_main_window
from eagle_chat.ui.speed.controls import ElidedLabel

window = create_main_window([])
app = QApplication.instance()
window.show()
while window.controller.state not in ("ready", "empty"):  # however long the load takes (timeout= bounds it)
    app.processEvents()
    time.sleep(0.005)
for _ in range(30):
    app.processEvents()
    time.sleep(0.005)

def needed(widget):
    width = widget.sizeHint().width()
    if isinstance(widget, QToolButton) and widget.menu() is not None \
            and widget.popupMode() == QToolButton.ToolButtonPopupMode.InstantPopup:
        # Qt draws the arrow of an instant-popup tool button over its text and does not count it
        option = QStyleOptionToolButton()
        widget.initStyleOption(option)
        width = max(width, widget.fontMetrics().horizontalAdvance(widget.text().replace("&", ""))
                    + widget.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, option, widget)
                    + 2 * widget.style().pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, option, widget))
    return width

clipped = []
for widget in window.findChildren(QWidget):
    if not widget.isVisible() or not isinstance(widget, (QLabel, QAbstractButton)):
        continue
    if isinstance(widget, QLabel) and (widget.wordWrap() or isinstance(widget, ElidedLabel) or not widget.text()):
        continue
    if widget.sizePolicy().horizontalPolicy() == QSizePolicy.Policy.Ignored:
        continue
    if widget.width() < needed(widget):
        clipped.append(f"{widget.objectName() or type(widget).__name__} {widget.text()!r}: "
                       f"{widget.width()} < {needed(widget)}")
window.close()
while not window.closer.done:
    app.processEvents()
print("CLIPPED " + json.dumps({"size": window.size().toTuple(), "clipped": clipped}, ensure_ascii=False))
"""


@pytest.mark.parametrize("lang", ["en_US.UTF-8", "zh_CN.UTF-8"])
def test_no_caption_is_cut_at_the_default_size(tmp_path, lang):
    screen = tmp_path / "screen.json"  # a monitor with room for the default 1280×800
    screen.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": 1600, "height": 1000,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(LANG=lang, EAGLE_CHAT_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT),
               QT_QPA_PLATFORM=f"offscreen:configfile={screen}")
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=240)
    line = next((x for x in result.stdout.splitlines() if x.startswith("CLIPPED ")), None)
    assert line, result.stdout + result.stderr
    found = json.loads(line[len("CLIPPED "):])
    assert found["size"] == [1280, 800]
    assert not found["clipped"], "\n".join(found["clipped"])
