"""Auto-tune: sweep the number of draft tokens (and, optionally, draft trees) on a short calibration set and
keep the fastest.

The right K depends on the model, the kind of prompt and the device, so it is measured here, on this
machine: a baseline run and one run per configuration for each calibration prompt, interleaved. The fastest
configuration whose output matches the baseline wins and is saved per (model, draft, device).

On the NPU, GenAI drafts trees only (a chain of K is a tree K deep with one branch) within limits compiled
into the draft, so there the sweep tries trees by default and keeps only those the compiled limits allow.
"""

from __future__ import annotations

from PySide6.QtCharts import (
    QBarCategoryAxis,
    QBarSeries,
    QBarSet,
    QChart,
    QChartView,
    QLineSeries,
    QValueAxis,
)
from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from eagle_chat.core.measure.bench import (
    TUNE_KS,
    TUNE_TREES,
    BenchReport,
    choose,
    run_record,
    summarise,
    sweep_configs,
    sweep_settings,
    tree_label,
)
from eagle_chat.ui.widgets import screen_fit
from eagle_chat.ui.runtime.controller import ChatController
from eagle_chat.ui.words.i18n import translate
from eagle_chat.ui.speed.batch_runner import BatchRunner, Job
from eagle_chat.ui.speed.chart_style import PALETTE_EVENTS, series_pen, style_chart

CALIBRATION_PROMPTS = (
    "Write a Python function that reverses a string.",
    "Write quicksort in Python and explain its time complexity.",
)
CALIBRATION_TOKENS = 96


class TuneDialog(QDialog):
    sig_chosen = Signal(int, str)
    """The sweep chose this K, and this draft tree ("DEPTHxBRANCHING"; "" for a chain)."""

    def __init__(self, controller: ChatController, parent: QWidget | None = None, *,
                 ks=TUNE_KS, trees=TUNE_TREES, prompts=CALIBRATION_PROMPTS,
                 max_new_tokens: int = CALIBRATION_TOKENS):
        super().__init__(parent)
        self.setObjectName("tuneDialog")
        self.setWindowTitle(self.tr("Auto-tune draft tokens"))
        self.controller = controller
        self.ks = tuple(ks)
        self.trees = tuple(trees)
        self._configs: list[tuple[int, tuple[int, int] | None]] = []
        self.prompts = tuple(prompts)
        self.max_new_tokens = max_new_tokens
        self.report: BenchReport | None = None
        self.runner = BatchRunner(controller, self)
        self.runner.sig_job_finished.connect(self._on_job_finished)
        self.runner.sig_done.connect(self._on_done)
        self._build()

    def configurations(self) -> list[tuple[int, tuple[int, int] | None]]:
        """(K, tree or None) to measure: every K as a chain, plus every tree with each K it fits when asked;
        on the NPU only what its compiled limits allow."""
        return sweep_configs(self.ks, self.trees if self.trees_check.isChecked() else (), npu=self.npu_limits())

    def npu_limits(self):
        """The NpuOptions the loaded pair was compiled with when it runs on the NPU, else None."""
        spec = self.controller.loaded.spec if self.controller.loaded else None
        return spec.npu if getattr(spec, "device", None) == "NPU" and spec.draft_dir is not None else None

    def start(self) -> bool:
        """Warm-up, then for each prompt: baseline and every configuration (alternating order)."""
        self._configs = self.configurations()
        jobs = [Job(self.prompts[0], sweep_settings(None, None, self.max_new_tokens), ("warmup", None, -1))]
        for index, prompt in enumerate(self.prompts):
            order = [(None, None), *self._configs]
            if index % 2:
                order.reverse()
            jobs += [Job(prompt, sweep_settings(k, tree, self.max_new_tokens),
                         ("baseline" if k is None else "speculative", k, index)) for k, tree in order]
        self._total = len(jobs)
        self.status.setText(self.tr("Measuring… {done}/{total}").format(done=0, total=self._total))
        started = self.runner.start(jobs)
        self.start_button.setEnabled(not started)
        if not started:
            self.status.setText(self.tr("The model is busy or has no EAGLE-3 draft; try again later."))
        return started

    def _on_job_finished(self, index: int, job_result) -> None:
        self.status.setText(self.tr("Measuring… {done}/{total}").format(done=index + 1, total=self._total))

    def _on_done(self, results) -> None:
        self.start_button.setEnabled(True)
        if self.runner.cancelled:
            self.status.setText(self.tr("The sweep was stopped; nothing was saved."))
            return
        runs, stopped = [], []
        for job_result in results:
            mode, k, prompt_index = job_result.job.tag
            if mode == "warmup" or job_result.result is None:
                continue
            if job_result.result.stopped:  # cut short by Stop: its speed means nothing
                stopped.append(job_result.job)
                continue
            runs.append(run_record(mode, k, prompt_index, 0, job_result.result))
        prompts = set(range(len(self.prompts)))

        def complete(k, tree) -> bool:  # a configuration counts only when measured on every prompt
            return {r.prompt_index for r in runs if r.mode == "speculative" and r.k == k and r.tree == tree} == prompts

        measured = [(k, tree_label(tree)) for k, tree in self._configs if complete(k, tree_label(tree))]
        if not measured or {r.prompt_index for r in runs if r.mode == "baseline"} != prompts:
            self.status.setText(self.tr("The sweep did not finish (a run was stopped or failed); nothing was saved."))
            return
        spec = self.controller.loaded.spec if self.controller.loaded else None
        report = BenchReport(getattr(spec, "device", "?"), getattr(spec, "precision", "?"), "same",
                             self.max_new_tokens, list(self.prompts), runs)
        report.summary = [summarise(runs, k, tree) for k, tree in measured]
        best = choose(report)
        report.chosen_k, report.chosen_tree = best.k, best.tree
        self.report = report
        self._plot(report)
        skipped = (" " + self.tr("%n stopped run(s) not counted.", "", len(stopped))) if stopped else ""
        self.status.setText(self.tr(
            "Fastest: {config} — {speculative:.0f} tok/s vs baseline {baseline:.0f} (×{speedup:.2f}). Saved as "
            "the default for this model, draft and device."
        ).format(config=_config_label(best), speculative=best.speculative_tokens_per_s,
                 baseline=best.baseline_tokens_per_s, speedup=best.speedup) + skipped)
        self.sig_chosen.emit(best.k, best.tree or "")

    def _plot(self, report: BenchReport) -> None:
        chart = self.chart_view.chart()
        chart.removeAllSeries()
        for axis in chart.axes():
            chart.removeAxis(axis)
        bars = QBarSet(self.tr("EAGLE-3 tokens/s"))
        for s in report.summary:
            bars.append(s.speculative_tokens_per_s)
        series = QBarSeries()
        series.append(bars)
        chart.addSeries(series)
        categories = QBarCategoryAxis()
        categories.append([_config_label(s) for s in report.summary])
        values = QValueAxis()
        top = max([s.speculative_tokens_per_s for s in report.summary] + [report.summary[0].baseline_tokens_per_s])
        values.setRange(0, top * 1.15)
        chart.addAxis(categories, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(values, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(categories)
        series.attachAxis(values)
        baseline = QLineSeries()
        baseline.setName(self.tr("baseline"))
        level = report.summary[0].baseline_tokens_per_s
        baseline.append([QPointF(-0.5, level), QPointF(len(report.summary) - 0.5, level)])
        chart.addSeries(baseline)
        hidden_x = QValueAxis()
        hidden_x.setRange(-0.5, len(report.summary) - 0.5)
        hidden_x.setVisible(False)
        chart.addAxis(hidden_x, Qt.AlignmentFlag.AlignBottom)
        baseline.attachAxis(hidden_x)
        baseline.attachAxis(values)
        self._bars, self._baseline = bars, baseline
        self._apply_palette()

    def _apply_palette(self) -> None:
        """Chart, bars and the dashed baseline in the colours of the current palette (light or dark)."""
        colours = style_chart(self.chart_view.chart(), self.palette())  # the view inherits it, after this event
        if self._bars is not None:
            self._bars.setColor(QColor(colours.speculative))
            self._bars.setBorderColor(QColor(colours.speculative))
            self._baseline.setPen(series_pen("baseline", colours))

    def _build(self) -> None:
        screen_fit.keep_on_screen(self)
        self._bars: QBarSet | None = None
        self._baseline: QLineSeries | None = None
        self.chart_view = QChartView(QChart())
        self.chart_view.setObjectName("tuneChart")
        self.chart_view.setAccessibleName(self.tr("Auto-tune results chart"))
        self.chart_view.setAccessibleDescription(self.tr(
            "Bars: EAGLE-3 tokens per second for each number of draft tokens (K) tried; dashed line: baseline"))
        self.chart_view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.chart_view.chart().setTitle(self.tr("tokens/s per number of draft tokens (dashed: baseline)"))
        self.chart_view.setMinimumSize(520, 300)
        self._apply_palette()
        self.status = QLabel(self.tr("Measures each K on two short prompts (about a minute on a laptop)."))
        self.status.setObjectName("tuneStatus")
        self.status.setWordWrap(True)
        self.trees_check = QCheckBox(self._trees_text())
        self.trees_check.setObjectName("tuneTreesCheck")
        self.trees_check.setVisible(bool(self.trees))
        self.start_button = QPushButton(self.tr("Start"))
        self.start_button.setObjectName("tuneStartButton")
        self.start_button.clicked.connect(self.start)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.chart_view)
        layout.addWidget(self.status)
        layout.addWidget(self.trees_check)
        layout.addLayout(buttons)

    def reject(self) -> None:
        self.runner.cancel()
        super().reject()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        """The device may have changed since the dialog was made: on the NPU trees are tried by default."""
        npu = self.npu_limits()
        if npu is not None:
            self.trees_check.setChecked(True)
        self.trees_check.setText(self._trees_text(npu))
        super().showEvent(event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() in PALETTE_EVENTS:
            self._apply_palette()
        super().changeEvent(event)

    def _trees_text(self, npu=None) -> str:
        """The tree check box: which trees are tried, and on the NPU within which compiled limits."""
        trees = self.tr(", ", "between the items of a list").join(
            self.tr("depth {depth} × {branching} branches").format(depth=d, branching=b) for d, b in self.trees)
        if npu is None:
            return self.tr("Also try draft trees ({trees}); takes about twice as long").format(trees=trees)
        return self.tr(
            "Also try draft trees ({trees}). The NPU drafts trees only (a chain is a tree one branch wide), up to "
            "depth {depth} × {branching} branches and {tokens} draft tokens as compiled"
        ).format(trees=trees, depth=npu.max_tree_depth, branching=npu.max_branching_factor,
                 tokens=npu.max_assistant_tokens)


def _config_label(summary) -> str:
    """"K=5", or "K=5, tree 3x2": K and the tree's DEPTHxBRANCHING are symbols, the rest is translated."""
    if summary.tree:
        return translate("TuneDialog", "K={k}, tree {tree}").format(k=summary.k, tree=summary.tree)
    return f"K={summary.k}"
