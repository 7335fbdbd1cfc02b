"""MethodPin: the Speculation list (the side panel's options), the EAGLE-3 button and the settings in step.

The list holds "Automatic" (``speculation.choose`` picks per kind of work), then the methods the loaded pair
offers (``LoadedPipeline.methods``, which the engine host sends when a load ends: EAGLE-3 or DFlash with a
draft, MTP, prompt lookup on CPU and GPU), then "Off". A method chosen there is *pinned*: every window reply
asks for it (``GenerationSettings.method``) and the next-reply line names it.

The EAGLE-3 button and the list are one state, so the two never contradict each other:

- "Off" in the list *is* the button switched off: choosing Off switches the button off, switching the button
  off chooses Off, and switching it on again goes back to what was chosen before Off (Automatic if the pair no
  longer offers it). Choosing any other method switches the button on.
- Without a draft the button is disabled and the list alone decides (Automatic, Prompt lookup, Off).
- The K slider sets K for whichever method drafts (for prompt lookup: the candidate tokens per step).

A pin the newly loaded pair does not offer (EAGLE-3 pinned, then a model without a draft) is never sent — the
engine would refuse it: the list falls back to Automatic, the settings follow and the notice bar says so.
Before the first load the list shows the remembered pin as it was saved.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from eagle_chat.core.generation.loaded import LoadedPipeline
from eagle_chat.core.generation.speculation import AUTO, OFF, PROMPT_LOOKUP
from eagle_chat.ui.words import method_texts
from eagle_chat.ui.words.i18n import translate


class MethodPin(QObject):
    sig_changed = Signal(str)
    """The method the next reply asks for changed: one of speculation.METHODS, or "auto"."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self.combo, self.toggle = window.options.speculation, window.model_bar.draft_toggle
        self.combo.setToolTip(translate("method_texts", method_texts.TIP))
        self.combo.setAccessibleDescription(self.combo.toolTip())
        self._before_off = AUTO  # what the button's "on" goes back to
        self._syncing = False
        self._fill((AUTO, OFF), AUTO)
        self.combo.activated.connect(self._on_chosen)
        # The first of the button's listeners: those of sig_speculative_toggled (the NPU tree hint, the settings)
        # read the window's settings, which must already have the list's new state
        bar = window.model_bar
        self.toggle.toggled.disconnect(bar.sig_speculative_toggled)
        self.toggle.toggled.connect(self._on_toggled)
        self.toggle.toggled.connect(bar.sig_speculative_toggled)
        window.controller.sig_loaded.connect(self._on_loaded)

    def method(self) -> str:
        """The method the next reply asks for ("auto": chosen per request)."""
        return self.combo.currentData() or AUTO

    def methods(self) -> list[str]:
        """The list's methods, in its order."""
        return [self.combo.itemData(row) for row in range(self.combo.count())]

    def settings_fields(self, has_draft: bool) -> dict:
        """``method`` and ``speculative`` for the window's GenerationSettings: Off is plain decoding; without a
        draft only Automatic and prompt lookup can speculate (the engine host's pair offers nothing else)."""
        method = self.method()
        return {"method": method, "speculative": method != OFF and (has_draft or method in (AUTO, PROMPT_LOOKUP))}

    def restore(self, method: str) -> None:
        """Show the remembered pin (at start, before a load says what the pair offers); the button's state,
        already restored, wins: off is Off."""
        method = method if method in method_texts.CHOICES else AUTO
        if method != OFF:
            self._before_off = method
        if not self.toggle.isChecked():
            method = OFF
        self._fill(tuple(dict.fromkeys((AUTO, method, OFF))), method)

    # --- slots ---------------------------------------------------------------------------------------
    @Slot(object)
    def _on_loaded(self, info: LoadedPipeline) -> None:
        wanted = self.method()
        offered = tuple(m for m in method_texts.CHOICES if m in (AUTO, OFF) or m in info.methods)
        self._fill(offered, wanted if wanted in offered else AUTO)
        if self._before_off not in offered:
            self._before_off = AUTO
        if wanted not in offered:
            self._window.show_notice(method_texts.fallback_notice(wanted))
            self.sig_changed.emit(self.method())

    @Slot(int)
    def _on_chosen(self, index: int) -> None:
        method = self.combo.itemData(index)
        if method != OFF:
            self._before_off = method
        self._syncing = True
        try:
            self.toggle.setChecked(method != OFF)
        finally:
            self._syncing = False
        self.sig_changed.emit(method)

    @Slot(bool)
    def _on_toggled(self, on: bool) -> None:
        if self._syncing:
            return
        method = self.method()
        if not on and method != OFF:
            self._before_off = method
            self._select(OFF)
        elif on and method == OFF:
            self._select(self._before_off if self._before_off in self.methods() else AUTO)
        else:
            return
        self.sig_changed.emit(self.method())

    # --- internals -----------------------------------------------------------------------------------
    def _fill(self, methods: tuple[str, ...], current: str) -> None:
        self.combo.blockSignals(True)
        try:
            self.combo.clear()
            for method in methods:
                self.combo.addItem(method_texts.choice(method), method)
        finally:
            self.combo.blockSignals(False)
        self._select(current)

    def _select(self, method: str) -> None:
        self.combo.setCurrentIndex(max(0, self.combo.findData(method)))
