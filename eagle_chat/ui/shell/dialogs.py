"""WindowDialogs: one instance of each tool window the main window opens, reused, and all closed with it.

Get models, Auto-tune, the comparison and the demo pre-flight each run background work (child processes,
generation jobs). Each
is made on first use and shown again afterwards — so two pulls can never write the same ``.part`` file —
and :meth:`close_all` cancels whatever each is running and waits for it.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class WindowDialogs(QObject):
    sig_tuned = Signal(int, str)
    """Auto-tune chose K and a draft tree ("DEPTHxBRANCHING", or "" for a chain)."""
    sig_registered = Signal(str)
    """Get models registered a pair under this name."""
    sig_closed_get_models = Signal()
    """The Get models dialog was closed (its settings may have changed)."""
    sig_want_precision = Signal(str)
    """The comparison asks for a reload at this precision."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self.get_models = None
        self.tune = None
        self.compare = None
        self.preflight = None

    def open_get_models(self):
        from eagle_chat.ui.models.get_models import GetModelsDialog

        w = self._window
        if self.get_models is None:
            self.get_models = GetModelsDialog(w, registry=w.registry, settings=w.settings, device=w.settings.device)
            self.get_models.sig_registered.connect(self.sig_registered)
            self.get_models.finished.connect(lambda _result: self.sig_closed_get_models.emit())
        return self._raise(self.get_models)

    def open_tune(self):
        from eagle_chat.ui.speed.tune_dialog import TuneDialog

        if self.tune is None:
            self.tune = TuneDialog(self._window.controller, self._window)
            self.tune.sig_chosen.connect(self.sig_tuned)
            self.tune.sig_chosen.connect(lambda *_: self._window.demo.remember_report(self.tune.report))
        return self._raise(self.tune)

    def compare_view(self):
        """The comparison window, made (not shown) on first use: the pre-flight measures its layout."""
        from eagle_chat.ui.speed.compare_view import CompareView

        if self.compare is None:
            self.compare = CompareView(self._window.controller, self._window.generation_settings, None)
            self.compare.sig_want_precision.connect(self.sig_want_precision)
            self.compare.set_drafted_action(self._window.speculation.drafted_action)
            self._window.demo.attach_compare(self.compare)
        return self.compare

    def open_compare(self, *, demo: bool = False):
        self.compare_view().show()
        self.compare.set_demo(demo)
        self.compare.raise_()
        return self.compare

    def open_preflight(self):
        """The demo pre-flight panel (F11): checks, fixes, the presenter's prompts, then full screen."""
        from eagle_chat.ui.speed.preflight import PreflightPanel

        if self.preflight is None:
            self.preflight = PreflightPanel(self._window, self._window.demo, self._window)
        self._raise(self.preflight)
        self.preflight.recheck()
        return self.preflight

    def close_all(self) -> None:
        """Cancel every dialog's background work and wait for it (downloads end their process)."""
        if self.get_models is not None:
            self.get_models.close()  # cancels a running download and waits for its process
        if self.tune is not None:
            self.tune.runner.cancel()
            self.tune.close()
        if self.compare is not None:
            self.compare.runner.cancel()
            self.compare.close()
        if self.preflight is not None:
            self.preflight.close()
        self._window.demo.cancel()

    @staticmethod
    def _raise(dialog):
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog
