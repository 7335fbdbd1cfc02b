"""SpeedDemoOffer: the compare view's one-sentence "this pair cannot show it here" and the one-click way out.

Only the row lives here; what it says comes from :mod:`eagle_chat.ui.words.demo_texts` and what the button does
from :class:`eagle_chat.ui.speed.speed_demo_flow.SpeedDemoFlow` (wired by the demo kit).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from eagle_chat.ui.speed.speed_demo_flow import DEMO_PRECISION


class SpeedDemoOffer(QWidget):
    sig_accepted = Signal()
    """The presenter asked for the speed-demo pair: build if needed, load, tune and run."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("compareSpeedDemoOffer")
        self.label = QLabel()
        self.label.setObjectName("compareSpeedDemoText")
        self.label.setWordWrap(True)
        self.button = QPushButton(self.tr("Use the s&peed-demo pair: build, load, tune, run"))
        self.button.setObjectName("compareSpeedDemoButton")
        self.button.setToolTip(self.tr(
            "The toy model widened to ~50M weights: the same replies, the cost per token of a model where "
            "EAGLE-3 pays off on a CPU. Loaded at {precision} so both modes' answers are identical.")
            .format(precision=DEMO_PRECISION))
        self.button.setAccessibleDescription(self.button.toolTip())
        self.button.clicked.connect(self.sig_accepted)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        self.setVisible(False)

    def offer(self, sentence: str | None) -> None:
        """Show ``sentence`` with the button, or hide the row (None)."""
        self.label.setText(sentence or "")
        self.button.setEnabled(True)
        self.setVisible(bool(sentence))

    def busy(self, sentence: str) -> None:
        """The flow is under way: say which step, and keep the button from starting it twice."""
        self.label.setText(sentence)
        self.button.setEnabled(False)
        self.setVisible(True)
