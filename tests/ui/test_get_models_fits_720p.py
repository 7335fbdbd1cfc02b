"""The Get models dialog on a 1280×720 screen: the whole dialog fits, every catalog entry reads without a
horizontal scrollbar, and the status text is shown whole (not cut off), with the built-in catalog."""

from __future__ import annotations

import pytest

from eagle_chat.core.models.catalog import load_catalog
from eagle_chat.ui.models.get_models import GetModelsDialog

SCREEN_W, SCREEN_H = 1280, 720


@pytest.fixture
def dialog(qtbot, eagle_home):
    widget = GetModelsDialog(catalog=load_catalog())
    qtbot.addWidget(widget)
    widget.show()
    widget.resize(min(widget.width(), SCREEN_W), min(widget.height(), SCREEN_H))
    qtbot.wait(20)
    yield widget
    widget.close()


def test_the_dialog_fits_1280x720_with_entries_and_status_whole(qtbot, dialog):
    frame = dialog.frameGeometry()
    assert frame.width() <= SCREEN_W and frame.height() <= SCREEN_H - 40, (frame.width(), frame.height())
    assert dialog.minimumSizeHint().width() <= SCREEN_W and dialog.minimumSizeHint().height() <= SCREEN_H - 40

    lst = dialog.catalog_list
    assert not lst.horizontalScrollBar().isVisible(), "an entry is wider than the list"
    metrics = lst.fontMetrics()
    room = lst.viewport().width()
    for row in range(lst.count()):
        item = lst.item(row)
        rect = lst.visualItemRect(item)
        assert rect.left() >= 0 and rect.right() <= room, (item.text(), rect, room)
        needed = metrics.boundingRect(0, 0, rect.width(), 10_000, 0x1000, item.text()).height()  # Qt.TextWordWrap
        assert needed <= rect.height(), ("entry text cut off", item.text(), needed, rect.height())

    long_status = ("Downloading OpenVINO/Qwen3-8B-int4-ov from Hugging Face — Exporting the EAGLE-3 draft to "
                   "OpenVINO (int4): compressing the weights with NNCF, then the test load on CPU checks that "
                   "the draft's tokens are accepted before the pair is registered.")
    dialog.status.setText(long_status)
    qtbot.wait(20)
    status = dialog.status
    assert status.wordWrap()
    assert status.heightForWidth(status.width()) <= status.height(), "the status text is cut off"
    assert status.geometry().bottom() <= dialog.height()
    assert dialog.frameGeometry().height() <= SCREEN_H - 40

    enabled = [lst.item(row).text().splitlines()[0] for row in range(lst.count()) if lst.item(row).flags() & 
               __import__("PySide6.QtCore", fromlist=["Qt"]).Qt.ItemFlag.ItemIsEnabled]
    assert any("Qwen3 1.7B" in t for t in enabled) and any("Qwen3 8B" in t for t in enabled), enabled
