"""StatusArea: the status bar's state line (what is loaded, what is running) and its busy indicator."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar


class StatusArea:
    def __init__(self, bar: QStatusBar):
        self.bar = bar
        self.state_label = QLabel()
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setVisible(False)
        bar.addWidget(self.state_label, 1)
        bar.addPermanentWidget(self.busy)

    def show_state(self, state: str, model_label: str, device: str) -> None:
        """``state`` is the controller's: empty, loading, ready or generating."""
        self.busy.setVisible(state in ("loading", "generating"))
        labels = {
            "empty": "No model loaded",
            "loading": f"Loading {model_label} on {device}…",
            "ready": f"Ready — {model_label} on {device}",
            "generating": "Generating…",
        }
        self.state_label.setText(labels.get(state, state))
