"""EngineStatus: what the window says when the engine host ends, restarts, hangs or is unloaded.

A crash mid-reply is said under the reply and in the notice bar (the controller's sig_error, with the log's
path); here: the status bar while the host starts again, the notice when it is not started again (crashes
came too often, or the restart failed) with a button to load the model again, the offer to restart an
engine whose reply ignores Stop, and the unload.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot

from eagle_chat.ui.words import texts
from eagle_chat.ui.words.i18n import translate

STATUS_MS = 8000


class EngineStatus(QObject):
    def __init__(self, window):
        super().__init__(window)
        self._window = window
        c = window.controller
        c.sig_engine_lost.connect(self._on_lost)
        c.sig_engine_restarted.connect(self._on_restarted)
        c.sig_engine_hung.connect(self._on_hung)
        c.sig_unloaded.connect(self._on_unloaded)
        c.sig_loaded.connect(self._on_loaded)
        window.models_menu.sig_unload.connect(self.unload)
        self._no_model_notice = ""  # the "no model is loaded" notice this shows, which a load takes away

    @Slot()
    def unload(self) -> None:
        self._window.controller.unload()

    @Slot(str, bool)
    def _on_lost(self, message: str, restarting: bool) -> None:
        w = self._window
        if restarting:
            w.statusBar().showMessage(message, STATUS_MS)
        elif w.settings.prefix_cache:  # what is known to help most; it loads the model again too
            w.show_notice(message, error=True, action=(translate("texts", texts.PREFIX_CACHE_OFF),
                                                       lambda: w.set_prefix_cache(False)))
        else:
            w.show_notice(message, error=True, action=(self.tr("Load the model again"), w.load_model))
            self._no_model_notice = message
        w.show_state()

    @Slot(object)
    def _on_restarted(self, info) -> None:
        w = self._window
        w.statusBar().showMessage(self.tr("The engine is running again ({seconds:.1f} s to load the model).")
                                  .format(seconds=info.load_time_ms / 1000), STATUS_MS)
        w.show_state()

    @Slot(object)
    def _on_hung(self, _handle) -> None:
        self._window.show_notice(
            self.tr("The reply has not stopped although Stop was pressed: the engine does not answer."), error=True,
            action=(self.tr("Restart the engine"), self._window.controller.restart_engine))

    @Slot()
    def _on_unloaded(self) -> None:
        w = self._window
        w.statusBar().showMessage(self.tr("The model is unloaded; its memory is back with the system."), STATUS_MS)
        self._no_model_notice = self.tr("No model is loaded.")
        w.show_notice(self._no_model_notice, action=(self.tr("Load the model again"), w.load_model))
        # Nothing loaded: the header, the EAGLE-3 button and the Decoding note stop describing the pair that went.
        w.model_bar.set_model_text(translate("ModelLoads", "No model loaded"))
        w.model_bar.set_draft_available(False)
        w.options.lock_greedy(False)
        w.show_state()

    @Slot(object)
    def _on_loaded(self, _info) -> None:
        """A model is loaded again (from any menu, not only the notice's button): its notice goes."""
        w = self._window
        if self._no_model_notice and w.notice.isVisibleTo(w) and w.notice.text() == self._no_model_notice:
            w.show_notice("")
        self._no_model_notice = ""
