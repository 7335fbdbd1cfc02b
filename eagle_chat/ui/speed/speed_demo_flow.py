"""SpeedDemoFlow: the speed-demo pair in one click — build if needed, load at f32, tune, and (optionally) run.

Each step reuses what the app already has: the Models menu builds and registers the pair on a helper thread
(:meth:`ModelsMenu.choose_speed_demo`), the window loads it like any chosen pair, the demo kit's quick tune
picks K (the pair's catalog start is K=3) unless a K is already tuned for this device. The window stays
responsive throughout; a step that fails says why and leaves the app as usable as before.

f32, because at the CPU's reduced precision (bf16 compute or an 8-bit KV cache) verifying several tokens at
once rounds differently from one at a time, so the two modes' answers part after a while; at f32 greedy
answers are identical, which is what a demo must show.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal

from eagle_chat.core.measure.tuning import tuned_choice
from eagle_chat.core.models import speed_demo
from eagle_chat.core.generation.loaded import LoadedPipeline

DEMO_PRECISION = "f32"


class SpeedDemoFlow(QObject):
    sig_step = Signal(str)
    """The flow reached a step: "build", "wait" (for a reply to finish), "load", "tune" or "ready"."""
    sig_ready = Signal(bool)
    """The speed-demo pair is loaded at f32 with a tuned K; True if a comparison should run now."""
    sig_failed = Signal(str)
    """A step failed: the sentence to show."""

    def __init__(self, window, kit, parent: QObject | None = None):
        super().__init__(parent)
        self._window = window
        self._kit = kit
        self.step: str | None = None  # None: not running
        self._run_after = False
        controller = window.controller
        controller.sig_loaded.connect(self._on_loaded)
        controller.sig_error.connect(self._on_error)
        window.loads.sig_refused.connect(lambda message, _still: self._on_refused(message))
        # Emitted on the build thread; queued to run here, after the menu's own slot has asked for the load.
        window.models_menu.sig_speed_demo_built.connect(self._on_built, Qt.ConnectionType.QueuedConnection)
        kit.sig_tuned.connect(self._on_tuned)

    def is_running(self) -> bool:
        return self.step is not None

    def start(self, *, run: bool = True) -> bool:
        """Start the flow (``run``: compare when ready); False if it is already under way or the engine is
        busy with something the user started."""
        w = self._window
        reply = w.controller.reply
        if self.step is not None:
            return False
        if w.controller.state == "loading" or (reply is not None and not reply.background):
            self.sig_failed.emit(self.tr("The model is busy; try again when the reply has finished."))
            return False
        self._run_after = run
        if w.settings.precision != DEMO_PRECISION:
            w.options.precision.setCurrentIndex(w.options.precision.findData(DEMO_PRECISION))
            w.binder.update(precision=DEMO_PRECISION)
        if self.loaded_as_wanted():
            self._after_load()
        elif speed_demo.NAME in w.registry.names():
            self._go("load")
            w.models_menu.choose_registered(speed_demo.NAME)
        else:
            self._go("build")
            w.models_menu.choose_speed_demo()
        return True

    def loaded_as_wanted(self) -> bool:
        """The speed-demo pair is what is loaded, at f32."""
        w = self._window
        spec = w.controller.loaded.spec if w.controller.loaded else None
        if spec is None or w.model.name != speed_demo.NAME or speed_demo.NAME not in w.registry.names():
            return False
        pair = w.registry.get(speed_demo.NAME)
        return spec.precision == DEMO_PRECISION and Path(spec.target_dir) == pair.target_path

    # --- steps -----------------------------------------------------------------------------------------
    def _go(self, step: str) -> None:
        self.step = step
        self.sig_step.emit(step)

    def _on_built(self, error: str) -> None:
        if self.step != "build":
            return
        if error:
            self._fail(error)
        elif self._window.controller.state == "loading":
            self._go("load")  # the menu chose the new pair and its load is under way
        else:
            # A reply the user started during the build kept the menu's load from starting: load once the
            # engine is free (the window already shows the new pair).
            self._go("wait")
            self._window.controller.sig_state.connect(self._load_when_free)
            self._load_when_free(self._window.controller.state)

    def _load_when_free(self, state: str) -> None:
        controller = self._window.controller
        if self.step != "wait" or state != "ready" or (controller.reply is not None and not controller.reply.background):
            return
        controller.sig_state.disconnect(self._load_when_free)
        self._go("load")
        self._window.models_menu.choose_registered(speed_demo.NAME)  # a load of the pair, at f32

    def _on_loaded(self, _info: LoadedPipeline) -> None:
        if self.step not in ("build", "load"):
            return
        if self.loaded_as_wanted():
            self._after_load()
        else:
            self._fail(self.tr("Another model was loaded meanwhile; the speed-demo pair was not."))

    def _after_load(self) -> None:
        w = self._window
        tuned = tuned_choice(w.settings, w.model.target_dir, w.model.draft_dir, w.settings.device)
        if tuned.k is not None:
            self._ready()
            return
        self._go("tune")
        if not self._kit.tune():
            self._fail(self.tr("The short tune could not start; the model is busy."))

    def _on_tuned(self, report) -> None:
        if self.step != "tune":
            return
        if report is None:
            self._fail(self.tr("The short tune did not finish."))
        else:
            self._ready()

    def _on_error(self, message: str) -> None:
        if self.step in ("build", "load") and self._window.controller.state == "empty":
            self._fail(message)

    def _on_refused(self, message: str) -> None:
        """The pair's load was refused or failed (the window's model loads are transactions)."""
        if self.step == "load":
            self._fail(message)

    def _ready(self) -> None:
        self.step = None
        self.sig_step.emit("ready")
        self.sig_ready.emit(self._run_after)

    def _fail(self, message: str) -> None:
        self.step = None
        self.sig_failed.emit(message)
