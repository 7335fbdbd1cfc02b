"""QuickTune: the short, headless draft-token sweep the demo preparation uses (and its quick probe).

The Auto-tune dialog sweeps K = 3…7 (and trees) on two prompts; before a demo a few seconds must do. This
sweeps K = 3, 4, 5 as chains — the speed-demo pair's catalog start is K=3 — on one prompt: an uncounted
warm-up of both modes, then :data:`ROUNDS` rounds of baseline and every K with the order reversed every
other round. The fastest K whose answer matches the baseline wins, and the median speed-up it measured is
what the pre-flight check and the compare view learn about this pair on this machine.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from eagle_chat.core.measure.bench import (
    BenchReport,
    choose,
    run_record,
    summarise,
    sweep_settings,
)
from eagle_chat.ui.runtime.controller import ChatController
from eagle_chat.ui.speed.batch_runner import BatchRunner, Job

QUICK_KS = (3, 4, 5)
QUICK_PROMPT = "Write quicksort in Python and explain its time complexity."
QUICK_TOKENS = 64
ROUNDS = 2


class QuickTune(QObject):
    sig_done = Signal(BenchReport)
    """The sweep ended: a BenchReport with ``chosen_k`` set, or None if it did not finish."""

    def __init__(self, controller: ChatController, parent: QObject | None = None, *, ks=QUICK_KS,
                 prompt: str = QUICK_PROMPT, max_new_tokens: int = QUICK_TOKENS, rounds: int = ROUNDS):
        super().__init__(parent)
        self.controller = controller
        self.ks, self.prompt, self.max_new_tokens, self.rounds = tuple(ks), prompt, max_new_tokens, rounds
        self.runner = BatchRunner(controller, self)
        self.runner.sig_done.connect(self._on_done)
        self.report: BenchReport | None = None

    def start(self) -> bool:
        """Start the sweep; False if the engine is busy (the controller says why)."""
        tokens = self.max_new_tokens
        jobs = [Job(self.prompt, sweep_settings(None, None, tokens), ("warmup", None, -1)),
                Job(self.prompt, sweep_settings(self.ks[0], None, tokens), ("warmup", self.ks[0], -1))]
        for repeat in range(self.rounds):
            order = [None, *self.ks]
            if repeat % 2:
                order.reverse()
            jobs += [Job(self.prompt, sweep_settings(k, None, tokens),
                         ("baseline" if k is None else "speculative", k, repeat)) for k in order]
        return self.runner.start(jobs)

    def is_running(self) -> bool:
        return self.runner.is_running()

    def cancel(self) -> None:
        self.runner.cancel()

    def _on_done(self, results) -> None:
        runs = [run_record(mode, k, 0, repeat, r.result) for r in results if r.result is not None
                for mode, k, repeat in [r.job.tag] if mode != "warmup"]
        measured = [k for k in self.ks if any(r.k == k for r in runs)]
        if not measured or not any(r.mode == "baseline" for r in runs):
            self.report = None
            self.sig_done.emit(None)
            return
        spec = self.controller.loaded.spec if self.controller.loaded else None
        report = BenchReport(getattr(spec, "device", "?"), getattr(spec, "precision", "?"), "same",
                             self.max_new_tokens, [self.prompt], runs)
        report.summary = [summarise(runs, k) for k in measured]
        best = choose(report)
        report.chosen_k, report.chosen_tree = best.k, best.tree
        self.report = report
        self.sig_done.emit(report)
