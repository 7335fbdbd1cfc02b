"""ThinkingNote: thinking was switched on, and the model answered without a thought. The chat showed nothing
and said nothing; now a notice says why (the model's chat template accepts the switch, but the model was not
trained to think first — the bundled toy pairs never do) and offers to switch it off. Once per loaded model."""

from __future__ import annotations

from PySide6.QtCore import QObject

from eagle_chat.ui.words.i18n import translate


class ThinkingNote(QObject):
    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self._asked = False  # the conversation reply under way was asked to think first
        self._said = False
        c = window.controller
        c.sig_reply_started.connect(self._on_started)
        c.sig_reply_finished.connect(self._on_finished)
        window.loads.sig_committed.connect(self._on_model_changed)

    def _on_started(self, handle) -> None:
        if handle.message is not None:  # a conversation's reply, not a comparison, tuning or API request
            self._asked = bool(handle.settings.thinking)

    def _on_finished(self, message, result) -> None:
        if message is None:  # a background reply (warm start, next-turn prefill): not the user's
            return
        asked, self._asked = self._asked, False
        if not asked or self._said or result is None or message.thinking or result.stats.stopped:
            return  # (a stopped reply may not have reached its thoughts: nothing to conclude)
        self._said = True
        options = self._window.options
        self._window.show_notice(
            translate("ThinkingNote", "Thinking was on, but this model answered without thinking first: its chat "
                                      "template accepts the switch, but the model was not trained to use it."),
            action=(translate("ThinkingNote", "Turn thinking off"), lambda: options.thinking.setChecked(False)))

    def _on_model_changed(self, *_args) -> None:
        self._said = False
