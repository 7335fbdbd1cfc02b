"""FirstRunCard: what the chat shows on the bundled toy pair before the first message — what this model is,
and one click to a real model (its size and the device it suits) or to the speed-demo pair.

Peers open on "download your first model"; EagleChat opens on a model that works offline at once, so the
card says plainly that it is a toy and where to go next. It is a widget in the chat's viewport (real
buttons: keyboard, screen readers, the smoke test), not links in the page.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from eagle_chat.core.acquisition.staging import format_bytes
from eagle_chat.core.models.first_model import FirstModel
from eagle_chat.ui.widgets import theme


class FirstRunCard(QFrame):
    sig_get_model = Signal()
    """Open Get models on the suggested pair and device."""
    sig_speed_demo = Signal()
    """Load the speed-demo pair (built first if needed)."""
    sig_dismissed = Signal()
    """The user hid the card."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("firstRunCard")
        self.setAccessibleName(self.tr("About the model you are trying"))
        self.title = QLabel(self.tr("You are trying EagleChat on a toy model"))
        self.title.setObjectName("firstRunTitle")
        self.title.setWordWrap(True)
        self.dismiss_button = QToolButton()
        self.dismiss_button.setObjectName("firstRunDismissButton")
        self.dismiss_button.setText("×")  # i18n: ok (a symbol)
        self.dismiss_button.setAccessibleName(self.tr("Hide this card"))
        self.dismiss_button.setToolTip(self.dismiss_button.accessibleName())
        self.dismiss_button.setAutoRaise(True)
        self.dismiss_button.clicked.connect(self._dismiss)
        self.body = QLabel(self.tr(
            "The bundled pair is tiny (about a million weights), trained by EagleChat's authors on Python "
            "source code so that the app works offline from the first start. Its replies are toy quality: "
            "enough to try the window, the speed chart and the API server, not to get answers."))
        self.body.setObjectName("firstRunText")
        self.body.setWordWrap(True)
        self.get_button = QPushButton()
        self.get_button.setObjectName("firstRunGetModelButton")
        self.get_button.clicked.connect(self.sig_get_model)
        self.demo_button = QPushButton(self.tr("Try the speed-demo pair: no download, shows EAGLE-3's speed-up"))
        self.demo_button.setObjectName("firstRunSpeedDemoButton")
        self.demo_button.setToolTip(self.tr(
            "The same toy model widened to ~50M weights (about 100 MB, built on this computer in seconds): the "
            "same replies, at the cost per token of a model where EAGLE-3 pays off on a CPU."))
        self.demo_button.setAccessibleDescription(self.demo_button.toolTip())
        self.demo_button.clicked.connect(self.sig_speed_demo)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.dismiss_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addWidget(self.body)
        layout.addWidget(self.get_button)
        layout.addWidget(self.demo_button)
        self.dismissed = False
        self._restyle()

    def offer(self, first: FirstModel | None) -> None:
        """Name the real pair to get ("Get models…" without one, e.g. a catalog with no pair for this machine)."""
        if first is None:
            self.get_button.setText(self.tr("Get a real model…"))
            self.get_button.setToolTip("")
            return
        self.get_button.setText(self.tr("Get {title}: {size} download, runs on your {device}…").format(
            title=first.entry.title, size=format_bytes(first.approx_bytes), device=first.device))
        self.get_button.setToolTip(first.entry.description)
        self.get_button.setAccessibleDescription(first.entry.description)

    def _dismiss(self) -> None:
        self.dismissed = True
        self.hide()
        self.sig_dismissed.emit()

    def _restyle(self) -> None:
        c = theme.colours()
        self.setStyleSheet(f"#firstRunCard {{ background: {c.notice_background}; border-radius: 6px; }}"
                           f" #firstRunCard QLabel {{ color: {c.notice_text}; }}"
                           f" #firstRunTitle {{ font-weight: bold; font-size: 11pt; }}")

    def event(self, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.ApplicationPaletteChange:  # View → Theme: the card follows
            self._restyle()
        return super().event(event)
