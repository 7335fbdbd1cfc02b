"""The label next to the K slider that shows the tree the NPU will draft for the next reply.

On the NPU, GenAI drafts trees only (see :mod:`eagle_chat.core.generation.npu_drafting`), so "K draft
tokens" alone would not say what runs there. The label is worked out by the same two calls the next reply
goes through — the window's GenerationSettings, then ``npu_tree`` — so it cannot drift from what is sent.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from eagle_chat.core.generation.npu_drafting import limit_problem, npu_tree
from eagle_chat.ui.words import texts


class NpuTreeHint(QObject):
    """Keeps ``model_bar.npu_tree_label`` in step with K, the tuned tree, the device and the EAGLE-3 switch."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        bar = window.model_bar
        # Connected after the window's own slots, so the settings they update are read here.
        for signal in (bar.sig_k_changed, bar.sig_device_changed, bar.sig_speculative_toggled,
                       window.controller.sig_loaded, window.dialogs.sig_tuned):
            signal.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        window = self._window
        spec = window.pipeline_spec()
        settings = window.generation_settings()
        text = tooltip = ""
        if spec.device == "NPU" and spec.draft_dir is not None and settings.speculative:
            tree = npu_tree(settings.num_assistant_tokens, settings.tree_depth, settings.branching_factor)
            text, tooltip = texts.npu_tree_text(tree, limit_problem(tree, spec.npu))
        window.model_bar.show_npu_tree(text, tooltip)
