"""DemoKit: what demo preparation shares between the compare view, the pre-flight panel and the window —
the warm start, the quick tune, the speed-demo flow, and what was measured about each pair's speed-up.

Made once by the window; the compare view is attached when it is first opened. It only asks the window
for things through its public methods and the objects it already shows (settings binder, models menu).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from eagle_chat.core.measure.bench import BenchReport
from eagle_chat.core.measure.compare import MIN_COUNTED_RUNS
from eagle_chat.core.measure.speedup_outlook import Outlook, outlook, remember_speedup
from eagle_chat.core.models import speed_demo
from eagle_chat.ui.words import demo_texts, texts
from eagle_chat.ui.speed.quick_tune import QuickTune
from eagle_chat.ui.speed.speed_demo_flow import SpeedDemoFlow
from eagle_chat.ui.speed.warm_start import WarmStart


class DemoKit(QObject):
    sig_tuned = Signal(BenchReport)
    """A quick tune ended: its BenchReport (K and speed-up saved), or None if it did not finish."""
    sig_changed = Signal()
    """Something a pre-flight line shows may have changed (a measurement, a tuning, a flow step)."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self.warm_start = WarmStart(window.controller, window.generation_settings, window.pipeline_spec().cache_dir,
                                    self)
        self.quick_tune = QuickTune(window.controller, self)
        self.quick_tune.sig_done.connect(self._on_tuned)
        self.flow = SpeedDemoFlow(window, self, self)
        self.compare = None
        self._faster: float | None = None  # the last comparison of the loaded pair said "×… faster"
        window.controller.sig_loaded.connect(self._on_loaded)
        self.flow.sig_step.connect(self._on_step)
        self.flow.sig_ready.connect(self._on_ready)
        self.flow.sig_failed.connect(self._on_failed)
        for signal in (self.warm_start.sig_changed, self.flow.sig_step, self.flow.sig_failed):
            signal.connect(self.sig_changed)

    # --- public API ------------------------------------------------------------------------------------
    def attach_compare(self, view) -> None:
        """The compare view was made: show the offer when it applies, run after the flow, learn from it."""
        self.compare = view
        view.offer.sig_accepted.connect(lambda: self.flow.start(run=True))
        view.sig_finished.connect(self._on_compared)
        view.set_custom_prompts(self._window.settings.demo_prompts)
        self.refresh_offer()

    def outlook(self) -> Outlook:
        """What is known about the current pair's speed-up on this device, at the precision in use."""
        w = self._window
        return outlook(w.settings, w.model.target_dir, w.model.draft_dir, w.settings.device, self.precision(),
                       bundled=w.model.bundled, is_speed_demo=w.model.name == speed_demo.NAME)

    def precision(self) -> str:
        spec = self._window.controller.loaded.spec if self._window.controller.loaded else None
        return spec.precision if spec is not None else self._window.pipeline_spec().precision

    def tune(self) -> bool:
        """Run the quick tune on the loaded pair; its K and speed-up are saved when it ends."""
        return not self.quick_tune.is_running() and self.quick_tune.start()

    def remember_report(self, report) -> None:
        """Keep what a sweep (quick, or the Auto-tune dialog's) measured about this pair's speed-up."""
        if report is None or report.chosen_k is None:
            return
        best = next(s for s in report.summary if s.k == report.chosen_k and s.tree == report.chosen_tree)
        self._remember(best.speedup, report.precision)

    def set_demo_prompts(self, prompts: list[str]) -> None:
        """The presenter's own prompts: saved, and shown in the compare view."""
        from eagle_chat.ui.speed.presets_row import clean_prompts

        self._window.binder.update(demo_prompts=clean_prompts(prompts))
        if self.compare is not None:
            self.compare.set_custom_prompts(self._window.settings.demo_prompts)

    def refresh_offer(self) -> None:
        if self.compare is None or self.flow.is_running():
            return
        name = texts.model_name(self._window.model)
        self.compare.offer.offer(demo_texts.outlook_sentence(self.outlook(), name, self._faster))

    def cancel(self) -> None:
        """Stop a quick tune in flight (the window is closing)."""
        self.quick_tune.cancel()

    # --- slots -------------------------------------------------------------------------------------------
    def _remember(self, speedup: float, precision: str) -> None:
        w = self._window
        remember_speedup(w.settings, w.model.target_dir, w.model.draft_dir, w.settings.device, precision, speedup)
        w.binder.persist()
        self.sig_changed.emit()

    def _on_tuned(self, report) -> None:
        if report is not None:
            self._window.save_tuned_k(report.chosen_k, report.chosen_tree or "")
            self.remember_report(report)
        self.sig_tuned.emit(report)
        self.sig_changed.emit()

    def _on_loaded(self, _info) -> None:
        self._faster = None  # another load: the last verdict was about what was loaded before
        self.refresh_offer()

    def _on_compared(self, comparison) -> None:
        # The headline says "×1.2 faster" in large type: the note under it must not flatly say the pair cannot
        # show a speed-up, but why this one is not to be relied on.
        self._faster = comparison.speedup if comparison.verdict == "faster" else None
        if comparison.repeats >= MIN_COUNTED_RUNS:
            self._remember(comparison.speedup, comparison.precision)
        self.refresh_offer()

    def _on_step(self, step: str) -> None:
        if self.compare is not None and step != "ready":
            self.compare.offer.busy(demo_texts.flow_text(step))

    def _on_ready(self, run: bool) -> None:
        self.refresh_offer()
        if run and self.compare is not None:
            self.compare.run()

    def _on_failed(self, message: str) -> None:
        if self.compare is not None:
            self.compare.offer.offer(message)
