"""The model bar (model, EAGLE-3 on/off, device, assistant tokens) and the generation options panel."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt, Signal
from PySide6.QtGui import QPainter, QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from eagle_chat.core.generation.devices import DEVICE_KINDS
from eagle_chat.core.measure.tuning import MAX_K, MIN_K
from eagle_chat.core.serving.remote import REMOTE
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.words.i18n import translate

PALETTE_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)


def style_muted(owner: QWidget, *labels: QLabel) -> None:
    """Secondary text in the theme's muted colour for ``owner``'s palette (readable on light and dark)."""
    colour = theme.colours(owner.palette()).muted
    for label in labels:
        label.setStyleSheet(f"color: {colour};")


def style_toggle(owner: QWidget, button: QPushButton) -> None:
    """A checkable button whose on and off differ at a glance in either theme (Fusion's dark "pressed"
    shade barely differs from its unpressed one): on is filled with the theme's accent."""
    c = theme.colours(owner.palette())
    name = button.objectName()
    button.setStyleSheet(
        f"#{name} {{ padding: 3px 10px; border: 1px solid {c.muted}; border-radius: 4px; }}"
        f" #{name}:checked {{ background-color: {c.toggle_on}; color: {c.toggle_on_text};"
        f" border-color: {c.toggle_on}; }}"
        f" #{name}:disabled {{ background-color: transparent; color: {c.faint}; border-color: {c.faint}; }}")


class ElidedLabel(QLabel):
    """One line that ends in "…" where its text does not fit, instead of being cut mid-letter."""

    def is_elided(self) -> bool:
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        rect = self.contentsRect()
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), text)


class ModelBar(QWidget):
    DEVICE_TIP = QT_TRANSLATE_NOOP("ModelBar", "The device the model runs on (changing it reloads the model)")
    CHOOSE_TIP = QT_TRANSLATE_NOOP("ModelBar", "Choose the model and its EAGLE-3 draft")
    DRAFT_TIP = QT_TRANSLATE_NOOP("ModelBar", "Speculative decoding with the EAGLE-3 draft (off: plain decoding)")

    sig_speculative_toggled = Signal(bool)
    """EAGLE-3 on or off for the next reply (no reload)."""
    sig_device_changed = Signal(str)
    """Another device was chosen (the pipeline is rebuilt)."""
    sig_k_changed = Signal(int)
    """The assistant-token count for the next reply (no reload)."""
    sig_remote_chosen = Signal()
    """"Remote server…" was chosen in the device list (its URL, key and model are asked for first)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model_label = ElidedLabel(self.tr("No model"))
        self.model_label.setObjectName("modelLabel")
        # Long folder names must not widen the window: the label shrinks to "…", the tooltip has it all.
        self.model_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.model_label.setMinimumWidth(120)
        self.model_label.setAccessibleName(self.tr("Model"))
        # A push button counts its menu's arrow in its width (a tool button drew the arrow over "Models…").
        self.choose_button = QPushButton(self.tr("Models…"))
        self.choose_button.setObjectName("chooseModelsButton")
        self.choose_button.setToolTip(translate("ModelBar", self.CHOOSE_TIP))
        self.draft_toggle = QPushButton("EAGLE-3")  # i18n: ok (a method's name)
        self.draft_toggle.setObjectName("draftToggle")
        self.draft_toggle.setAccessibleName(self.tr("Speculative decoding"))
        self.draft_toggle.setCheckable(True)
        self.draft_toggle.setChecked(True)
        self.draft_toggle.setToolTip(translate("ModelBar", self.DRAFT_TIP))
        self.draft_toggle.setAccessibleDescription(self.draft_toggle.toolTip())
        self.draft_toggle.toggled.connect(self.sig_speculative_toggled)
        self.device_combo = QComboBox()
        self.device_combo.setObjectName("deviceCombo")
        self.device_combo.setAccessibleName(self.tr("Device"))
        self.device_combo.setAccessibleDescription(self.tr(
            "Where the model runs; changing it reloads the model"))
        self.device_combo.setToolTip(translate("ModelBar", self.DEVICE_TIP))
        for kind in DEVICE_KINDS:
            self.device_combo.addItem(kind, kind)
        self.device_combo.addItem(self.tr("Remote server…"), REMOTE)
        self.device_combo.setItemData(self.device_combo.count() - 1, self.tr(
            "An OpenAI-compatible server: OpenVINO Model Server, or another EagleChat"), Qt.ItemDataRole.ToolTipRole)
        self.device_combo.view().setAccessibleName(self.tr("Devices"))  # the list it pops up
        self.device_combo.activated.connect(self._on_device_activated)
        self.k_slider = QSlider(Qt.Orientation.Horizontal)
        self.k_slider.setObjectName("assistantTokensSlider")
        self.k_slider.setAccessibleName(self.tr("Draft tokens (K)"))
        self.k_slider.setAccessibleDescription(self.tr(
            "K: how many tokens the EAGLE-3 draft model proposes per step for the main model to verify in one "
            "pass. A larger K gains more when most drafts are accepted. Applies to the next reply without "
            "reloading."))
        self.k_slider.setRange(MIN_K, MAX_K)
        self.k_slider.setPageStep(1)
        self.k_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.k_slider.setFixedWidth(110)
        self.k_label = QLabel()
        self.k_label.setObjectName("assistantTokensLabel")
        self.npu_tree_label = QLabel()  # what GenAI drafts on the NPU, where every draft is a tree
        self.npu_tree_label.setObjectName("npuTreeLabel")
        self.npu_tree_label.hide()
        style_muted(self, self.npu_tree_label)
        style_toggle(self, self.draft_toggle)
        self.k_slider.valueChanged.connect(self._on_k)
        self.k_slider.setValue(5)
        self._on_k(5)
        self.k_slider.setToolTip(self.tr(
            "Draft tokens proposed per step; applies to the next reply without reloading"))
        device_label, k_caption = QLabel(self.tr("Device")), QLabel(self.tr("Draft tokens"))
        device_label.setBuddy(self.device_combo)  # screen readers relate the caption to its control
        k_caption.setBuddy(self.k_slider)
        # Two rows: the model's name gets the pane's width (one row cut it to "tiny-qwen3 + tiny-q"), and the
        # pane's minimum width lets the window fit a 1024-pixel-wide screen.
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        model_row, decoding_row = QHBoxLayout(), QHBoxLayout()
        model_row.addWidget(self.model_label, 1)
        model_row.addWidget(self.choose_button)
        for widget in (self.draft_toggle, device_label, self.device_combo, k_caption, self.k_slider, self.k_label,
                       self.npu_tree_label):
            decoding_row.addWidget(widget)
        decoding_row.addStretch(1)
        layout.addLayout(model_row)
        layout.addLayout(decoding_row)

    def set_devices(self, reasons: dict[str, str | None]) -> None:
        """Enable present devices; absent ones stay listed, disabled, with the reason as tooltip."""
        model = self.device_combo.model()
        assert isinstance(model, QStandardItemModel)
        for row in range(self.device_combo.count()):
            kind = self.device_combo.itemData(row)
            if kind not in DEVICE_KINDS:
                continue
            item = model.item(row)
            reason = reasons.get(kind)
            item.setEnabled(reason is None)
            item.setToolTip(reason or self.tr("Run on the {device}").format(device=kind))
            self.device_combo.setItemText(
                row, kind if reason is None else self.tr("{device} (not available)").format(device=kind))

    def set_device(self, kind: str) -> None:
        index = self.device_combo.findData(kind)
        if index >= 0:
            self.device_combo.setCurrentIndex(index)

    def device(self) -> str:
        return self.device_combo.currentData()

    def set_model_text(self, text: str, tooltip: str = "") -> None:
        """The model's name (ended with "…" where it does not fit); the tooltip has all of it, then ``tooltip``."""
        self.model_label.setText(text)
        self.model_label.setToolTip("\n".join(line for line in (text, tooltip) if line))
        self.model_label.setAccessibleDescription(self.model_label.toolTip())

    def set_models_menu(self, menu) -> None:
        """The Models… button opens this menu (the same one as the menu bar's)."""
        self.choose_button.setMenu(menu)

    def set_busy(self, reason: str | None) -> None:
        """While a model loads or a reply runs the controls that would start a load are off, saying why."""
        for widget, tip in ((self.device_combo, self.DEVICE_TIP), (self.choose_button, self.CHOOSE_TIP)):
            widget.setEnabled(reason is None)
            widget.setToolTip(reason or translate("ModelBar", tip))

    def show_npu_tree(self, text: str, tooltip: str = "") -> None:
        """Show the tree the NPU will draft next to the K slider; "" hides it (not on the NPU)."""
        self.npu_tree_label.setText(text)
        self.npu_tree_label.setToolTip(tooltip)
        self.npu_tree_label.setVisible(bool(text))

    def set_draft_available(self, available: bool) -> None:
        self.draft_toggle.setEnabled(available)
        self.draft_toggle.setToolTip(translate("ModelBar", self.DRAFT_TIP) if available else self.tr(
            "No EAGLE-3 draft loaded: choose a draft folder to compare."))

    def _on_device_activated(self, index: int) -> None:
        kind = self.device_combo.itemData(index)
        if kind == REMOTE:
            self.sig_remote_chosen.emit()
        else:
            self.sig_device_changed.emit(kind)

    def _on_k(self, value: int) -> None:
        self.k_label.setText(str(value))
        self.sig_k_changed.emit(value)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() in PALETTE_EVENTS:
            style_muted(self, self.npu_tree_label)
            style_toggle(self, self.draft_toggle)
        super().changeEvent(event)


class OptionsPanel(QWidget):
    """Max new tokens, thinking, sampling (locked to greedy while EAGLE-3 is on), the speculation method,
    precision, prefix caching, system prompt."""

    sig_changed = Signal()
    """Any option changed."""

    PRECISION_TIP = QT_TRANSLATE_NOOP(
        "OptionsPanel",
        "At the device's reduced precision, EAGLE-3 and plain answers can part after a while; at f32 "
        "greedy answers are identical. Changing it reloads the model."
    )
    GREEDY_REASON = QT_TRANSLATE_NOOP(
        "OptionsPanel",
        "Locked to greedy decoding while an EAGLE-3 draft is loaded: OpenVINO GenAI streams EAGLE-3 "
        "pipelines greedily only. Load the model without a draft to sample."
    )
    GREEDY_NOTE = QT_TRANSLATE_NOOP("OptionsPanel", "Greedy only while an EAGLE-3 draft is loaded")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        form = QFormLayout(self)
        # The side panel's own margins are enough: doubled, they cost the 720p side panel in Chinese the room the
        # Speculation row needed (the window grew to 721 px)
        form.setContentsMargins(0, 0, 0, 0)
        self.max_tokens = QSpinBox()
        self.max_tokens.setObjectName("maxTokensSpin")
        self.max_tokens.setRange(1, 32768)
        self.max_tokens.setValue(512)
        self.max_tokens.setAccessibleName(self.tr("Max new tokens"))
        self.max_tokens.setAccessibleDescription(self.tr("The most tokens a reply may have"))
        self.thinking = QCheckBox(self.tr("Let the model think first"))
        self.thinking.setObjectName("thinkingCheck")
        self.sampling = QCheckBox(self.tr("Sample (temperature)"))
        self.sampling.setObjectName("samplingCheck")
        self.temperature = QDoubleSpinBox()
        self.temperature.setObjectName("temperatureSpin")
        self.temperature.setAccessibleName(self.tr("Temperature"))
        self.temperature.setAccessibleDescription(self.tr(
            "Used when sampling: higher gives more varied replies"))
        self.temperature.setRange(0.05, 2.0)
        self.temperature.setSingleStep(0.05)
        self.temperature.setValue(0.7)
        self.sampling_note = QLabel()
        self.sampling_note.setObjectName("samplingNote")
        self.sampling_note.setWordWrap(True)
        style_muted(self, self.sampling_note)
        self.speculation = QComboBox()  # its items follow the loaded pair: ui/speed/method_pin.py
        self.speculation.setObjectName("speculationCombo")
        self.speculation.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # items change per pair
        self.speculation.setAccessibleName(self.tr("Speculation"))
        self.speculation.view().setAccessibleName(self.tr("Speculation methods"))
        self.precision = QComboBox()
        self.precision.setObjectName("precisionCombo")
        self.precision.setAccessibleName(self.tr("Precision"))
        self.precision.addItem(self.tr("Fastest (device default)"), "default")
        self.precision.addItem(self.tr("f32 (exact comparisons)"), "f32")
        self.precision.view().setAccessibleName(self.tr("Precisions"))
        self.precision.setToolTip(translate("OptionsPanel", self.PRECISION_TIP))
        self.precision.setAccessibleDescription(self.precision.toolTip())
        self.prefix_cache = QCheckBox(self.tr("Reuse earlier turns (prefix caching)"))
        self.prefix_cache.setObjectName("prefixCacheCheck")
        self.prefix_cache.setChecked(True)
        self.prefix_cache.setToolTip(self.tr(
            "Keep the KV cache of the conversation so far: the next reply reads only the new message, so long "
            "conversations stay fast. CPU and GPU (the NPU re-reads the conversation every turn). Changing it "
            "reloads the model."
        ))
        self.system_prompt = QPlainTextEdit()
        self.system_prompt.setObjectName("systemPromptEdit")
        self.system_prompt.setAccessibleName(self.tr("System prompt"))
        self.system_prompt.setPlaceholderText(self.tr("Optional instructions for this conversation"))
        self.system_prompt.setTabChangesFocus(True)  # Tab moves on, as in the message box
        self.system_prompt.setMaximumHeight(70)
        form.addRow(self.tr("Max new tokens"), self.max_tokens)
        form.addRow(self.tr("Thinking"), self.thinking)
        sampling_row = QHBoxLayout()
        sampling_row.addWidget(self.sampling)
        sampling_row.addWidget(self.temperature)
        form.addRow(self.tr("Decoding"), sampling_row)
        form.addRow(self.sampling_note)  # the whole row's width: in the field's column it took four lines
        form.addRow(self.tr("Speculation"), self.speculation)
        form.addRow(self.tr("Precision"), self.precision)
        form.addRow(self.tr("KV cache"), self.prefix_cache)
        form.addRow(self.tr("System prompt"), self.system_prompt)
        for signal in (self.max_tokens.valueChanged, self.thinking.toggled, self.sampling.toggled,
                       self.temperature.valueChanged):
            signal.connect(self.sig_changed)
        self.sampling.toggled.connect(lambda _: self._sync_sampling())
        self._greedy_locked = False
        self._sync_sampling()

    def lock_greedy(self, locked: bool) -> None:
        """While a draft is active sampling is refused by GenAI: lock it and say why, never change it silently."""
        self._greedy_locked = locked
        self._sync_sampling()

    def set_reload_locked(self, reason: str | None) -> None:
        """Precision and prefix caching reload the model: off while a reply or a load runs, saying why."""
        self.precision.setEnabled(reason is None)
        self.precision.setToolTip(reason or translate("OptionsPanel", self.PRECISION_TIP))
        self.prefix_cache.setEnabled(reason is None)  # changing it reloads the model too

    def set_thinking_supported(self, supported: bool) -> None:
        self.thinking.setEnabled(supported)
        self.thinking.setToolTip("" if supported else self.tr("This model's chat template has no thinking switch."))

    def sampling_active(self) -> bool:
        return self.sampling.isChecked() and not self._greedy_locked

    def _sync_sampling(self) -> None:
        self.sampling.setEnabled(not self._greedy_locked)
        self.temperature.setEnabled(self.sampling_active())
        reason = translate("OptionsPanel", self.GREEDY_REASON) if self._greedy_locked else ""
        self.sampling_note.setText(translate("OptionsPanel", self.GREEDY_NOTE) if self._greedy_locked else "")
        self.sampling_note.setToolTip(reason)  # the why, where a 720p side panel has no room for it
        self.sampling_note.setVisible(self._greedy_locked)
        self.sampling.setToolTip(reason)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() in PALETTE_EVENTS:
            style_muted(self, self.sampling_note)
        super().changeEvent(event)
