"""ModelLoads: changing the model, device or precision as a transaction.

The window used to write a new choice into the settings and then ask for the load; a load that was refused
(a reply running) or failed (a bad folder) left the settings, the model label and the status bar naming a
model that was not the one running. Here a request is only a candidate: settings, label and status change
when the worker reports *that* load (matched by its id) finished; a refused or failed one puts the controls
back and says why — and which model still runs. While a reply or a load runs, the controls that would start
a load are off, with the reason in their tooltip.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal, Slot

from eagle_chat.core.measure.tuning import clamp_k, start_k
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.ui.words import texts
from eagle_chat.core.generation.loaded import LoadedPipeline


@dataclass(frozen=True)
class LoadRequest:
    model: ModelChoice
    device: str
    precision: str  # "default" or "f32"
    prefix_cache: bool = True  # reuse the KV cache of earlier turns (CPU/GPU)
    load_id: int | None = None
    remember_model: bool = True  # False: a stand-in (the fallback) that leaves the saved folders as they are


class ModelLoads(QObject):
    sig_committed = Signal(LoadRequest, LoadedPipeline)
    """The requested load finished: the LoadRequest and the worker's info. Settings and window follow it."""
    sig_refused = Signal(str, bool)
    """A change was refused or did not load: the sentence, and whether a model (the previous one) still runs."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self.pending: LoadRequest | None = None
        # The pair loaded instead if the first load (a --model folder) fails with nothing loaded: the one the
        # app opens on without --model. Cleared once that first load ends either way.
        self.fallback: ModelChoice | None = None
        window.controller.sig_loaded.connect(self._on_loaded)
        window.controller.sig_load_failed.connect(self._on_failed)

    def request(self, *, model: ModelChoice | None = None, device: str | None = None,
                precision: str | None = None, prefix_cache: bool | None = None, remember_model: bool = True) -> bool:
        """Load ``model`` / ``device`` / ``precision`` / ``prefix_cache`` (the rest as now); False if it
        cannot start now. ``remember_model`` False keeps the saved folders once it loads."""
        w = self._window
        candidate = LoadRequest(model or w.model, device or w.settings.device, precision or w.settings.precision,
                                w.settings.prefix_cache if prefix_cache is None else prefix_cache,
                                remember_model=remember_model)
        reason = texts.busy_reason(w.controller.state)
        if reason is not None:
            self._put_controls_back()
            self.sig_refused.emit(self.tr("{reason} Nothing was changed.").format(reason=reason),
                                  w.controller.loaded is not None)
            return False
        load_id = w.controller.load(w.pipeline_spec(candidate.model, candidate.device, candidate.precision,
                                                    candidate.prefix_cache))
        if load_id is None:
            self._put_controls_back()
            return False
        self.pending = replace(candidate, load_id=load_id)
        w.show_state()
        return True

    def lock_controls(self, state: str) -> None:
        """Controls that start a load are off while a reply or a load runs; the tooltip says why."""
        reason = texts.busy_reason(state)
        w = self._window
        w.model_bar.set_busy(reason)
        w.options.set_reload_locked(reason)
        w.models_menu.set_locked(reason)

    @Slot(object)
    def _on_loaded(self, info: LoadedPipeline) -> None:
        request = self.pending
        if request is None or info.load_id != request.load_id:
            return
        self.pending = None
        self.fallback = None
        w = self._window
        w.model = request.model
        changes = {"target_dir": str(request.model.target_dir),
                   "draft_dir": None if request.model.draft_dir is None else str(request.model.draft_dir),
                   "device": request.device, "precision": request.precision, "prefix_cache": request.prefix_cache}
        if not request.remember_model:
            del changes["target_dir"], changes["draft_dir"]
        changed = {k: v for k, v in changes.items() if getattr(w.settings, k) != v}
        if changed:
            w.binder.update(**changed)
        self._put_controls_back()
        w.has_draft = info.has_draft
        w.model_bar.set_draft_available(w.has_draft)
        w.options.set_thinking_supported(info.supports_thinking)
        w.options.lock_greedy(w.has_draft)
        paths = "\n".join((str(w.model.target_dir), str(w.model.draft_dir or self.tr("no draft"))))
        w.model_bar.set_model_text(texts.model_label(w.model), paths)
        k = start_k(w.settings, w.registry, w.model.target_dir, w.model.draft_dir, w.settings.device)
        if k is not None:
            w.model_bar.k_slider.setValue(clamp_k(k))
        w.statusBar().showMessage(self.tr("Loaded in {seconds:.1f} s").format(seconds=info.load_time_ms / 1000),
                                  5000)
        w.show_state()
        self.sig_committed.emit(request, info)

    @Slot(int, str, bool)
    def _on_failed(self, load_id: int, message: str, still_loaded: bool) -> None:
        request = self.pending
        if request is None or load_id != request.load_id:
            return
        self.pending = None
        fallback, self.fallback = self.fallback, None
        self._put_controls_back()
        w = self._window
        if not still_loaded and fallback is not None and self.request(model=fallback, remember_model=False):
            self.sig_refused.emit(self.tr("{reason} Loading the model EagleChat opens with instead: {model}.").format(
                reason=message, model=texts.model_label(fallback)), False)
            return
        if still_loaded:
            message = self.tr("{reason} {model} is still loaded and answers as before.").format(
                reason=message, model=texts.model_label(w.model))
        else:
            message = self.tr("{reason} No model is loaded: choose one in Models….").format(reason=message)
            w.model_bar.set_model_text(self.tr("No model loaded"), message)
        w.show_state()
        self.sig_refused.emit(message, still_loaded)

    def _put_controls_back(self) -> None:
        """The device and precision controls show what is loaded (settings), not a refused choice."""
        w = self._window
        w.model_bar.set_device(w.settings.device)
        w.options.precision.setCurrentIndex(max(0, w.options.precision.findData(w.settings.precision)))
        w.options.prefix_cache.setChecked(w.settings.prefix_cache)
