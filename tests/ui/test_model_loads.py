"""Loads are transactions: a refused or failed load changes nothing and the previous model keeps answering;
settings, labels and the status bar follow only the load the window asked for."""

from __future__ import annotations

import dataclasses
import shutil

from eagle_chat import paths
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.settings import load_settings
from eagle_chat.ui.speed.controls import ModelBar, OptionsPanel
from tests.gui import LOAD_TIMEOUT_MS, REPLY_TIMEOUT_MS, send


def snapshot(window):
    return (window.settings.target_dir, window.settings.draft_dir, window.settings.precision,
            window.settings.device, window.model_bar.model_label.text(), window.controller.loaded.spec)


def saved_settings():
    saved, _ = load_settings(paths.settings_file())
    return saved.target_dir, saved.draft_dir, saved.precision


def test_a_bad_folder_chosen_while_a_model_is_loaded_leaves_it_answering(qtbot, open_window, tmp_path):
    window = open_window()
    window.options.max_tokens.setValue(16)
    before = snapshot(window)
    bad = tmp_path / "not-a-model"
    bad.mkdir()
    with qtbot.waitSignal(window.controller.sig_load_failed, timeout=LOAD_TIMEOUT_MS) as blocker:
        window.models_menu.sig_chosen.emit(ModelChoice(bad, bad))  # what "Choose model folders…" sends
    _, reason, still_loaded = blocker.args
    assert "has no openvino_model.xml" in reason and still_loaded
    assert "is still loaded and answers as before" in window.notice.text()
    assert snapshot(window) == before and window.controller.state == "ready"
    assert window.status.state_label.text().startswith("Ready — ") and "not-a-model" not in window.status.state_label.text()
    _, result = send(qtbot, window, "are you still there?")
    assert result is not None and result.stats.generated_tokens > 0 and result.stats.mode == "speculative"
    window.binder.flush()
    assert str(bad) not in saved_settings()


def test_a_model_openvino_cannot_load_brings_the_previous_one_back(qtbot, open_window, tiny_pair, tmp_path):
    broken = shutil.copytree(tiny_pair[0], tmp_path / "broken-weights")
    (broken / "openvino_model.bin").write_bytes(b"\0" * 64)  # passes the folder check; OpenVINO refuses it
    window = open_window()
    window.options.max_tokens.setValue(16)
    before = snapshot(window)
    with qtbot.waitSignal(window.controller.sig_load_failed, timeout=LOAD_TIMEOUT_MS * 2) as blocker:
        window.set_model(ModelChoice(broken, None))
    _, reason, still_loaded = blocker.args
    assert "could not load" in reason and still_loaded
    assert snapshot(window)[:5] == before[:5] and window.controller.loaded.spec == before[5]
    _, result = send(qtbot, window, "and now?")
    assert result is not None and result.stats.mode == "speculative"


def test_a_model_change_during_a_reply_is_refused_and_changes_nothing(qtbot, open_window, tiny_pair, tmp_path):
    other = shutil.copytree(tiny_pair[0], tmp_path / "another-model")
    window = open_window()
    window.options.max_tokens.setValue(4000)
    window.binder.flush()
    before, on_disk = snapshot(window), saved_settings()
    with qtbot.waitSignal(window.controller.sig_reply_text, timeout=REPLY_TIMEOUT_MS):
        send(qtbot, window, "Write a long story about parsers.", wait=False)
    for widget in (window.model_bar.device_combo, window.model_bar.choose_button, window.options.precision):
        assert not widget.isEnabled() and "A reply is being generated" in widget.toolTip()
    assert not window.models_menu.menuAction().isEnabled()
    assert "A reply is being generated" in window.models_menu.toolTip()
    # A change that still arrives (a second launch, Get models' "use it", the comparison) is refused whole.
    assert window.set_model(ModelChoice(other, None)) is False
    assert window.set_precision("f32") is False
    assert "Nothing was changed" in window.notice.text()
    assert window.controller.state == "generating" and snapshot(window) == before
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as blocker:
        window.controller.stop()
    assert blocker.args[1] is not None and blocker.args[1].stats.mode == "speculative"
    assert snapshot(window) == before
    window.binder.flush()
    assert saved_settings() == on_disk
    assert window.model_bar.device_combo.isEnabled() and window.model_bar.device_combo.toolTip() == ModelBar.DEVICE_TIP
    assert window.options.precision.isEnabled() and window.options.precision.toolTip() == OptionsPanel.PRECISION_TIP
    assert window.models_menu.menuAction().isEnabled()


def test_settings_and_labels_follow_only_a_load_that_succeeded(qtbot, open_window):
    window = open_window()
    assert window.settings.precision == "default"
    assert window.set_precision("f32")
    assert window.settings.precision == "default"  # not yet: only once it is loaded
    assert window.status.state_label.text().startswith("Loading ")
    for widget in (window.model_bar.device_combo, window.options.precision):
        assert widget.isEnabled()  # another choice would cancel this load (tests/ui/test_engine_host.py)
    with qtbot.waitSignal(window.loads.sig_committed, timeout=LOAD_TIMEOUT_MS):
        pass
    assert window.settings.precision == "f32" and window.controller.loaded.spec.precision == "f32"
    assert window.options.precision.currentData() == "f32"
    assert window.status.state_label.text().startswith("Ready — ")


def test_a_stale_loaded_report_is_ignored(qtbot, open_window):
    window = open_window()
    old = window.controller.loaded
    heard = []
    window.controller.sig_loaded.connect(heard.append)
    load_id = window.controller.load(window.pipeline_spec(precision="f32"))
    window.controller._on_loaded(dataclasses.replace(old, load_id=load_id - 1))  # a report of an earlier load
    assert heard == [] and window.controller.state == "loading" and window.settings.precision == "default"
    qtbot.waitUntil(lambda: bool(heard), timeout=LOAD_TIMEOUT_MS)
    assert heard[0].load_id == load_id
