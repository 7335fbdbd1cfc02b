"""CompareControls: the comparison's prompt box, its buttons and its switches — what the presenter touches.

Two rows: the prompt with Run / Cancel / Re-run at f32 / Export…, then the runs per mode and the switches
(one row was wider than a 1024-pixel screen). The compare view wires them; nothing here runs anything.
The prompt box starts on the built-in preset in the UI's language.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QPushButton, QSpinBox, QVBoxLayout, QWidget

from eagle_chat.core.measure.compare import DEFAULT_REPEATS
from eagle_chat.ui.words import i18n

EXACT_PRECISION = "f32"  # where greedy answers of both modes must be identical


class CompareControls(QWidget):
    def __init__(self, prompts: list[str], parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("compareControls")
        self.prompt = QComboBox()
        self.prompt.setObjectName("comparePrompt")
        self.prompt.setEditable(True)
        self.prompt.setAccessibleName(self.tr("Prompt to compare"))
        # A long prompt must not make the window wider than the screen (the box scrolls its text instead).
        self.prompt.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.prompt.setMinimumContentsLength(16)
        self.set_prompts(prompts)
        self.prompt.setEditText(default_prompt(prompts))
        self.repeats = QSpinBox()
        self.repeats.setObjectName("compareRepeats")
        self.repeats.setRange(1, 9)
        self.repeats.setValue(DEFAULT_REPEATS)
        self.repeats.setPrefix(self.tr("× ", "before the number of runs per mode"))
        self.repeats.setAccessibleName(self.tr("Runs per mode"))
        self.repeats.setToolTip(self.tr(
            "Counted runs per mode, after an uncounted warm-up of each; the summary shows medians and min–max, "
            "and calls a difference only when the ranges do not overlap"))
        self.repeats.setAccessibleDescription(self.repeats.toolTip())
        self.run_button = QPushButton(self.tr("Run comparison (F5)"))
        self.run_button.setObjectName("compareRunButton")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("compareCancelButton")
        self.f32_button = QPushButton(self.tr("Re-run at {precision}").format(precision=EXACT_PRECISION))
        self.f32_button.setObjectName("compareF32Button")
        self.f32_button.setToolTip(self.tr("Reload at {precision} precision, where greedy answers must be identical")
                                   .format(precision=EXACT_PRECISION))
        self.f32_button.setVisible(False)
        self.draft_free_baseline = QCheckBox(self.tr("Draft-free baseline"))
        self.draft_free_baseline.setObjectName("compareDraftFreeBaseline")
        self.draft_free_baseline.setToolTip(self.tr(
            "Run the baseline on a second copy of the model loaded without its draft — plain decoding "
            "exactly as a plain LLMPipeline does it. Costs the memory of a second copy. Off: the baseline "
            "runs on the same pipeline with 0 draft tokens (measured 0.86x the speed of a draft-free "
            "pipeline on the tiny pair), so the speed-up shown is a little higher."))
        self.export_button = QPushButton(self.tr("Export…"))
        self.export_button.setObjectName("compareExportButton")
        self.drafted_toggle = QCheckBox(self.tr("Show drafted tokens"))
        self.drafted_toggle.setObjectName("draftedTokensToggle")
        self.drafted_toggle.setToolTip(self.tr("Tint the EAGLE-3 answer's text that came from accepted draft tokens"))
        top, switches = QHBoxLayout(), QHBoxLayout()
        top.addWidget(self.prompt, 1)
        for widget in (self.run_button, self.cancel_button, self.f32_button, self.export_button):
            top.addWidget(widget)
        for widget in (self.repeats, self.draft_free_baseline, self.drafted_toggle):
            switches.addWidget(widget)
        switches.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(switches)

    def set_prompts(self, prompts: list[str]) -> None:
        """Offer ``prompts`` in the box, keeping what it shows."""
        current = self.prompt.currentText()
        self.prompt.clear()
        self.prompt.addItems(prompts)
        self.prompt.setEditText(current)

    def sync(self, running: bool, has_result: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.export_button.setEnabled(not running and has_result)


def default_prompt(prompts: list[str]) -> str:
    """The first preset in the UI's language (Chinese presets are the ones with CJK characters)."""
    chinese = i18n.current_language().startswith("zh")
    return next((p for p in prompts if _has_cjk(p) == chinese), prompts[0] if prompts else "")


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)
