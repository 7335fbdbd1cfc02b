"""In English and Chinese, with the side panel at its minimum width, every item of the Speculation list fits the
closed list (its text, the arrow and the frame) and the list is shown whole. Measured in the real window after a
real load (the items are the loaded pair's), in a child process per language (the language is chosen when the
QApplication starts), as test_walk_clipping.py does."""

from __future__ import annotations

import pytest

from tests.ui.test_walk_clipping import run_probe

PROBE = r"""
import json
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication, QSplitter, QStyle, QStyleOptionComboBox
from eagle_chat.app import create_main_window
from tests.ui import clip_probe, fit_probe

window = create_main_window([])
app = QApplication.instance()
window.show()
fit_probe.pump(app, lambda: window.controller.state in ("ready", "empty"), None)
splitter = window.findChild(QSplitter, "mainSplitter")
side = window.side
least = side.minimumSizeHint().width()
sizes = splitter.sizes()
splitter.setSizes([sizes[0], sizes[1] + sizes[2] - least, least])
fit_probe.pump(app)
combo = window.options.speculation
found = {"state": window.controller.state, "side": side.width(), "least": least, "combo": combo.width(),
         "whole": clip_probe.shown_whole(combo), "items": []}
for row in range(combo.count()):
    combo.setCurrentIndex(row)
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    text = combo.itemText(row)
    metrics = combo.fontMetrics()
    need = combo.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option,
                                          QSize(metrics.horizontalAdvance(text), metrics.height()), combo).width()
    field = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                         QStyle.SubControl.SC_ComboBoxEditField, combo).width()
    found["items"].append({"text": text, "need": need, "field": field, "text_width": metrics.horizontalAdvance(text)})
window.close()
fit_probe.pump(app, lambda: window.closer.done, None)
print("FIT " + json.dumps(found, ensure_ascii=False))
"""


@pytest.mark.parametrize("lang", ["en_US.UTF-8", "zh_CN.UTF-8"])
def test_the_speculation_items_fit_at_the_side_panels_minimum_width(tmp_path, lang):
    found = run_probe(tmp_path, PROBE, lang, 1280, 720, "FIT")
    assert found["state"] == "ready" and found["side"] <= found["least"] + 1, found
    texts = [item["text"] for item in found["items"]]
    assert texts == (["Automatic", "EAGLE-3", "Prompt lookup", "Off"] if lang.startswith("en")
                     else ["自动", "EAGLE-3", "提示查找", "关闭"]), texts
    assert found["whole"], found
    for item in found["items"]:
        assert item["need"] <= found["combo"] and item["text_width"] <= item["field"], (item, found)
