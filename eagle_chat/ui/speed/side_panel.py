"""The window's right-hand side: live speed chart, last reply's figures, compare and tune, options."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from eagle_chat.ui.controls import OptionsPanel
from eagle_chat.ui.speed.speed_chart import SpeedChart


class SidePanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMinimumWidth(320)
        self.chart = SpeedChart()
        self.stats_label = QLabel("No reply yet")
        self.stats_label.setObjectName("statsLabel")
        self.stats_label.setWordWrap(True)
        self.stats_label.setAccessibleName("Last reply statistics")
        self.compare_button = QPushButton("Compare baseline vs EAGLE-3")
        self.compare_button.setObjectName("compareButton")
        self.tune_button = QPushButton("Auto-tune draft tokens…")
        self.tune_button.setObjectName("tuneButton")
        self.options = OptionsPanel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.chart, 2)
        layout.addWidget(self.stats_label)
        layout.addWidget(self.compare_button)
        layout.addWidget(self.tune_button)
        layout.addWidget(self.options)
        layout.addStretch(1)
