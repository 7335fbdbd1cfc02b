"""StatusArea: the status bar's state line (what is loaded, what is running) and its busy indicator."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar

from eagle_chat.ui.words.i18n import translate


class StatusArea:
    def __init__(self, bar: QStatusBar):
        self.bar = bar
        self.state_label = QLabel()
        self.state_label.setObjectName("stateLabel")
        self.state_label.setAccessibleName(translate("StatusArea", "Status"))
        self.busy = QProgressBar()
        self.busy.setObjectName("busyIndicator")
        self.busy.setAccessibleName(translate("StatusArea", "Busy"))
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setVisible(False)
        bar.addWidget(self.state_label, 1)
        bar.addPermanentWidget(self.busy)

    def show_state(self, state: str, model_label: str, device: str) -> None:
        """``state`` is the controller's: empty, loading, ready or generating."""
        self.busy.setVisible(state in ("loading", "generating"))  # generating: until its text shows (text_shown)
        if state == "empty":
            text = translate("StatusArea", "No model loaded")
        elif state == "loading":
            text = translate("StatusArea", "Loading {model} on {device}…").format(model=model_label, device=device)
        elif state == "ready":
            text = translate("StatusArea", "Ready — {model} on {device}").format(model=model_label, device=device)
        elif state == "generating":
            text = translate("StatusArea", "Generating…")
        else:
            text = state
        self.state_label.setText(text)

    def text_shown(self) -> None:
        """The reply's text is on screen: it shows the progress from here on. The indicator's animation
        repainted the status bar ~70 times a second (10 repaints in a 140 ms tiny-pair reply, measured), each
        taken from the inference the user is waiting for on a 2-core laptop; it stays for the wait before the
        first token (a long prompt's prefill can take seconds) and for loads."""
        self.busy.setVisible(False)
