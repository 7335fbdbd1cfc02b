"""What a newcomer meets: the model's name in full, the keyboard in the message box (from the start and after
each conversation they open or create, as in LM Studio and Jan, so typing right away is never lost to a
button), and on the bundled toy pair a card in the empty chat saying what the model is and where to go next."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout

from eagle_chat.core.acquisition.pulls import export_problem
from eagle_chat.core.generation.devices import device_choices
from eagle_chat.core.models.catalog import load_catalog
from eagle_chat.core.models.first_model import suggest_first_model
from eagle_chat.ui.words import texts
from eagle_chat.ui.shell.first_run_card import FirstRunCard
from eagle_chat.ui.shell.thinking_note import ThinkingNote


def install(window) -> None:
    """Name the model, give the message box the keyboard, and show the first-run card where it applies."""
    window.model_bar.set_model_text(texts.model_label(window.model))
    window.prompt.setFocus()  # before the window is shown: it takes the focus when the window is activated
    window.conversations.sig_open.connect(lambda _id: window.prompt.setFocus())  # after the controller's slot
    window.first_run = FirstRunGuide(window)
    ThinkingNote(window)  # thinking on, and the model answered without a thought: say so


class FirstRunGuide:
    """Shows the card in the chat's viewport while the bundled pair is loaded and the conversation is empty."""

    def __init__(self, window):
        self._window = window
        present = [kind for kind, reason in device_choices(window.devices).items() if reason is None]
        self.suggestion = suggest_first_model(load_catalog(), present, export_problem)
        self.card = FirstRunCard(window.chat.viewport())
        self.card.offer(self.suggestion)
        self._layout = QVBoxLayout(window.chat.viewport())
        self._layout.addWidget(self.card)  # no alignment: the wrapped text then gets the height it needs
        self._layout.addStretch(1)
        self.card.sig_get_model.connect(self.get_model)
        self.card.sig_speed_demo.connect(window.models_menu.choose_speed_demo)
        c = window.controller
        for signal in (c.sig_state, c.sig_conversation_opened, c.sig_message_added, window.loads.sig_committed):
            signal.connect(lambda *_: self.sync())
        self.sync()

    def sync(self) -> None:
        """Shown on the bundled pair in an empty conversation, until the user hides it."""
        w = self._window
        shown = w.model.bundled and w.chat.showing_welcome() and not self.card.dismissed
        if shown:  # below the welcome lines
            self._layout.setContentsMargins(12, int(w.chat.document().size().height()) + 8, 12, 12)
        self.card.setVisible(shown)

    def get_model(self) -> None:
        """Get models, opened on the suggested pair and device."""
        dialog = self._window.dialogs.open_get_models()
        if self.suggestion is not None:
            dialog.select_entry(self.suggestion.entry.name)
            dialog.device_combo.setCurrentText(self.suggestion.device)
