"""CompareView: one prompt, baseline and EAGLE-3, on one shared time axis — the faster curve ends first.

Every comparison runs as :func:`eagle_chat.core.measure.compare.plan_runs` lays it out: an uncounted warm-up
of each mode, then alternating rounds; the summary gives medians, spread and the noise verdict.

Also the presenter's demo mode: full screen (on a second screen if there is one), large type, the verdict as
a headline a tenth of the screen high (:mod:`~eagle_chat.ui.speed.verdict_board`), preset prompts (and the
presenter's own), all from the keyboard: F5 runs, Alt+1…9 picks a preset, F11 toggles full screen, Esc cancels
a run, else leaves full screen, else closes the window.
"""

from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QScreen, QShortcut
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QLayout, QSplitter, QVBoxLayout, QWidget

from eagle_chat import paths
from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.measure.compare import (
    WARMUP_MAX_TOKENS,
    Comparison,
    ComparisonRun,
    ComparisonSetup,
    PlannedRun,
    plan_runs,
)
from eagle_chat.ui.widgets import screen_fit
from eagle_chat.ui.words import texts
from eagle_chat.ui.speed.compare_export import export_comparison
from eagle_chat.ui.runtime.controller import ChatController
from eagle_chat.ui.runtime.reply_handle import ReplyHandle
from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart
from eagle_chat.ui.speed.batch_runner import BatchRunner, Job
from eagle_chat.ui.speed.compare_controls import EXACT_PRECISION, CompareControls
from eagle_chat.ui.speed.compare_pane import ComparePane
from eagle_chat.ui.speed.speculation_display import bind_toggle, max_accepted
from eagle_chat.ui.speed.presenter_mode import PresenterMode
from eagle_chat.ui.speed.presets_row import PresetsRow
from eagle_chat.ui.speed.speed_chart import SpeedChart
from eagle_chat.ui.speed.speed_demo_offer import SpeedDemoOffer
from eagle_chat.ui.speed.verdict_board import VerdictBoard
from eagle_chat.core.generation.loaded import LoadedPipeline

class CompareView(QWidget):
    """Runs the comparison through the controller's worker; never touches the open conversation."""

    sig_want_precision = Signal(str)
    """The user asked to re-run at this precision ("f32"); the window reloads the pipeline."""
    sig_finished = Signal(Comparison)
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
        self._build()
        self.presenter = PresenterMode(self)
        self.runner.sig_job_started.connect(self._on_job_started)
        self.runner.sig_job_finished.connect(self._on_job_finished)
        self.runner.sig_done.connect(self._on_done)
        controller.sig_loaded.connect(self._on_loaded)
        controller.sig_load_failed.connect(self._on_load_failed)
        controller.sig_draft_free_ready.connect(self._on_draft_free_ready)
        self._pending_prompt: str | None = None
        self._running_prompt = ""
        self._live_pane: ComparePane | None = None
        self._live_handle: ReplyHandle | None = None  # the counted run on the stage
        self._live_record = None  # the running job's steps so far
        self._live_k: int | None = None  # K (or tree depth) of the running EAGLE-3 job
        self._job: tuple[int, int, ReplyHandle | None, int] = (0, 1, None, 1)  # the running job: index, jobs in
        # all, its handle, its new-token limit

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
        self._planned_tokens, self._job = base.max_new_tokens, (0, len(jobs), None, 1)
        self._running_prompt = prompt
        self.chart.clear()
        for pane in (self.baseline_pane, self.speculative_pane):
            pane.clear_reply()
        self.acceptance.clear()
        self.comparison = None
        self.board.start()
        self._show_waiting(self.tr("Warming up both modes…"))
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
        self.presets_row.set_custom(prompts)
        self.controls.set_prompts(self.presets_row.prompts())

    def set_demo(self, on: bool) -> None:
        """Presenter mode: full screen (on a second screen if there is one), large type, the verdict as a
        headline a tenth of the screen high."""
        self.presenter.set(on)

    @property
    def demo(self) -> bool:
        return self.presenter.on

    def needed_size(self, screen: QScreen) -> QSize:
        """What the full-screen comparison needs on ``screen`` (see PresenterMode.needed_size)."""
        return self.presenter.needed_size(screen)

    def set_drafted_action(self, action) -> None:
        """Share the main window's "Show drafted tokens" switch (the check box follows it both ways)."""
        bind_toggle(self.drafted_toggle, action)

    def export(self, folder: Path) -> list[Path]:
        """Write the comparison as CSV and JSON and the chart as PNG into ``folder``."""
        return [] if self.comparison is None else export_comparison(self.comparison, self.chart, folder)

    # --- slots -------------------------------------------------------------------------------------
    def _on_job_started(self, index: int, job: Job, handle: ReplyHandle) -> None:
        planned: PlannedRun = job.tag
        mode = planned.mode
        name = self.tr("baseline") if mode == "baseline" else "EAGLE-3"
        self._job = (index, self._job[1], handle, job.settings.max_new_tokens)
        handle.sig_steps.connect(lambda record: self._on_reply_steps(handle, record))
        handle.sig_rate_points.connect(lambda points: self._on_rate_points(handle, points))
        handle.sig_text.connect(lambda text: self._on_reply_text(handle, text))
        if planned.warmup:
            self.summary.setText(self.tr("Warming up {mode} (not counted)…").format(mode=name))
            self.board.running(self.tr("Warming up both modes…"), self._progress(0.0))
            return
        if self._live_handle is None:  # the first counted run: the stage's placeholders go
            self._show_waiting("")
        if mode == "baseline" and not any(self.acceptance.counts):  # not "Warming up…" while runs are counted
            self.acceptance.set_note(self._steps_note())
        self.summary.setText(self.tr("Run {run} of {runs}: {mode}…").format(
            run=planned.repeat + 1, runs=self.repeats.value(), mode=name))
        self.board.running(self.tr("Run {run} of {runs} · {mode}").format(
            run=planned.repeat + 1, runs=self.repeats.value(), mode=name), self._progress(0.0))
        self._live_pane = self.baseline_pane if mode == "baseline" else self.speculative_pane
        self._live_handle = handle
        label = name if mode == "baseline" else f"EAGLE-3 K={job.settings.num_assistant_tokens}"
        self.chart.begin(handle, mode, label)
        self._live_record = None
        self._live_k = max_accepted(job.settings) if mode == "speculative" else None
        if self._live_k is not None:
            self.acceptance.show_steps(None, self._live_k, now=True)

    def _on_reply_steps(self, handle: ReplyHandle, record) -> None:
        if handle is self._job[2] and self.runner.is_running():
            self.board.running(self.board.headline.text(), self._progress(record.generated / max(1, self._job[3])))
        if self._live_pane is not None and handle is self._live_handle:
            self._live_record = record
            if self._live_k is not None:
                self.acceptance.show_steps(record, self._live_k)

    def _on_rate_points(self, handle: ReplyHandle, points) -> None:
        self.chart.add_points(handle, points)
        if handle is self._live_handle and self._live_pane is not None and points:
            self.board.show_rate(handle.mode, points[-1][1])

    def _on_reply_text(self, handle: ReplyHandle, text: str) -> None:
        if handle is self._job[2] and self._live_pane is not None and self.runner.is_running():
            self._live_pane.show_reply(text, self._live_record)

    def _on_job_finished(self, index: int, job_result) -> None:
        self.chart.finish(job_result.handle, job_result.result.stats if job_result.result is not None else None)
        planned = job_result.job.tag
        if job_result.result is not None and not planned.warmup:
            pane = self.baseline_pane if planned.mode == "baseline" else self.speculative_pane
            stats = job_result.result.stats
            pane.show_reply(job_result.result.text, stats.steps, typeset=True)
            self.board.show_rate(planned.mode, stats.tokens_per_s)
            if planned.mode == "speculative" and stats.steps is not None:
                self.acceptance.show_steps(stats.steps, stats.max_accepted, stats.accepted_tokens, now=True)
        self._live_pane, self._live_k = None, None

    def _on_done(self, results) -> None:
        runs = [ComparisonRun(r.job.tag.position, r.job.tag.mode, r.job.tag.repeat, r.job.tag.warmup,
                              r.result.stats, r.result.text) for r in results if r.result is not None]
        self._live_handle = None
        self._show_waiting("")
        if not all(any(r.mode == mode and not r.warmup for r in runs) for mode in ("baseline", "speculative")):
            self._sync_buttons()
            self.summary.setText(self.tr("The comparison did not finish."))
            self.board.stopped(self.tr("Cancelled") if self.runner.cancelled else self.tr("Did not finish"))
            return
        spec = self.controller.loaded.spec if self.controller.loaded else None
        precision = spec.precision if spec is not None else "?"
        fast = next(r.stats for r in runs if r.mode == "speculative" and not r.warmup)
        setup = ComparisonSetup(
            precision=precision, draft_free_baseline=any(r.job.draft_free for r in results),
            k=fast.num_assistant_tokens, tree=fast.tree, max_new_tokens=self._planned_tokens, device=fast.device,
            warmup_tokens=min(self._planned_tokens, WARMUP_MAX_TOKENS),
        )
        self.comparison = Comparison(self._running_prompt, runs, setup)  # what ran, whatever the box says now
        self._sync_buttons()  # Export, now that there is something to export
        self.board.show_result(self.comparison, texts.comparison_lines(self.comparison))
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
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export the comparison to…"), paths.start_folder())
        if folder:
            written = self.export(Path(folder))
            files = self.tr(", ", "between the items of a list").join(p.name for p in written)
            self.summary.setText(self.summary.text() + "\n" + self.tr("Exported: {files}").format(files=files))

    def _sync_buttons(self) -> None:
        self.controls.sync(self.runner.is_running(), self.comparison is not None)

    def _progress(self, within: float) -> float:
        """How far the whole comparison is, warm-ups included: jobs done plus ``within`` of the running one."""
        index, total, _, _ = self._job
        return (index + min(1.0, within)) / max(1, total)

    def _show_waiting(self, text: str) -> None:
        """Say what the stage waits for in the empty panes and charts ("" takes it away)."""
        for pane in (self.baseline_pane, self.speculative_pane):
            pane.setPlaceholderText(text)
        self.chart.set_note(text)
        if text:
            self.acceptance.set_note(text)

    # --- building ----------------------------------------------------------------------------------
    def _build(self) -> None:
        self.presets_row = PresetsRow()
        self.presets_row.sig_chosen.connect(self.run)
        self.controls = CompareControls(self.presets_row.prompts())
        c = self.controls  # the controls, by the names callers and tests use
        self.prompt, self.repeats, self.run_button, self.cancel_button = c.prompt, c.repeats, c.run_button, \
            c.cancel_button
        self.f32_button, self.draft_free_baseline, self.export_button, self.drafted_toggle = c.f32_button, \
            c.draft_free_baseline, c.export_button, c.drafted_toggle
        self.run_button.clicked.connect(lambda: self.run())
        self.cancel_button.clicked.connect(self.runner.cancel)
        self.f32_button.clicked.connect(self.rerun_f32)
        self.export_button.clicked.connect(self._export_clicked)
        self.drafted_toggle.toggled.connect(self._set_tint)
        self.offer = SpeedDemoOffer()
        self.board = VerdictBoard()
        self.summary = self.board.details  # the details under the headline
        self.summary.setText(self.tr("Pick a prompt and run the comparison."))

        self.baseline_pane = ComparePane()
        self.baseline_pane.setObjectName("compareBaselinePane")
        self.speculative_pane = ComparePane()
        self.speculative_pane.setObjectName("compareSpeculativePane")
        self.panes = panes = QSplitter()
        panes.setChildrenCollapsible(False)
        self.titles: list[QLabel] = []
        for pane, title in ((self.baseline_pane, self.tr("Baseline (plain decoding)")),
                            (self.speculative_pane, self.tr("EAGLE-3 speculative decoding"))):
            pane.setAccessibleName(self.tr("{title}: answer").format(title=title))
            panes.addWidget(self._titled(title, pane))
        self.chart = SpeedChart(latest_per_mode=True)  # each mode's newest run bold: the two are compared
        self.chart.setObjectName("compareChart")
        self.chart.chart().legend().setAlignment(Qt.AlignmentFlag.AlignRight)  # wide, not tall: height is scarce
        self.acceptance = AcceptanceChart()  # the EAGLE-3 run's steps
        self.acceptance.set_note(self._steps_note())  # not the chat's "send a message with EAGLE-3 on"

        layout = QVBoxLayout(self)
        # The window keeps the size it was given (or the screen's, full screen): a longer text after a run
        # never widens it past the screen's edge, taking Export with it.
        layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        for widget in (self.controls, self.presets_row, self.offer, self.board):
            layout.addWidget(widget)
        layout.addWidget(panes, 3)
        self.bottom = bottom = QHBoxLayout()
        bottom.addWidget(self.chart, 1)
        bottom.addWidget(self.acceptance, 1)
        layout.addLayout(bottom, 2)
        for key, slot, what in (
                (Qt.Key.Key_F5, lambda: self.run(), self.tr("Run the comparison")),
                (Qt.Key.Key_F11, lambda: self.set_demo(not self.demo),
                 self.tr("Full screen with large type on or off")),
                (Qt.Key.Key_Escape, self._escape,
                 self.tr("Cancel the run; with none running, leave full screen, else close the window"))):
            QShortcut(QKeySequence(key), self, activated=slot).setWhatsThis(what)
        self._sync_buttons()
        screen_fit.fit(self, QSize(1200, 760), centre=True)  # a window of its own: centred on the screen
        screen_fit.keep_on_screen(self)

    def _titled(self, title: str, widget: QWidget) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel(f"<b>{html.escape(title)}</b>")
        self.titles.append(label)
        layout.addWidget(label)
        layout.addWidget(widget)
        return box

    def _steps_note(self) -> str:
        return self.tr("The EAGLE-3 run's verification steps show here")

    def _escape(self) -> None:
        """Esc: cancel a run; with none running, leave full screen; in a window, close it."""
        if self.runner.is_running():
            self.runner.cancel()
        elif self.demo:
            self.set_demo(False)
        else:
            self.close()
