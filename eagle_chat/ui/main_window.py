"""MainWindow: assembles the panes and connects them to the ChatController.

Left: conversations. Centre: model bar, chat, composer. Right: live speed chart, last reply's stats,
generation options. The window asks the controller for everything; it never talks to the worker.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from eagle_chat.core.devices import DeviceInfo, NpuOptions, device_choices
from eagle_chat.core.engine import GenerationResult, GenerationSettings, PipelineSpec
from eagle_chat.core.registry import ModelRegistry
from eagle_chat.settings import Settings
from eagle_chat.ui import exporters
from eagle_chat.ui.chat_view import ChatView
from eagle_chat.ui.composer import PromptEdit
from eagle_chat.ui.controller import ChatController
from eagle_chat.ui.controls import ModelBar, OptionsPanel
from eagle_chat.ui.conversation_list import ConversationList
from eagle_chat.ui.models_menu import ModelChoice, ModelsMenu
from eagle_chat.ui.speed_chart import SpeedChart

class MainWindow(QMainWindow):
    def __init__(
        self,
        controller: ChatController,
        settings: Settings,
        *,
        model: ModelChoice,
        devices: list[DeviceInfo],
        save_settings: Callable[[Settings], None],
        registry: ModelRegistry,
        cache_dir: Path | None = None,
    ):
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("EagleChat")
        self.controller = controller
        self.settings = settings
        self.model = model
        self.devices = devices
        self._save_settings = save_settings
        self._cache_dir = cache_dir
        self.registry = registry
        self._has_draft = False
        self._build()
        self._connect()
        self._apply_settings()

    # --- public API ----------------------------------------------------------------------------------
    def start(self) -> None:
        """Show the last conversation and load the model."""
        self.refresh_conversations()
        last = self.settings.last_conversation_id
        if last is not None and self.controller.store.load_conversation(last) is not None:
            self.controller.open_conversation(last)
        self.load_model()

    def load_model(self) -> None:
        self.controller.load(self.pipeline_spec())

    def pipeline_spec(self) -> PipelineSpec:
        return PipelineSpec(
            target_dir=self.model.target_dir,
            draft_dir=self.model.draft_dir,
            device=self.settings.device,
            precision="f32" if self.settings.precision == "f32" else "default",
            cache_dir=self._cache_dir,
            npu=NpuOptions(),
        )

    def generation_settings(self) -> GenerationSettings:
        k = self.model_bar.k_slider.value()
        depth, branching = self.tuned_tree()
        if depth > k:  # a tree deeper than the drafted tokens cannot be verified
            depth = branching = 0
        return GenerationSettings(
            max_new_tokens=self.options.max_tokens.value(),
            speculative=self._has_draft and self.model_bar.draft_toggle.isChecked(),
            num_assistant_tokens=k,
            tree_depth=depth,
            branching_factor=branching,
            thinking=self.options.thinking.isChecked() if self.options.thinking.isEnabled() else None,
            do_sample=self.options.sampling_active(),
            temperature=self.options.temperature.value(),
        )

    def show_notice(self, text: str, *, error: bool = False) -> None:
        colour = "#fee2e2" if error else "#fef3c7"
        self.notice.setStyleSheet(f"background: {colour}; padding: 6px; border-radius: 4px;")
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def refresh_conversations(self) -> None:
        current = self.controller.conversation.id if self.controller.conversation else None
        self.conversations.set_conversations(
            self.controller.store.list_conversations(self.conversations.search.text()), current
        )

    def choose_model_folders(self) -> None:
        target = QFileDialog.getExistingDirectory(self, "Choose the model folder (OpenVINO IR)")
        if not target:
            return
        draft = QFileDialog.getExistingDirectory(self, "Choose its EAGLE-3 draft folder (Cancel: none)")
        self.set_model(ModelChoice(Path(target), Path(draft) if draft else None))

    def set_model(self, model: ModelChoice) -> None:
        self.model = model
        self.settings.target_dir = str(model.target_dir)
        self.settings.draft_dir = None if model.draft_dir is None else str(model.draft_dir)
        self._persist()
        self.load_model()

    def use_registered(self, name: str) -> None:
        """Load a registered pair by name (after Get models registered it)."""
        self.models_menu.choose_registered(name)

    def open_get_models(self):
        from eagle_chat.ui.dialogs.get_models import GetModelsDialog

        dialog = GetModelsDialog(self, registry=self.registry, settings=self.settings, device=self.settings.device)
        dialog.sig_registered.connect(self.use_registered)
        dialog.finished.connect(lambda _result: self._persist())
        dialog.show()
        self.get_models_dialog = dialog
        return dialog

    def tuned_k(self) -> int | None:
        """The K auto-tune chose for the loaded model, draft and device, if any."""
        key = self._tune_key()
        return self.settings.tuned_k.get(key) if key else None

    def tuned_tree(self) -> tuple[int, int]:
        """(depth, branching) of the draft tree auto-tune chose (dialog or `bench --tune --tree`), or (0, 0)."""
        key = self._tune_key()
        try:
            depth, branching = (int(v) for v in self.settings.tuned_tree.get(key, "0x0").split("x"))
        except ValueError:
            return 0, 0
        return depth, branching

    def _tune_key(self) -> str | None:
        if self.model.draft_dir is None:
            return None
        return Settings.tune_key(self.model.target_dir, self.model.draft_dir, self.settings.device)

    def _registered_start_k(self) -> int | None:
        """The catalog's starting K for a registered pair on this device, if it has one."""
        if self.model.draft_dir is None:
            return None
        pair = self.registry.find(self.model.target_dir, self.model.draft_dir)
        return pair.start_k.get(self.settings.device) if pair is not None else None

    def save_tuned_k(self, k: int, tree: str = "") -> None:
        """Auto-tune chose K (and a draft tree "DEPTHxBRANCHING", or "" for a chain): it replaces any
        earlier choice for this pair."""
        key = self._tune_key()
        self.settings.tuned_k[key] = int(k)
        if tree:
            self.settings.tuned_tree[key] = tree
        else:
            self.settings.tuned_tree.pop(key, None)
        self.model_bar.k_slider.setValue(min(max(int(k), 3), 7))
        self._persist()

    def open_compare(self, *, demo: bool = False):
        """Show the side-by-side comparison (in presenter mode with ``demo``)."""
        from eagle_chat.ui.compare_view import CompareView

        if self.compare_view is None:
            self.compare_view = CompareView(self.controller, self.generation_settings, None)
            self.compare_view.sig_want_precision.connect(self.set_precision)
        self.compare_view.show()
        self.compare_view.set_demo(demo)
        self.compare_view.raise_()
        return self.compare_view

    def open_tune(self):
        from eagle_chat.ui.tune_dialog import TuneDialog

        dialog = TuneDialog(self.controller, self)
        dialog.sig_chosen.connect(self.save_tuned_k)
        dialog.show()
        self.tune_dialog = dialog
        return dialog

    def set_precision(self, precision: str) -> None:
        """Reload at ``precision`` ("f32" or "default")."""
        self.settings.precision = precision
        self.options.precision.setCurrentIndex(self.options.precision.findData(precision))
        self._persist()
        self.load_model()

    def export_conversation_stats(self, folder: Path) -> list[Path]:
        conversation = self.controller.conversation
        if conversation is None:
            return []
        return exporters.export_conversation(conversation, folder, chart=self.chart)

    # --- slots ---------------------------------------------------------------------------------------
    @Slot()
    def send(self) -> None:
        text = self.prompt.toPlainText()
        self.controller.set_system_prompt(self.options.system_prompt.toPlainText())
        if self.controller.conversation is None:
            self.controller.new_conversation(self.options.system_prompt.toPlainText())
        if self.controller.send(text, self.generation_settings()):
            self.prompt.clear()
            self.show_notice("")

    @Slot(str)
    def _on_state(self, state: str) -> None:
        busy = state in ("loading", "generating")
        self.send_button.setEnabled(state == "ready")
        self.stop_button.setEnabled(state == "generating")
        self.busy.setVisible(busy)
        self.model_bar.device_combo.setEnabled(not busy)
        self.model_bar.choose_button.setEnabled(not busy)
        texts = {
            "empty": "No model loaded",
            "loading": f"Loading {self.model.label()} on {self.settings.device}…",
            "ready": f"Ready — {self.model.label()} on {self.settings.device}",
            "generating": "Generating…",
        }
        self.state_label.setText(texts.get(state, state))

    @Slot(object)
    def _on_loaded(self, info: dict) -> None:
        self._has_draft = bool(info["has_draft"])
        toggle = self.model_bar.draft_toggle
        toggle.setEnabled(self._has_draft)
        if not self._has_draft:
            toggle.setToolTip("No EAGLE-3 draft loaded: choose a draft folder to compare.")
        self.options.set_thinking_supported(bool(info["supports_thinking"]))
        self._sync_greedy_lock()
        self.model_bar.set_model_text(
            self.model.label(), f"{self.model.target_dir}\n{self.model.draft_dir or 'no draft'}"
        )
        start_k = self.tuned_k() or self._registered_start_k()
        if start_k is not None:
            self.model_bar.k_slider.setValue(min(max(start_k, 3), 7))
        self.statusBar().showMessage(f"Loaded in {info['load_time_ms'] / 1000:.1f} s", 5000)

    @Slot(object)
    def _on_conversation_opened(self, conversation) -> None:
        self.chat.show_conversation(conversation)
        self.settings.last_conversation_id = conversation.id if conversation else None
        if conversation is not None:
            self.options.system_prompt.setPlainText(conversation.system_prompt)
        self.refresh_conversations()

    @Slot(object)
    def _on_message_added(self, message) -> None:
        self.chat.append_message(message)

    @Slot(object, str)
    def _on_reply_text(self, message, text: str) -> None:
        if message is not None:
            message.content = text
            self.chat.update_message(message)

    @Slot(object, object)
    def _on_reply_finished(self, message, result: GenerationResult | None) -> None:
        self.chart.flush()
        self.chat.finish_message(message)
        if result is not None:
            self.stats_label.setText(result.stats.summary())
            self.stats_label.setToolTip(self.stats_label.text())
        if self.controller.conversation is not None:
            self._on_conversation_touched(self.controller.conversation)

    @Slot(object)
    def _on_conversation_touched(self, conversation) -> None:
        if self.conversations.search.text().strip():
            self.refresh_conversations()  # the search decides what is listed
        else:
            self.conversations.bring_to_top(conversation)

    @Slot(int, str, object)
    def _on_reply_started(self, request_id: int, mode: str, settings: GenerationSettings) -> None:
        if self.controller.reply is None or self.controller.reply.message is None:
            return  # comparisons and tuning chart in their own windows
        label = "EAGLE-3" if mode == "speculative" else "baseline"
        self.chart.begin(request_id, mode, label)

    @Slot(int, str, object)
    def _on_rate_points(self, request_id: int, _mode: str, points) -> None:
        self.chart.add_points(request_id, points)

    @Slot(str)
    def _on_error(self, message: str) -> None:
        self.show_notice(message, error=True)

    def _sync_greedy_lock(self) -> None:
        self.options.lock_greedy(self._has_draft)

    # --- building ------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.conversations = ConversationList()
        self.model_bar = ModelBar()
        self.model_bar.set_devices(device_choices(self.devices))
        self.notice = QLabel()
        self.notice.setObjectName("noticeLabel")
        self.notice.setWordWrap(True)
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notice.setVisible(False)
        self.chat = ChatView()
        self.chat.setLineWrapMode(ChatView.LineWrapMode.WidgetWidth)
        self.prompt = PromptEdit()
        self.send_button = QPushButton("Send")
        self.send_button.setObjectName("sendButton")
        self.send_button.setEnabled(False)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setEnabled(False)
        self.chart = SpeedChart()
        self.stats_label = QLabel("No reply yet")
        self.stats_label.setObjectName("statsLabel")
        self.stats_label.setWordWrap(True)
        self.stats_label.setAccessibleName("Last reply statistics")
        self.options = OptionsPanel()
        self.compare_button = QPushButton("Compare baseline vs EAGLE-3")
        self.compare_button.setObjectName("compareButton")
        self.compare_button.clicked.connect(lambda: self.open_compare())
        self.tune_button = QPushButton("Auto-tune draft tokens…")
        self.tune_button.setObjectName("tuneButton")
        self.tune_button.clicked.connect(self.open_tune)
        self.compare_view = None
        self.tune_dialog = None
        self.get_models_dialog = None

        composer = QHBoxLayout()
        composer.addWidget(self.prompt, 1)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        composer.addLayout(buttons)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.addWidget(self.model_bar)
        centre_layout.addWidget(self.notice)
        centre_layout.addWidget(self.chat, 1)
        centre_layout.addLayout(composer)

        side = QWidget()
        side.setMinimumWidth(320)
        side_layout = QVBoxLayout(side)
        side_layout.addWidget(self.chart, 2)
        side_layout.addWidget(self.stats_label)
        side_layout.addWidget(self.compare_button)
        side_layout.addWidget(self.tune_button)
        side_layout.addWidget(self.options)
        side_layout.addStretch(1)

        splitter = QSplitter()
        splitter.setObjectName("mainSplitter")
        splitter.addWidget(self.conversations)
        splitter.addWidget(centre)
        splitter.addWidget(side)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([220, 700, 360])
        self.setCentralWidget(splitter)

        self.state_label = QLabel()
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setVisible(False)
        self.statusBar().addWidget(self.state_label, 1)
        self.statusBar().addPermanentWidget(self.busy)

        self.models_menu = ModelsMenu(self.registry, lambda: self.model, self)
        self.menuBar().addMenu(self.models_menu)
        view_menu = self.menuBar().addMenu("&View")
        demo = QAction("Demo mode (full-screen comparison)", self, shortcut=QKeySequence(Qt.Key.Key_F11))
        demo.triggered.connect(lambda: self.open_compare(demo=True))
        compare = QAction("Compare baseline vs EAGLE-3", self)
        compare.triggered.connect(lambda: self.open_compare())
        view_menu.addActions([compare, demo])
        chat_menu = self.menuBar().addMenu("&Conversation")
        export = QAction("Export stats (CSV, JSON) and chart (PNG)…", self)
        export.triggered.connect(self._export_clicked)
        chat_menu.addAction(export)
        new = QAction("New conversation", self, shortcut=QKeySequence.StandardKey.New)
        new.triggered.connect(lambda: self.controller.new_conversation(self.options.system_prompt.toPlainText()))
        self.addAction(new)
        self.resize(1280, 800)

    def _connect(self) -> None:
        c = self.controller
        self.models_menu.sig_chosen.connect(self.set_model)
        self.models_menu.sig_get_models.connect(self.open_get_models)
        self.models_menu.sig_choose_folders.connect(self.choose_model_folders)
        self.models_menu.sig_error.connect(lambda text: self.show_notice(text, error=True))
        c.sig_state.connect(self._on_state)
        c.sig_loaded.connect(self._on_loaded)
        c.sig_error.connect(self._on_error)
        c.sig_conversations_changed.connect(self.refresh_conversations)
        c.sig_conversation_touched.connect(self._on_conversation_touched)
        c.sig_conversation_opened.connect(self._on_conversation_opened)
        c.sig_message_added.connect(self._on_message_added)
        c.sig_reply_text.connect(self._on_reply_text)
        c.sig_reply_finished.connect(self._on_reply_finished)
        c.sig_reply_started.connect(self._on_reply_started)
        c.sig_rate_points.connect(self._on_rate_points)
        self.send_button.clicked.connect(self.send)
        self.prompt.sig_submit.connect(self.send)
        self.stop_button.clicked.connect(c.stop)
        self.prompt.sig_escape.connect(c.stop)
        self.conversations.sig_new.connect(lambda: c.new_conversation(self.options.system_prompt.toPlainText()))
        self.conversations.sig_open.connect(c.open_conversation)
        self.conversations.sig_rename.connect(c.rename_conversation)
        self.conversations.sig_delete.connect(c.delete_conversation)
        self.conversations.sig_search.connect(lambda _text: self.refresh_conversations())
        self.model_bar.sig_choose_models.connect(lambda: self.models_menu.popup(
            self.model_bar.choose_button.mapToGlobal(self.model_bar.choose_button.rect().bottomLeft())))
        self.model_bar.sig_speculative_toggled.connect(self._on_speculative_toggled)
        self.model_bar.sig_device_changed.connect(self._on_device_changed)
        self.model_bar.sig_k_changed.connect(self._on_k_changed)
        self.options.sig_changed.connect(self._on_options_changed)
        self.options.precision.activated.connect(
            lambda i: self.set_precision(self.options.precision.itemData(i))
        )

    def _apply_settings(self) -> None:
        s = self.settings
        self.model_bar.set_device(s.device)
        self.model_bar.k_slider.setValue(min(max(s.num_assistant_tokens, 3), 7))
        self.model_bar.draft_toggle.setChecked(s.speculative)
        self.options.max_tokens.setValue(s.max_new_tokens)
        self.options.thinking.setChecked(s.thinking)
        self.options.system_prompt.setPlainText(s.system_prompt)
        self.options.precision.setCurrentIndex(max(0, self.options.precision.findData(s.precision)))
        self.model_bar.set_model_text(self.model.label())
        if s.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(s.window_geometry.encode()))

    def _on_speculative_toggled(self, on: bool) -> None:
        self.settings.speculative = on
        self._sync_greedy_lock()
        self._persist()

    def _on_device_changed(self, kind: str) -> None:
        if kind == self.settings.device:
            return
        self.settings.device = kind
        self._persist()
        self.load_model()

    def _on_k_changed(self, k: int) -> None:
        self.settings.num_assistant_tokens = k
        self._persist()

    def _on_options_changed(self) -> None:
        self.settings.max_new_tokens = self.options.max_tokens.value()
        self.settings.thinking = self.options.thinking.isChecked()
        self._persist()

    def _export_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export this conversation's stats to…")
        if folder:
            written = self.export_conversation_stats(Path(folder))
            self.statusBar().showMessage("Exported " + ", ".join(p.name for p in written), 8000)

    def _persist(self) -> None:
        self._save_settings(self.settings)

    # --- Qt overrides --------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.settings.window_geometry = bytes(self.saveGeometry().toBase64()).decode()
        self.settings.system_prompt = self.options.system_prompt.toPlainText()
        self.controller.set_system_prompt(self.settings.system_prompt)
        self._persist()
        self.hide()
        if self.get_models_dialog is not None:
            self.get_models_dialog.close()  # cancels a running download and waits for its process
        if self.tune_dialog is not None:
            self.tune_dialog.runner.cancel()
        if self.compare_view is not None:
            self.compare_view.runner.cancel()
            self.compare_view.close()
        self.controller.shutdown()
        self.controller.store.close()
        event.accept()
