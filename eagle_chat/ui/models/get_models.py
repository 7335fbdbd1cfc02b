"""The Get models dialog: pick a known pair, press Download, get a working model.

One action does what users otherwise do by hand: download the OpenVINO target and the EAGLE-3 head,
convert the head (no PyTorch), check the pair, register it (see :mod:`eagle_chat.core.acquisition.pulls`).
In the standalone bundle, which cannot convert, such entries show why and their Download is off; entries
whose repositories were not checked say so. The work runs in child
processes driven by :class:`~eagle_chat.ui.models.pull_runner.PullRunner`; the dialog shows bytes, speed
and time left, and Cancel stops the process at once. Nothing is registered until every step succeeded.

The hub (Hugging Face or ModelScope) and its endpoint — a mirror such as https://hf-mirror.com for users
who cannot reach huggingface.co — are remembered in the settings.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from eagle_chat import paths
from eagle_chat.core.acquisition import pulls, staging, pull_steps
from eagle_chat.core.errors import UserError
from eagle_chat.core.models.catalog import (
    SOURCE_LABELS,
    SOURCES,
    Catalog,
    CatalogEntry,
    load_catalog,
)
from eagle_chat.core.models.registry import ModelRegistry
from eagle_chat.settings import Settings, load_settings, save_settings
from eagle_chat.ui.widgets import screen_fit, theme
from eagle_chat.ui.words import catalog_texts, texts
from eagle_chat.ui.words.core_text import user_error_text
from eagle_chat.ui.models.other_source import OtherSourceButton
from eagle_chat.ui.models.pull_runner import PullRunner

DEFAULT_ENDPOINTS = {"hf": "https://huggingface.co", "modelscope": "https://www.modelscope.cn"}


class GetModelsDialog(QDialog):
    sig_registered = Signal(str)
    """A pair was downloaded, checked and registered; carries its name."""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        registry: ModelRegistry | None = None,
        catalog: Catalog | None = None,
        settings: Settings | None = None,
        device: str = "CPU",
    ):
        """``settings``: the app's settings object, updated in place (the app saves it). Without it the
        dialog reads and saves the settings file itself."""
        super().__init__(parent)
        self.setObjectName("getModelsDialog")
        self.setWindowTitle(self.tr("Get models"))
        self.registry = registry or ModelRegistry()
        self.catalog = catalog or load_catalog()
        self._own_settings = settings is None
        self.settings = settings if settings is not None else load_settings(paths.settings_file())[0]
        self._blocked: dict[str, str | None] = {}  # entry name -> why it cannot be pulled here
        self.runner = PullRunner(self)
        self.runner.sig_progress.connect(self._on_progress)
        self.runner.sig_finished.connect(self._on_finished)
        self.runner.sig_failed.connect(self._on_failed)
        self.runner.sig_cancelled.connect(self._on_cancelled)
        self._build(device)
        self._fill_catalog()

    # -- public -----------------------------------------------------------------------------------------

    def select_entry(self, name: str) -> None:
        for row in range(self.catalog_list.count()):
            if self.catalog_list.item(row).data(Qt.ItemDataRole.UserRole) == name:
                self.catalog_list.setCurrentRow(row)
                return
        raise KeyError(name)

    def selected_entry(self) -> CatalogEntry | None:
        item = self.catalog_list.currentItem()
        if item is None:
            return None
        return self.catalog.get(item.data(Qt.ItemDataRole.UserRole))

    def start_download(self) -> bool:
        """Plan and start the pull for the selected entry; False (with the reason shown) if it cannot start."""
        entry = self.selected_entry()
        if entry is None or self.runner.running:
            return False
        source = self.source_combo.currentData()
        device = self.device_combo.currentText()
        endpoint = self.endpoint_edit.text().strip() or None
        self._remember(source, endpoint)
        try:
            plan = pulls.plan_pull(entry, source=source, device=device, endpoint=endpoint,
                                     registry=self.registry)
        except UserError as error:
            self._show_status(user_error_text(error), error=True)
            return False
        self._set_busy(True)
        self.progress.setRange(0, 0)
        self._show_status(self.tr("Getting {title}…").format(title=entry.title))
        self.runner.start(plan)
        return True

    def cancel_download(self) -> None:
        if self.runner.running:
            self._show_status(self.tr("Stopping…"))
            self.cancel_button.setEnabled(False)
            self.runner.cancel()

    # -- building ---------------------------------------------------------------------------------------

    def _build(self, device: str) -> None:
        self.catalog_list = QListWidget()
        self.catalog_list.setObjectName("catalogList")
        self.catalog_list.setAccessibleName(self.tr("Models you can get"))
        self.catalog_list.setAccessibleDescription(self.tr("Each entry is a main model with its EAGLE-3 draft "
                                                           "model, their download size and whether it is installed"))
        self.catalog_list.currentItemChanged.connect(self._on_entry_changed)
        self.catalog_list.setWordWrap(True)  # entries wrap, no horizontal scrollbar at 1280×720 (tests/ui/…720p.py)
        self.catalog_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self.description = QLabel()
        self.description.setObjectName("catalogDescription")
        self.description.setWordWrap(True)
        self.blocked_note = QLabel()
        self.blocked_note.setObjectName("downloadBlockedNote")
        self.blocked_note.setWordWrap(True)
        self.blocked_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.blocked_note.hide()

        self.device_combo = QComboBox()
        self.device_combo.setObjectName("downloadDeviceCombo")
        self.device_combo.setAccessibleName(self.tr("Device"))
        self.device_combo.setToolTip(self.tr("NPU needs OpenVINO's NPU build of the model and an int8 draft."))
        self._preferred_device = device.upper()
        self.device_combo.currentTextChanged.connect(self._on_device_changed)

        self.source_combo = QComboBox()
        self.source_combo.setObjectName("sourceCombo")
        self.source_combo.setAccessibleName(self.tr("Download from"))
        for source in SOURCES:
            self.source_combo.addItem(SOURCE_LABELS[source], source)
        index = self.source_combo.findData(self.settings.download_source)
        self.source_combo.setCurrentIndex(max(index, 0))
        self.source_combo.currentIndexChanged.connect(self._on_source_changed)

        self.endpoint_edit = QLineEdit()
        self.endpoint_edit.setObjectName("endpointEdit")
        self.endpoint_edit.setAccessibleName(self.tr("Endpoint"))
        tip = self.tr("A mirror of the hub, e.g. https://hf-mirror.com. Empty: the hub's own site.")
        self.endpoint_edit.setToolTip(tip)
        self.endpoint_edit.setAccessibleDescription(tip)

        form = QFormLayout()
        form.addRow(self.tr("Device:"), self.device_combo)
        form.addRow(self.tr("Download from:"), self.source_combo)
        form.addRow(self.tr("Endpoint:"), self.endpoint_edit)

        self.progress = QProgressBar()
        self.progress.setObjectName("downloadProgress")
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setTextVisible(False)
        self.progress.setAccessibleName(self.tr("Download progress"))
        self.status = QLabel(self.tr("Choose a model and press Download. Everything runs offline afterwards."))
        self.status.setObjectName("downloadStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail = QLabel()
        self.detail.setObjectName("downloadDetail")
        self.detail.setWordWrap(True)  # a worker's long message on one line widened the dialog past the screen
        self.other_source_button = OtherSourceButton(self)  # Hugging Face not reached: ModelScope, in one click

        self.download_button = QPushButton(self.tr("Download"))
        self.download_button.setObjectName("downloadButton")
        self.download_button.setDefault(True)
        self.download_button.clicked.connect(self.start_download)
        self.cancel_button = QPushButton(self.tr("Cancel download"))
        self.cancel_button.setObjectName("cancelDownloadButton")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_download)
        self.close_button = QPushButton(self.tr("Close"))
        self.close_button.setObjectName("closeGetModelsButton")
        self.close_button.clicked.connect(self.close)

        buttons = QHBoxLayout()
        buttons.addWidget(self.download_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)

        right = QVBoxLayout()
        right.addWidget(self.description)
        right.addWidget(self.blocked_note)
        right.addLayout(form)
        right.addStretch(1)
        right.addWidget(self.progress)
        right.addWidget(self.detail)
        right.addWidget(self.status)
        right.addWidget(self.other_source_button, 0, Qt.AlignmentFlag.AlignLeft)
        right.addLayout(buttons)

        layout = QHBoxLayout(self)
        layout.addWidget(self.catalog_list, 1)
        layout.addLayout(right, 2)
        screen_fit.fit(self, QSize(760, 420))
        screen_fit.keep_on_screen(self)
        self._on_source_changed()

    def _fill_catalog(self) -> None:
        installed = set(self.registry.names())
        self._blocked = {e.name: pulls.export_problem(e) for e in self.catalog.entries}
        for entry in self.catalog.entries:
            size = staging.format_bytes(entry.target.approx_bytes + entry.draft.approx_bytes)
            blocked = self._blocked[entry.name]
            item = QListWidgetItem(catalog_texts.catalog_item_text(entry, size, entry.name in installed, bool(blocked)))
            item.setData(Qt.ItemDataRole.UserRole, entry.name)
            item.setToolTip(blocked or entry.description)
            self.catalog_list.addItem(item)
        if self.catalog.problems:
            self._show_status(" ".join(self.catalog.problems), error=True)
        self._restyle()
        if self.catalog_list.count():
            self.catalog_list.setCurrentRow(0)

    # -- reactions --------------------------------------------------------------------------------------

    @Slot()
    def _on_entry_changed(self, *args) -> None:
        entry = self.selected_entry()
        if entry is None:
            return
        self.description.setText(catalog_texts.catalog_entry_details(entry))
        self.description.setToolTip(catalog_texts.catalog_entry_sources(entry))
        blocked = self._blocked.get(entry.name)
        self.blocked_note.setText(catalog_texts.export_blocked_text(blocked) if blocked else "")
        self.blocked_note.setVisible(bool(blocked))
        current = self.device_combo.currentText() or self._preferred_device
        self.device_combo.blockSignals(True)
        self.device_combo.clear()
        self.device_combo.addItems(list(entry.devices()))
        self.device_combo.setCurrentText(current if current in entry.devices() else "CPU")
        self.device_combo.blockSignals(False)
        self._on_device_changed()

    @Slot()
    def _on_device_changed(self, *args) -> None:
        entry = self.selected_entry()
        if entry is None or self.runner.running:
            return
        available = entry.sources(self.device_combo.currentText())
        for row in range(self.source_combo.count()):
            item = self.source_combo.model().item(row)
            item.setEnabled(self.source_combo.itemData(row) in available)
        if self.source_combo.currentData() not in available and available:
            self.source_combo.setCurrentIndex(self.source_combo.findData(available[0]))
        self.download_button.setEnabled(bool(available) and not self._blocked.get(entry.name))

    @Slot()
    def _on_source_changed(self, *args) -> None:
        entry = self.selected_entry()
        source = self.source_combo.currentData()
        if entry is not None:
            available = entry.sources(self.device_combo.currentText())
            if source not in available and available:
                self._show_status(self.tr("{title} is not available on {source}; using {other}.").format(
                    title=entry.title, source=SOURCE_LABELS[source], other=SOURCE_LABELS[available[0]]))
                self.source_combo.setCurrentIndex(self.source_combo.findData(available[0]))
                return  # this slot runs again for the new source
        saved = self.settings.hf_endpoint if source == "hf" else self.settings.modelscope_endpoint
        self.endpoint_edit.setText(saved or "")
        self.endpoint_edit.setPlaceholderText(DEFAULT_ENDPOINTS.get(source, ""))

    @Slot(object)
    def _on_progress(self, progress: pull_steps.Progress) -> None:
        self.status.setText(progress.step)
        fraction = progress.fraction
        if fraction is None:
            if progress.message:
                self.detail.setText(progress.message[:160])
            if self.progress.maximum() != 0 and progress.done is None:
                self.progress.setRange(0, 0)  # busy: a step without byte counts (export, check)
            return
        if self.progress.maximum() == 0:
            self.progress.setRange(0, 1000)
        self.progress.setValue(int(fraction * 1000))
        self.detail.setText(texts.progress_text(progress))

    @Slot(object)
    def _on_finished(self, pair) -> None:
        self._set_busy(False)
        self.progress.setRange(0, 1000)
        self.progress.setValue(1000)
        self.detail.setText("")
        self._show_status(self.tr("{name} is ready. Choose it in the model menu.").format(name=pair.name))
        self._refresh_installed()
        self.sig_registered.emit(pair.name)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._set_busy(False)
        self._reset_progress()
        if self.runner.failure_kind == "network":
            message += self.other_source_button.offer()
        self._show_status(message, error=True)

    @Slot(str)
    def _on_cancelled(self, message: str) -> None:
        self._set_busy(False)
        self._reset_progress()
        self._show_status(message)

    # -- helpers ----------------------------------------------------------------------------------------

    def _set_busy(self, busy: bool) -> None:
        if busy:
            self.other_source_button.hide()
        self.download_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)
        for widget in (self.catalog_list, self.device_combo, self.source_combo, self.endpoint_edit):
            widget.setEnabled(not busy)
        if not busy:
            self._on_device_changed()  # Download stays off where the entry cannot be pulled here

    def _reset_progress(self) -> None:
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.detail.setText("")

    def _show_status(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setProperty("error", error)
        self._restyle()

    def _restyle(self) -> None:
        """The colours that say something (an error, a blocked entry) from the theme, now and after a switch."""
        c = theme.colours()
        self.status.setStyleSheet(f"color: {c.error_text};" if self.status.property("error") else "")
        self.blocked_note.setStyleSheet(f"color: {c.warning};")
        for row in range(self.catalog_list.count()):  # blocked entries stay selectable, so the reason can be read
            item = self.catalog_list.item(row)
            if self._blocked.get(item.data(Qt.ItemDataRole.UserRole)):
                item.setForeground(QBrush(QColor(c.faint)))

    def _refresh_installed(self) -> None:
        current = self.catalog_list.currentRow()
        self.catalog_list.blockSignals(True)
        self.catalog_list.clear()
        self.catalog_list.blockSignals(False)
        self._fill_catalog()
        self.catalog_list.setCurrentRow(current)

    def _remember(self, source: str, endpoint: str | None) -> None:
        self.settings.download_source = source
        if source == "hf":
            self.settings.hf_endpoint = endpoint
        else:
            self.settings.modelscope_endpoint = endpoint
        if self._own_settings:
            try:
                save_settings(self.settings, paths.settings_file())
            except OSError:
                pass  # remembering the mirror is a convenience; the download goes on

    # -- Qt overrides -----------------------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:  # Qt override
        handled = super().event(event)
        if event.type() == QEvent.Type.ApplicationPaletteChange:  # View → Theme switched light / dark
            self._restyle()
        return handled

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        if self.runner.running:
            self.runner.cancel()
            self.runner.wait_stopped()
        super().closeEvent(event)

    def reject(self) -> None:
        if self.runner.running:
            self.runner.cancel()
            self.runner.wait_stopped()
        super().reject()
