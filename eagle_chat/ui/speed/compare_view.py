"""CompareView: one prompt, baseline and EAGLE-3, on one shared time axis — the faster curve ends first.

Every comparison runs as :func:`eagle_chat.core.measure.compare.plan_runs` lays it out: an uncounted warm-up
of each mode, then alternating rounds; the summary gives medians, spread and the noise verdict.

Also the presenter's demo mode: full screen, large type, preset prompts (and the presenter's own), all from
the keyboard: F5 runs, Alt+1…9 picks a preset, Esc cancels a run or leaves full screen, F11 toggles it.
"""

from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.measure.compare import (
    DEFAULT_REPEATS,
    WARMUP_MAX_TOKENS,
    Comparison,
    ComparisonRun,
    ComparisonSetup,
    PlannedRun,
    plan_runs,
)
from eagle_chat.ui import screen_fit, texts
from eagle_chat.ui.speed.compare_export import export_comparison
from eagle_chat.ui.controller import ChatController
from eagle_chat.ui.drafted_text import DraftedPane
from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart
from eagle_chat.ui.speed.batch_runner import BatchRunner, Job
from eagle_chat.ui.speed.speculation_display import bind_toggle, max_accepted
from eagle_chat.ui.speed.presets_row import PRESET_PROMPTS, PresetsRow
from eagle_chat.ui.speed.speed_chart import SpeedChart
from eagle_chat.ui.speed.speed_demo_offer import SpeedDemoOffer
from eagle_chat.core.generation.loaded import LoadedPipeline

DEMO_FONT_SCALE = 1.6
EXACT_PRECISION = "f32"  # where greedy answers of both modes must be identical


class CompareView(QWidget):
    """Runs the comparison through the controller's worker; never touches the open conversation."""

    sig_want_precision = Signal(str)
    """The user asked to re-run at this precision ("f32"); the window reloads the pipeline."""
    sig_finished = Signal(object)
    """A comparison finished: the Comparison."""

    def __init__(self, controller: ChatController, settings_source, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("compareView")
        self.setWindowTitle(self.tr("EagleChat — baseline vs EAGLE-3"))
        self.controller = controller
        self._settings_source = settings_source  # () -> GenerationSettings of the main window
        self.runner = BatchRunner(controller, self)
        self.comparison: Comparison | None = None
        self._pending_rerun = False
        self._normal_font = QFont(self.font())
        self._build()
        self.runner.sig_job_started.connect(self._on_job_started)
        self.runner.sig_job_finished.connect(self._on_job_finished)
        self.runner.sig_done.connect(self._on_done)
        controller.sig_rate_points.connect(self._on_rate_points)
        controller.sig_reply_text.connect(self._on_reply_text)
        controller.sig_reply_steps.connect(self._on_reply_steps)
        controller.sig_loaded.connect(self._on_loaded)
        controller.sig_load_failed.connect(self._on_load_failed)
        controller.sig_draft_free_ready.connect(self._on_draft_free_ready)
        self._pending_prompt: str | None = None
        self._live_pane: DraftedPane | None = None
        self._live_request: int | None = None
        self._live_record = None  # the running job's steps so far
        self._live_k: int | None = None  # K (or tree depth) of the running EAGLE-3 job

    # --- public API ------------------------------------------------------------------------------
    def run(self, prompt: str | None = None) -> bool:
        """A warm-up of each mode, then ``repeats`` rounds of both in alternating order; False if it could
        not start."""
        prompt = (prompt if prompt is not None else self.prompt.currentText()).strip()
        if not prompt:
            self.summary.setText(self.tr("Type or pick a prompt to compare."))
            return False
        if not (self.controller.loaded and self.controller.loaded.has_draft):
            self.summary.setText(self.tr("Load a model with an EAGLE-3 draft to compare."))
            return False
        self.prompt.setEditText(prompt)
        draft_free = self.draft_free_baseline.isChecked()
        if draft_free and not self.controller.draft_free_loaded:
            if not self.controller.load_draft_free():  # busy: no sig_draft_free_ready would ever come
                self.summary.setText(self.tr("The model is busy; try again when the reply has finished."))
                return False
            self._pending_prompt = prompt
            self.summary.setText(self.tr("Loading a draft-free copy of the model for the baseline…"))
            return True
        base = self._settings_source()
        jobs = []
        for planned in plan_runs(self.repeats.value()):
            settings = GenerationSettings(
                max_new_tokens=base.max_new_tokens, speculative=planned.mode == "speculative",
                num_assistant_tokens=base.num_assistant_tokens, thinking=base.thinking,
                tree_depth=base.tree_depth, branching_factor=base.branching_factor,
            )
            if planned.warmup:
                settings = replace(settings, max_new_tokens=min(base.max_new_tokens, WARMUP_MAX_TOKENS))
            jobs.append(Job(prompt, settings, planned, draft_free=draft_free and planned.mode == "baseline"))
        self._planned_tokens = base.max_new_tokens
        self.chart.clear()
        self.baseline_pane.clear_reply()
        self.speculative_pane.clear_reply()
        self.acceptance.clear()
        self.comparison = None
        self.summary.setText(self.tr("Warming up both modes (not counted)…"))
        started = self.runner.start(jobs)
        self._sync_buttons()
        if not started:
            self.summary.setText(self.tr("The model is busy; try again when the reply has finished."))
        return started

    def rerun_f32(self) -> None:
        """Reload the pipeline at f32 (exact comparison), then run again once a load ends at f32; a refused
        or failed reload says so here and runs nothing later."""
        self._pending_rerun = True
        self.summary.setText(self.tr("Reloading at {precision} precision…").format(precision=EXACT_PRECISION))
        self.sig_want_precision.emit(EXACT_PRECISION)
        if self.controller.state != "loading":  # refused (a reply runs): no load outcome will come
            self._pending_rerun = False
            self.summary.setText(self.tr("The model is busy; try again when the reply has finished."))

    def set_custom_prompts(self, prompts: list[str]) -> None:
        """The presenter's own prompts, after the built-in presets (in the prompt list and as buttons)."""
        current = self.prompt.currentText()
        self.presets_row.set_custom(prompts)
        self.prompt.clear()
        self.prompt.addItems(self.presets_row.prompts())
        self.prompt.setEditText(current)

    def set_demo(self, on: bool) -> None:
        """Presenter mode: full screen, large type, preset prompts in view."""
        font = QFont(self._normal_font)
        if on:
            font.setPointSizeF(self._normal_font.pointSizeF() * DEMO_FONT_SCALE)
        self.setFont(font)
        for pane in (self.baseline_pane, self.speculative_pane):
            pane.setFont(font)
        self.presets_row.setVisible(True)
        if on:
            self.showFullScreen()
            self.run_button.setFocus()
        else:
            self.showNormal()
        self.demo = on

    def set_drafted_action(self, action) -> None:
        """Share the main window's "Show drafted tokens" switch (the check box follows it both ways)."""
        bind_toggle(self.drafted_toggle, action)

    def export(self, folder: Path) -> list[Path]:
        """Write the comparison as CSV and JSON and the chart as PNG into ``folder``."""
        return [] if self.comparison is None else export_comparison(self.comparison, self.chart, folder)

    # --- slots -------------------------------------------------------------------------------------
    def _on_job_started(self, index: int, job: Job, request_id: int) -> None:
        planned: PlannedRun = job.tag
        mode = planned.mode
        name = self.tr("baseline") if mode == "baseline" else "EAGLE-3"
        if planned.warmup:
            self.summary.setText(self.tr("Warming up {mode} (not counted)…").format(mode=name))
            return
        self.summary.setText(self.tr("Run {run} of {runs}: {mode}…").format(
            run=planned.repeat + 1, runs=self.repeats.value(), mode=name))
        self._live_pane = self.baseline_pane if mode == "baseline" else self.speculative_pane
        self._live_request = request_id
        label = name if mode == "baseline" else f"EAGLE-3 K={job.settings.num_assistant_tokens}"
        self.chart.begin(request_id, mode, label)
        self._live_record = None
        self._live_k = max_accepted(job.settings) if mode == "speculative" else None
        if self._live_k is not None:
            self.acceptance.show_steps(None, self._live_k, now=True)

    def _on_reply_steps(self, request_id: int, record) -> None:
        if self._live_pane is not None and request_id == self._live_request:
            self._live_record = record
            if self._live_k is not None:
                self.acceptance.show_steps(record, self._live_k)

    def _on_rate_points(self, request_id: int, _mode: str, points) -> None:
        self.chart.add_points(request_id, points)

    def _on_reply_text(self, message, text: str) -> None:
        if message is None and self._live_pane is not None and self.runner.is_running():
            self._live_pane.show_reply(text, self._live_record)

    def _on_job_finished(self, index: int, job_result) -> None:
        self.chart.finish(job_result.request_id, job_result.result.stats if job_result.result is not None else None)
        planned = job_result.job.tag
        if job_result.result is not None and not planned.warmup:
            pane = self.baseline_pane if planned.mode == "baseline" else self.speculative_pane
            stats = job_result.result.stats
            pane.show_reply(job_result.result.text, stats.steps, typeset=True)
            if planned.mode == "speculative" and stats.steps is not None:
                self.acceptance.show_steps(stats.steps, stats.max_accepted, stats.accepted_tokens, now=True)
        self._live_pane, self._live_k = None, None

    def _on_done(self, results) -> None:
        runs = [ComparisonRun(r.job.tag.position, r.job.tag.mode, r.job.tag.repeat, r.job.tag.warmup,
                              r.result.stats, r.result.text) for r in results if r.result is not None]
        self._sync_buttons()
        if not all(any(r.mode == mode and not r.warmup for r in runs) for mode in ("baseline", "speculative")):
            self.summary.setText(self.tr("The comparison did not finish."))
            return
        spec = self.controller.loaded.spec if self.controller.loaded else None
        precision = spec.precision if spec is not None else "?"
        fast = next(r.stats for r in runs if r.mode == "speculative" and not r.warmup)
        setup = ComparisonSetup(
            precision=precision, draft_free_baseline=any(r.job.draft_free for r in results),
            k=fast.num_assistant_tokens, tree=fast.tree, max_new_tokens=self._planned_tokens, device=fast.device,
            warmup_tokens=min(self._planned_tokens, WARMUP_MAX_TOKENS),
        )
        self.comparison = Comparison(self.prompt.currentText(), runs, setup)
        self.summary.setText("\n".join(texts.comparison_lines(self.comparison)))
        self.f32_button.setVisible(not self.comparison.identical and precision != EXACT_PRECISION)
        self.sig_finished.emit(self.comparison)

    def _on_draft_free_ready(self, ok: bool, message: str) -> None:
        prompt, self._pending_prompt = self._pending_prompt, None
        if prompt is None:
            return
        if ok:
            self.run(prompt)
        else:
            self.summary.setText(self.tr("Could not load the draft-free copy: {reason}").format(reason=message))

    def _on_loaded(self, info: LoadedPipeline) -> None:
        if not self._pending_rerun:
            return
        self._pending_rerun = False
        if getattr(info.spec, "precision", None) == EXACT_PRECISION:
            self.run()
        else:  # the load that ended was another one (the reload was refused while it ran)
            self.summary.setText(self.tr("The model is busy; try again when the reply has finished."))

    def _on_load_failed(self, _load_id: int, message: str, _still_loaded: bool) -> None:
        if self._pending_rerun:
            self._pending_rerun = False
            self.summary.setText(self.tr("Could not reload at {precision}: {reason}").format(
                precision=EXACT_PRECISION, reason=message))

    def _set_tint(self, on: bool) -> None:
        for pane in (self.baseline_pane, self.speculative_pane):
            pane.set_tint(on)

    def _export_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export the comparison to…"))
        if folder:
            written = self.export(Path(folder))
            files = self.tr(", ", "between the items of a list").join(p.name for p in written)
            self.summary.setText(self.summary.text() + "\n" + self.tr("Exported: {files}").format(files=files))

    def _sync_buttons(self) -> None:
        running = self.runner.is_running()
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.export_button.setEnabled(not running and self.comparison is not None)

    # --- building ----------------------------------------------------------------------------------
    def _build(self) -> None:
        self.prompt = QComboBox()
        self.prompt.setObjectName("comparePrompt")
        self.prompt.setEditable(True)
        self.prompt.setAccessibleName(self.tr("Prompt to compare"))
        for _, text in PRESET_PROMPTS:
            self.prompt.addItem(text)
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
        self.run_button.clicked.connect(lambda: self.run())
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("compareCancelButton")
        self.cancel_button.clicked.connect(self.runner.cancel)
        self.f32_button = QPushButton(self.tr("Re-run at {precision}").format(precision=EXACT_PRECISION))
        self.f32_button.setObjectName("compareF32Button")
        self.f32_button.setToolTip(self.tr("Reload at {precision} precision, where greedy answers must be identical")
                                   .format(precision=EXACT_PRECISION))
        self.f32_button.clicked.connect(self.rerun_f32)
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
        self.export_button.clicked.connect(self._export_clicked)
        self.drafted_toggle = QCheckBox(self.tr("Show drafted tokens"))
        self.drafted_toggle.setObjectName("draftedTokensToggle")
        self.drafted_toggle.setToolTip(self.tr("Tint the EAGLE-3 answer's text that came from accepted draft tokens"))
        self.drafted_toggle.toggled.connect(self._set_tint)
        top, switches = QHBoxLayout(), QHBoxLayout()  # two rows: one was wider than a 1024-pixel screen
        top.addWidget(self.prompt, 1)
        for widget in (self.run_button, self.cancel_button, self.f32_button, self.export_button):
            top.addWidget(widget)
        for widget in (self.repeats, self.draft_free_baseline, self.drafted_toggle):
            switches.addWidget(widget)
        switches.addStretch(1)

        self.presets_row = PresetsRow()
        self.presets_row.sig_chosen.connect(self.run)
        self.offer = SpeedDemoOffer()

        self.baseline_pane = DraftedPane()
        self.baseline_pane.setObjectName("compareBaselinePane")
        self.speculative_pane = DraftedPane()
        self.speculative_pane.setObjectName("compareSpeculativePane")
        panes = QSplitter()
        for pane, title in ((self.baseline_pane, self.tr("Baseline (plain decoding)")),
                            (self.speculative_pane, self.tr("EAGLE-3 speculative decoding"))):
            pane.setAccessibleName(self.tr("{title}: answer").format(title=title))
            panes.addWidget(_titled(title, pane))
        self.chart = SpeedChart(latest_per_mode=True)  # each mode's newest run bold: the two are compared
        self.chart.setObjectName("compareChart")
        self.acceptance = AcceptanceChart()  # the EAGLE-3 run's steps
        self.summary = QLabel(self.tr("Pick a prompt and run the comparison."))
        self.summary.setObjectName("compareSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(switches)
        layout.addWidget(self.presets_row)
        layout.addWidget(self.offer)
        layout.addWidget(panes, 3)
        bottom = QHBoxLayout()
        bottom.addWidget(self.chart, 2)
        bottom.addWidget(self.acceptance, 2)
        bottom.addWidget(self.summary, 1)
        layout.addLayout(bottom, 2)
        for key, slot, what in (
                (Qt.Key.Key_F5, lambda: self.run(), self.tr("Run the comparison")),
                (Qt.Key.Key_F11, lambda: self.set_demo(not self.demo),
                 self.tr("Full screen with large type on or off")),
                (Qt.Key.Key_Escape, self._escape, self.tr("Cancel the run; with none running, leave full screen"))):
            QShortcut(QKeySequence(key), self, activated=slot).setWhatsThis(what)
        self.demo = False
        self._sync_buttons()
        screen_fit.fit(self, QSize(1200, 760), centre=True)  # a window of its own: centred on the screen
        screen_fit.keep_on_screen(self)

    def _escape(self) -> None:
        """Esc: cancel a run; with none running, leave full screen."""
        if self.runner.is_running():
            self.runner.cancel()
        elif self.demo:
            self.set_demo(False)


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    label = QLabel(f"<b>{html.escape(title)}</b>")
    layout.addWidget(label)
    layout.addWidget(widget)
    return box
