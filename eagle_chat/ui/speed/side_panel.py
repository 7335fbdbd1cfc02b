"""The window's right-hand side: whether the next reply is speculative, the live speed chart and, on the
tab beside it, how far each step got (acceptance), the drafted-token tint switch, the last reply's figures,
compare and tune, options."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from eagle_chat.ui.speed.controls import OptionsPanel
from eagle_chat.ui.speed.acceptance_chart import AcceptanceChart
from eagle_chat.ui.speed.speed_chart import SpeedChart


MINIMUM_WIDTH = 320


class SidePanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.next_reply = QLabel()
        self.next_reply.setObjectName("nextReplyLine")
        self.next_reply.setAccessibleName(self.tr("Whether the next reply is speculative"))
        self.next_reply.setWordWrap(True)
        self.chart = SpeedChart()
        self.acceptance = AcceptanceChart()
        self.charts = QTabWidget()  # a laptop screen has room for one chart of a useful height here
        self.charts.setObjectName("chartTabs")
        self.charts.setDocumentMode(True)
        self.charts.setAccessibleName(self.tr("Charts"))
        self.charts.tabBar().setAccessibleName(self.tr("Charts"))
        self.charts.addTab(self.chart, self.tr("Speed"))
        self.charts.addTab(self.acceptance, self.tr("Acceptance"))
        self.charts.setTabToolTip(0, self.tr("Tokens per second of the recent replies"))
        self.charts.setTabToolTip(1, self.tr("How far each verification step of the reply on screen got"))
        self.drafted_toggle = QCheckBox(self.tr("Show drafted tokens"))
        self.drafted_toggle.setObjectName("draftedTokensToggle")
        self.drafted_toggle.setToolTip(self.tr(
            "Tint the text that came from drafted tokens the main model accepted; the main model's own token "
            "of each step stays plain. Hover tinted text to see its step."
        ))
        self.drafted_toggle.setAccessibleDescription(self.drafted_toggle.toolTip())
        self.stats_label = QLabel(self.tr("No reply yet"))
        self.stats_label.setObjectName("statsLabel")
        self.stats_label.setWordWrap(True)
        self.stats_label.setAccessibleName(self.tr("Last reply statistics"))
        self.compare_button = QPushButton(self.tr("Compare baseline vs EAGLE-3"))
        self.compare_button.setObjectName("compareButton")
        self.compare_button.setAccessibleDescription(self.tr(
            "Runs the same prompt with plain decoding and with EAGLE-3 side by side"))
        self.tune_button = QPushButton(self.tr("Auto-tune draft tokens…"))
        self.tune_button.setObjectName("tuneButton")
        self.tune_button.setAccessibleDescription(self.tr(
            "Measures which number of draft tokens is fastest for this model on this device"))
        self.options = OptionsPanel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.next_reply)
        layout.addWidget(self.charts, 1)
        layout.addWidget(self.drafted_toggle)
        layout.addWidget(self.stats_label)
        layout.addWidget(self.compare_button)
        layout.addWidget(self.tune_button)
        layout.addWidget(self.options)  # no stretch under it: the chart takes any height to spare

    # --- Qt overrides ---------------------------------------------------------------------------------
    def minimumSizeHint(self):  # noqa: N802 - Qt override
        """At least 320 px, and never narrower than the options' captions: an explicit minimum width let the
        splitter cut "Sample (temperatu" and "prefix cac" at 1024×768."""
        hint = super().minimumSizeHint()
        hint.setWidth(max(MINIMUM_WIDTH, hint.width()))
        return hint
