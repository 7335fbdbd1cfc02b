"""The speed side speaks the installed language: a QTranslator compiled here from a small .ts (with
pyside6-lrelease, as tools/translations.py builds the shipped ones) turns the real widgets' texts Chinese,
contexts, disambiguations, tables (QT_TRANSLATE_NOOP) and plurals included."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAccessible, QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow

from eagle_chat.ui.speed.controls import ModelBar, OptionsPanel
from eagle_chat.ui.shell.shortcuts_dialog import ShortcutsDialog
from eagle_chat.ui.speed.side_panel import SidePanel
from eagle_chat.ui.shell.status_area import StatusArea

# context -> [(source, disambiguation, translation)]; a list translation is a plural's forms
MESSAGES = {
    "SidePanel": [("Speed", "", "速度"), ("Compare baseline vs EAGLE-3", "", "对比基线与 EAGLE-3"),
                  ("Show drafted tokens", "", "显示草稿 token")],
    "SpeedChart": [("s", "seconds since the reply started", "秒"), ("baseline", "", "基线"),
                   ("Speed chart", "", "速度图")],
    "ModelBar": [("Draft tokens (K)", "", "草稿 token 数（K）"), ("{device} (not available)", "", "{device}（不可用）"),
                 ("Speculative decoding with the EAGLE-3 draft (off: plain decoding)", "",
                  "使用 EAGLE-3 草稿模型投机解码（关闭：普通解码）")],
    "OptionsPanel": [("Precision", "", "精度")],
    "StatusArea": [("Ready — {model} on {device}", "", "就绪 — {model}，运行于 {device}")],
    "ShortcutsDialog": [("%n shortcut(s)", "", ["%n 个快捷键"]), ("Keyboard shortcuts", "", "键盘快捷键")],
}


@pytest.fixture
def chinese(chinese_translator):
    return chinese_translator({(context, source, comment): translation for context, messages in MESSAGES.items()
                               for source, comment, translation in messages})


def test_the_side_panel_and_the_model_bar_show_chinese(qtbot, chinese):
    side, bar = SidePanel(), ModelBar()
    qtbot.addWidget(side)
    qtbot.addWidget(bar)
    assert side.charts.tabText(0) == "速度"
    assert side.compare_button.text() == "对比基线与 EAGLE-3"
    assert side.drafted_toggle.text() == "显示草稿 token"
    assert side.chart.accessibleName() == "速度图"
    assert side.chart._x.titleText() == "秒"  # "s" with its disambiguation
    assert side.chart.begin(1, "baseline").name() == "基线"  # a QT_TRANSLATE_NOOP table entry
    assert side.chart.begin(2, "speculative").name() == "EAGLE-3"  # a name, never translated
    slider = QAccessible.queryAccessibleInterface(bar.k_slider)
    assert slider.text(QAccessible.Text.Name) == "草稿 token 数（K）"  # what a screen reader says
    assert bar.draft_toggle.toolTip() == "使用 EAGLE-3 草稿模型投机解码（关闭：普通解码）"
    bar.set_devices({"CPU": None, "GPU": "No Intel GPU", "NPU": None})
    assert bar.device_combo.itemText(bar.device_combo.findData("GPU")) == "GPU（不可用）"
    assert bar.device_combo.itemText(bar.device_combo.findData("CPU")) == "CPU"  # device names stay
    options = OptionsPanel()
    qtbot.addWidget(options)
    assert options.precision.accessibleName() == "精度"


def test_status_line_and_a_plural_in_chinese(qtbot, chinese):
    window = QMainWindow()
    qtbot.addWidget(window)
    status = StatusArea(window.statusBar())
    status.show_state("ready", "Qwen3-8B", "GPU")
    assert status.state_label.text() == "就绪 — Qwen3-8B，运行于 GPU"
    window.addAction(QAction("One", window, shortcut=QKeySequence("Ctrl+1")))
    window.addAction(QAction("Two", window, shortcut=QKeySequence("Ctrl+2")))
    dialog = ShortcutsDialog(window)
    assert dialog.windowTitle() == "键盘快捷键"
    assert dialog.count_label.text() == "2 个快捷键"
