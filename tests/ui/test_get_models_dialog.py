"""The Get models dialog, driven like a user: real widgets, real child processes, the local hub."""

from __future__ import annotations

import os
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QProgressBar, QPushButton

from eagle_chat import paths
from eagle_chat.core.models.registry import ModelRegistry
from eagle_chat.settings import load_settings
from eagle_chat.ui.models.get_models import GetModelsDialog
from tests.fake_hub import CHUNK

STEP_TIMEOUT_MS = 30_000


@pytest.fixture
def dialog(qtbot, tiny_catalog, fake_hub):
    widget = GetModelsDialog(catalog=tiny_catalog)
    qtbot.addWidget(widget)
    widget.show()
    widget.select_entry("tiny")
    widget.endpoint_edit.setText(fake_hub.url)
    yield widget
    widget.close()
    assert not widget.runner.running


def find(dialog, kind, name):
    widget = dialog.findChild(kind, name)
    assert widget is not None, name
    return widget


def test_widgets_carry_their_object_names(dialog):
    assert dialog.objectName() == "getModelsDialog"
    names = [e.name for e in dialog.catalog.entries]
    catalog_list = find(dialog, QListWidget, "catalogList")
    assert [catalog_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(catalog_list.count())] == names
    assert not find(dialog, QPushButton, "cancelDownloadButton").isEnabled()
    dialog.select_entry("qwen3-8b")
    assert [dialog.device_combo.itemText(i) for i in range(dialog.device_combo.count())] == ["CPU", "GPU", "NPU"]
    dialog.select_entry("llama3.1-8b")
    dialog.source_combo.setCurrentIndex(dialog.source_combo.findData("modelscope"))
    assert dialog.source_combo.currentData() == "hf", "ModelScope has no copy of this pair"


def test_progress_moves_and_cancel_leaves_nothing_registered(qtbot, dialog, fake_hub):
    fake_hub.throttle_bps = 250_000
    bar = find(dialog, QProgressBar, "downloadProgress")
    qtbot.mouseClick(find(dialog, QPushButton, "downloadButton"), Qt.MouseButton.LeftButton)
    assert dialog.runner.running

    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() > 0, timeout=STEP_TIMEOUT_MS)
    first = bar.value()
    qtbot.waitUntil(lambda: bar.value() > first, timeout=STEP_TIMEOUT_MS)
    detail = dialog.detail.text()
    assert " of " in detail and "/s" in detail and "left" in detail, detail

    pid = dialog.runner._process.processId()
    with qtbot.waitSignal(dialog.runner.sig_cancelled, timeout=STEP_TIMEOUT_MS):
        qtbot.mouseClick(find(dialog, QPushButton, "cancelDownloadButton"), Qt.MouseButton.LeftButton)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    requests, ends = len(fake_hub.requests), len(fake_hub.body_ends)
    # The server may push a chunk or two into the dead socket before it notices. The event: every body in
    # flight has ended and every connection that carried one has closed (however long the machine's load
    # makes that), so nothing more can be served over one. None of those bodies was sent whole (a file of
    # more than one chunk: a single one may have been written before the socket died), and no request came
    # after the download's process ended.
    qtbot.waitUntil(lambda: fake_hub.body_connections == 0 and fake_hub.bodies_sending == 0,
                    timeout=STEP_TIMEOUT_MS)
    whole = [file for file, size, sent_whole in fake_hub.body_ends[ends:] if sent_whole and size > CHUNK]
    assert whole == [] and fake_hub.requests[requests:] == [], "the transfer went on after Cancel"
    assert ModelRegistry().pairs() == []
    assert not (paths.models_dir() / "tiny" / "target").exists()
    assert "Stopped" in dialog.status.text() and "Nothing was registered" in dialog.status.text()
    assert find(dialog, QPushButton, "downloadButton").isEnabled()
    assert bar.value() == 0

    settings, _ = load_settings(paths.settings_file())
    assert settings.hf_endpoint == fake_hub.url and settings.download_source == "hf"


def test_a_damaged_download_is_reported_and_not_registered(qtbot, dialog, fake_hub):
    fake_hub.corrupt["openvino_model.bin"] = 99
    with qtbot.waitSignal(dialog.runner.sig_failed, timeout=STEP_TIMEOUT_MS) as failed:
        dialog.start_download()
    assert "damaged" in failed.args[0] and "damaged" in dialog.status.text()
    assert ModelRegistry().pairs() == []


@pytest.mark.slow
def test_download_export_check_and_register_from_the_dialog(qtbot, dialog, fake_hub):
    with qtbot.waitSignal(dialog.sig_registered, timeout=600_000) as registered:
        qtbot.mouseClick(find(dialog, QPushButton, "downloadButton"), Qt.MouseButton.LeftButton)
    assert registered.args == ["tiny"]
    pair = ModelRegistry().get("tiny")
    assert pair.owned and (pair.draft_path / "openvino_model.xml").is_file()
    assert "ready" in dialog.status.text()
    assert find(dialog, QProgressBar, "downloadProgress").value() == 1000


@pytest.fixture
def frozen_dialog(qtbot, tiny_ir_catalog, fake_hub, monkeypatch):
    """The dialog as the standalone (PyInstaller) app shows it: sys.frozen is set (no optimum-intel there)."""
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    widget = GetModelsDialog(catalog=tiny_ir_catalog)
    qtbot.addWidget(widget)
    widget.show()
    widget.endpoint_edit.setText(fake_hub.url)
    yield widget
    widget.close()
    assert not widget.runner.running


def test_in_the_bundle_entries_whose_draft_needs_converting_can_be_pulled(qtbot, frozen_dialog):
    dialog = frozen_dialog
    button = find(dialog, QPushButton, "downloadButton")
    note = find(dialog, QLabel, "downloadBlockedNote")
    assert {e.name for e in dialog.catalog.entries if e.needs_export} >= {"tiny", "qwen3-8b", "llama3.1-8b"}
    for entry in dialog.catalog.entries:
        dialog.select_entry(entry.name)
        assert button.isEnabled() and not note.isVisible(), entry.name
        assert "needs a draft export" not in dialog.catalog_list.currentItem().text()
    dialog.select_entry("tiny")
    assert "converted to OpenVINO on this computer" in dialog.description.text()
    with qtbot.waitSignal(dialog.sig_registered, timeout=120_000) as registered:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert registered.args == ["tiny"]
    assert (ModelRegistry().get("tiny").draft_path / "openvino_model.xml").is_file()


def test_unverified_entries_say_so(qtbot, dialog):
    dialog.select_entry("llama3.1-8b")
    item = dialog.catalog_list.currentItem()
    assert "unverified" in item.text()
    assert "Unverified: The target is a third-party export" in dialog.description.text()
    assert "Where these repositories come from:" in dialog.description.toolTip()  # for the curious
    dialog.select_entry("qwen3-8b")
    assert "unverified" not in dialog.catalog_list.currentItem().text()
    assert "Unverified" not in dialog.description.text()


JARGON = ("LlamaForCausalLM", "openvino_model", ".xml", ".bin", "architecture", "config", "rt_info")


def test_entries_are_described_by_what_a_user_chooses_by_not_by_provenance(qtbot, dialog):
    from eagle_chat.core.acquisition.staging import format_bytes

    for entry in dialog.catalog.entries:
        dialog.select_entry(entry.name)
        text = dialog.description.text()
        assert not [word for word in JARGON if word in text], (entry.name, text)
        assert format_bytes(entry.variant("CPU").approx_bytes) in text and ", ".join(entry.devices()) in text
        if not entry.user:
            assert entry.languages and entry.languages in text, entry.name


def test_a_failed_download_does_not_widen_the_dialog_and_offers_modelscope(qtbot, dialog, fake_hub):
    width = dialog.width()
    dialog.endpoint_edit.setText("http://127.0.0.1:9")  # Hugging Face cannot be reached
    with qtbot.waitSignal(dialog.runner.sig_failed, timeout=STEP_TIMEOUT_MS):
        dialog.start_download()
    qtbot.wait(10)  # the layout settles
    assert dialog.width() <= width, "the failure's text widened the dialog"
    assert "ModelScope has this model too" in dialog.status.text()
    button = dialog.other_source_button
    assert button.isVisible() and "ModelScope" in button.text()
    dialog.settings.modelscope_endpoint = fake_hub.url  # (the local hub stands in for ModelScope)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert dialog.source_combo.currentData() == "modelscope" and dialog.runner.running
    assert not button.isVisible()
    dialog.cancel_download()
    qtbot.waitUntil(lambda: not dialog.runner.running, timeout=STEP_TIMEOUT_MS)
