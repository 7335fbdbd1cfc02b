"""Auto-tune: sweep the number of draft tokens on a short calibration set and keep the fastest K.

The right K depends on the model, the kind of prompt and the device, so it is measured here, on this
machine: a baseline run and one run per K for each calibration prompt, interleaved. The fastest K whose
output matches the baseline wins and is saved per (model, draft, device).
"""

from __future__ import annotations

from PySide6.QtCharts import QBarCategoryAxis, QBarSeries, QBarSet, QChart, QChartView, QLineSeries, QValueAxis
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from eagle_chat.core.bench import TUNE_KS, BenchReport, choose_k, run_record, summarise
from eagle_chat.core.engine import GenerationSettings
from eagle_chat.ui.batch_runner import BatchRunner, Job
from eagle_chat.ui.controller import ChatController

CALIBRATION_PROMPTS = (
    "Write a Python function that reverses a string.",
    "Write quicksort in Python and explain its time complexity.",
)
CALIBRATION_TOKENS = 96


class TuneDialog(QDialog):
    sig_chosen = Signal(int)
    """The sweep chose this K."""

    def __init__(self, controller: ChatController, parent: QWidget | None = None, *,
                 ks=TUNE_KS, prompts=CALIBRATION_PROMPTS, max_new_tokens: int = CALIBRATION_TOKENS):
        super().__init__(parent)
        self.setObjectName("tuneDialog")
        self.setWindowTitle("Auto-tune draft tokens")
        self.controller = controller
        self.ks = tuple(ks)
        self.prompts = tuple(prompts)
        self.max_new_tokens = max_new_tokens
        self.report: BenchReport | None = None
        self.runner = BatchRunner(controller, self)
        self.runner.sig_job_finished.connect(self._on_job_finished)
        self.runner.sig_done.connect(self._on_done)
        self._build()

    def start(self) -> bool:
        """Warm-up, then for each prompt: baseline and every K (alternating order)."""
        jobs = [Job(self.prompts[0], self._settings(None), ("warmup", None, -1))]
        for index, prompt in enumerate(self.prompts):
            order = [None, *self.ks]
            if index % 2:
                order.reverse()
            jobs += [Job(prompt, self._settings(k), ("baseline" if k is None else "speculative", k, index))
                     for k in order]
        self._total = len(jobs)
        self.status.setText(f"Measuring… 0/{self._total}")
        started = self.runner.start(jobs)
        self.start_button.setEnabled(not started)
        if not started:
            self.status.setText("The model is busy or has no EAGLE-3 draft; try again later.")
        return started

    def _settings(self, k: int | None) -> GenerationSettings:
        return GenerationSettings(max_new_tokens=self.max_new_tokens, speculative=k is not None,
                                  num_assistant_tokens=k or 1)

    def _on_job_finished(self, index: int, job_result) -> None:
        self.status.setText(f"Measuring… {index + 1}/{self._total}")

    def _on_done(self, results) -> None:
        self.start_button.setEnabled(True)
        runs = []
        for job_result in results:
            mode, k, prompt_index = job_result.job.tag
            if mode == "warmup" or job_result.result is None:
                continue
            runs.append(run_record(mode, k, prompt_index, 0, job_result.result))
        measured = [k for k in self.ks if any(r.k == k for r in runs)]
        if not measured or not any(r.mode == "baseline" for r in runs):
            self.status.setText("The sweep did not finish.")
            return
        spec = (self.controller.loaded or {}).get("spec")
        report = BenchReport(getattr(spec, "device", "?"), getattr(spec, "precision", "?"), "same",
                             self.max_new_tokens, list(self.prompts), runs)
        report.summary = [summarise(runs, k) for k in measured]
        report.chosen_k = choose_k(report)
        self.report = report
        self._plot(report)
        best = next(s for s in report.summary if s.k == report.chosen_k)
        self.status.setText(
            f"Fastest: K={report.chosen_k} — {best.speculative_tokens_per_s:.0f} tok/s vs baseline "
            f"{best.baseline_tokens_per_s:.0f} (×{best.speedup:.2f}). Saved as the default for this model, "
            "draft and device."
        )
        self.sig_chosen.emit(report.chosen_k)

    def _plot(self, report: BenchReport) -> None:
        chart = self.chart_view.chart()
        chart.removeAllSeries()
        for axis in chart.axes():
            chart.removeAxis(axis)
        bars = QBarSet("EAGLE-3 tokens/s")
        bars.setColor(QColor("#059669"))
        for s in report.summary:
            bars.append(s.speculative_tokens_per_s)
        series = QBarSeries()
        series.append(bars)
        chart.addSeries(series)
        categories = QBarCategoryAxis()
        categories.append([f"K={s.k}" for s in report.summary])
        values = QValueAxis()
        top = max([s.speculative_tokens_per_s for s in report.summary] + [report.summary[0].baseline_tokens_per_s])
        values.setRange(0, top * 1.15)
        chart.addAxis(categories, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(values, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(categories)
        series.attachAxis(values)
        baseline = QLineSeries()
        baseline.setName("baseline")
        pen = QPen(QColor("#6b7280"))
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setWidthF(2)
        baseline.setPen(pen)
        level = report.summary[0].baseline_tokens_per_s
        baseline.append([QPointF(-0.5, level), QPointF(len(report.summary) - 0.5, level)])
        chart.addSeries(baseline)
        hidden_x = QValueAxis()
        hidden_x.setRange(-0.5, len(report.summary) - 0.5)
        hidden_x.setVisible(False)
        chart.addAxis(hidden_x, Qt.AlignmentFlag.AlignBottom)
        baseline.attachAxis(hidden_x)
        baseline.attachAxis(values)

    def _build(self) -> None:
        self.chart_view = QChartView(QChart())
        self.chart_view.setObjectName("tuneChart")
        self.chart_view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.chart_view.chart().setTitle("tokens/s per number of draft tokens (dashed: baseline)")
        self.chart_view.setMinimumSize(520, 300)
        self.status = QLabel("Measures each K on two short prompts (about a minute on a laptop).")
        self.status.setObjectName("tuneStatus")
        self.status.setWordWrap(True)
        self.start_button = QPushButton("Start")
        self.start_button.setObjectName("tuneStartButton")
        self.start_button.clicked.connect(self.start)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.chart_view)
        layout.addWidget(self.status)
        layout.addLayout(buttons)

    def reject(self) -> None:
        self.runner.cancel()
        super().reject()
