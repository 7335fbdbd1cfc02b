"""On the NPU the window shows the tree GenAI will draft, and auto-tune sweeps trees within the compiled limits.

There is no NPU here, so the window runs on the CPU and the device setting is switched to NPU underneath
it: the label and the sweep are worked out from the settings, the spec and the tuned choice, exactly as a
reply on the NPU would be (the engine side is tested in tests/core/test_npu_drafting.py).
"""

from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import QLabel

from eagle_chat.core.generation.devices import NpuOptions
from eagle_chat.core.generation.npu_drafting import DraftTree, npu_call_tree
from eagle_chat.core.measure.tuning import remember_tuned


def label(window) -> QLabel:
    widget = window.findChild(QLabel, "npuTreeLabel")
    assert widget is not None
    return widget


def shown(widget) -> bool:
    return not widget.isHidden()  # the window itself is not shown in these tests


def sent_tree(window) -> DraftTree | None:
    """What the engine would put in the next reply's GenerationConfig on the NPU."""
    settings = window.generation_settings()
    return npu_call_tree(settings, settings.speculative, True, window.pipeline_spec().npu)


def test_the_model_bar_shows_the_tree_the_npu_will_draft(qtbot, open_window):
    window = open_window()
    hint = label(window)
    assert not shown(hint), "on the CPU K is a chain; nothing to explain"

    window.settings.device = "NPU"  # as if the NPU had been chosen (there is none here)
    window.model_bar.k_slider.setValue(4)
    window.model_bar.k_slider.setValue(5)
    assert shown(hint) and hint.text() == "NPU drafts a chain: depth 5 × 1 branch, 5 candidates"
    assert sent_tree(window) == DraftTree(5, 1, 5)
    assert "trees only" in hint.toolTip()

    remember_tuned(window.settings, window.model.target_dir, window.model.draft_dir, "NPU", 7, "4x2")
    window.dialogs.sig_tuned.emit(7, "4x2")  # what auto-tune emits when a tree wins
    assert window.model_bar.k_slider.value() == 7
    assert hint.text() == "NPU drafts a tree: depth 4 × 2 branches, 7 candidates"
    assert sent_tree(window) == DraftTree(4, 2, 7)

    window.model_bar.k_slider.setValue(3)  # the tuned tree is 4 deep: with K=3 it cannot be verified
    assert hint.text() == "NPU drafts a chain: depth 3 × 1 branch, 3 candidates"

    window.model_bar.draft_toggle.setChecked(False)
    assert not shown(hint), "no drafting without EAGLE-3"
    window.model_bar.draft_toggle.setChecked(True)
    assert shown(hint)
    window.settings.device = "CPU"
    window.model_bar.k_slider.setValue(4)
    assert not shown(hint)


def test_auto_tune_on_the_npu_sweeps_trees_within_the_compiled_limits(qtbot, open_window):
    window = open_window()
    loaded = window.controller.loaded
    npu_spec = loaded.spec.with_changes(device="NPU", npu=NpuOptions(max_tree_depth=4))
    window.controller.loaded = dataclasses.replace(loaded, spec=npu_spec)
    try:
        dialog = window.open_tune()
        assert dialog.trees_check.isChecked(), "the NPU drafts trees: they are tried by default"
        assert "up to depth 4 × 2 branches and 7 draft tokens" in dialog.trees_check.text()
        dialog.ks, dialog.trees = (3, 5), ((3, 2), (5, 2))
        # chains deeper than 4 and the 5-deep tree do not fit what the NPU models were compiled for
        assert dialog.configurations() == [(3, None), (3, (3, 2)), (5, (3, 2))]
        dialog.close()
    finally:
        window.controller.loaded = loaded
    dialog = window.open_tune()
    assert dialog.configurations() == [(3, None), (5, None), (3, (3, 2)), (5, (3, 2)), (5, (5, 2))]
    dialog.close()
