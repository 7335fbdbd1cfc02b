"""MainWindow: assembles the panes and connects them to the ChatController.

Left: conversations. Centre: model bar, chat (API request log under it), composer. Right: speed chart, stats,
options. The window asks the controller for everything, never the worker. Helpers: SettingsBinder,
WindowDialogs, ModelsMenu, ModelLoads (loads as transactions), ConversationSearch, StoreWatch (a locked
database), FailureReporter, WindowCloser, and ui/server (the API Server switch, the Remote server backend)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMainWindow, QSplitter, QVBoxLayout, QWidget

from eagle_chat.core.generation.devices import DeviceInfo, NpuOptions, device_choices
from eagle_chat.core.generation.engine import GenerationResult, GenerationSettings, PipelineSpec
from eagle_chat.core.measure.tuning import clamp_k, remember_tuned, tuned_choice
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.core.models.registry import ModelRegistry
from eagle_chat.core.serving.remote import REMOTE
from eagle_chat.settings import Settings
from eagle_chat.ui.shell import first_start
from eagle_chat.ui.speed import exporters
from eagle_chat.ui.words import texts
from eagle_chat.ui.chat.chat_view import ChatView
from eagle_chat.ui.chat.composer import Composer
from eagle_chat.ui.documents.conversation_documents import ConversationDocuments
from eagle_chat.ui.chat.conversation_list import ConversationList
from eagle_chat.ui.chat.conversation_search import ConversationSearch
from eagle_chat.ui.chat.message_actions import MessageActions
from eagle_chat.ui.shell.closing import WindowCloser
from eagle_chat.ui.runtime.controller import ChatController
from eagle_chat.ui.speed.controls import ModelBar
from eagle_chat.ui.shell.dialogs import WindowDialogs
from eagle_chat.ui.runtime.failures import FailureReporter
from eagle_chat.ui.shell.menus import build_menus
from eagle_chat.ui.shell.engine_status import EngineStatus
from eagle_chat.ui.shell.model_loads import ModelLoads
from eagle_chat.ui.models.models_menu import ModelsMenu
from eagle_chat.ui.shell.notice_bar import NoticeBar
from eagle_chat.ui.server import RemoteBackend, ServerPanel
from eagle_chat.ui.shell.settings_binder import SettingsBinder
from eagle_chat.ui.speed.demo_kit import DemoKit
from eagle_chat.ui.speed.reply_figures import ReplyFigures
from eagle_chat.ui.speed.side_panel import SidePanel
from eagle_chat.ui.speed.speculation_display import SpeculationDisplay
from eagle_chat.ui.shell.status_area import StatusArea
from eagle_chat.ui.runtime.store_watch import StoreWatch, store_resolved
from eagle_chat.ui.tools.agent_loop import AgentLoop


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
        log_path: Path | None = None,
    ):
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("EagleChat")  # i18n: ok (the product's name)
        self.controller = controller
        self.settings = settings
        self.model, self.devices = model, devices
        self._cache_dir, self.registry = cache_dir, registry
        self.has_draft = False
        self.binder = SettingsBinder(settings, save_settings, self)
        self.dialogs = WindowDialogs(self)
        self.failures = FailureReporter(log_path, self)
        self.search = ConversationSearch(controller.store, self)
        self.store_watch = StoreWatch(controller.store, self)
        self.closer = WindowCloser(self)
        self._build()
        self.loads = ModelLoads(self)
        self.engine_status = EngineStatus(self)  # crash, restart, hung reply, unload: what the window says
        self.agent = AgentLoop(self)  # agent mode: the model calls the MCP tools of mcp.json, the user approves
        self.documents = ConversationDocuments(self)  # attached files: replies answer from them and cite them
        self.speculation.follow(self.agent, self.documents)  # tool use "Required", passages: the next-reply line
        self._connect()
        self.demo = DemoKit(self)  # warm start after loads, quick tune, the one-click speed-demo pair
        self.binder.apply(self)
        first_start.install(self)  # the model label, the keyboard in the message box, the first-run card

    # --- public API ----------------------------------------------------------------------------------
    def start(self, device: str | None = None) -> None:
        """Show the last conversation and load the model (on ``device``, else the saved one)."""
        self.refresh_conversations()
        last = self.settings.last_conversation_id
        if last is not None and self.controller.store.load_conversation(last) is not None:
            self.controller.conversations.open_conversation(last)
        self.store_watch.start()
        self.loads.request(device=device)

    def load_model(self) -> bool:
        """Reload the current model as it is set (False if refused now; the notice says why)."""
        return self.loads.request()

    def pipeline_spec(self, model: ModelChoice | None = None, device: str | None = None,
                      precision: str | None = None, prefix_cache: bool | None = None) -> PipelineSpec:
        """What a load of ``model`` / ``device`` / ``precision`` sends (the rest as set now)."""
        if (device or self.settings.device) == REMOTE:  # "Remote server…" chosen in the device list
            return self.remote.spec()
        model = model or self.model
        precision = "f32" if (precision or self.settings.precision) == "f32" else "default"
        return PipelineSpec(target_dir=model.target_dir, draft_dir=model.draft_dir,
                            device=device or self.settings.device, precision=precision, cache_dir=self._cache_dir,
                            npu=NpuOptions(), prefix_cache=self.settings.prefix_cache if prefix_cache is None
                            else prefix_cache)

    def generation_settings(self) -> GenerationSettings:
        k = self.model_bar.k_slider.value()
        tuned = tuned_choice(self.settings, self.model.target_dir, self.model.draft_dir, self.settings.device)
        depth, branching = tuned.tree_for(k)  # what auto-tune chose (dialog or `bench --tune`)
        return GenerationSettings(
            max_new_tokens=self.options.max_tokens.value(), num_assistant_tokens=k,
            **self.speculation.pin.settings_fields(self.has_draft),  # EAGLE-3 button and Speculation list
            tree_depth=depth, branching_factor=branching,
            thinking=self.options.thinking.isChecked() if self.options.thinking.isEnabled() else None,
            do_sample=self.options.sampling_active(), temperature=self.options.temperature.value(),
        )

    def show_notice(self, text: str, *, error: bool = False, action=None) -> None:
        self.notice.show_text(text, error=error, action=action)

    def show_state(self) -> None:
        """The status bar's line: what is loaded, or what is being loaded, and what runs."""
        loading = self.loads.pending if self.controller.state == "loading" else None
        model, device = (loading.model, loading.device) if loading else (self.model, self.settings.device)
        self.status.show_state(self.controller.state, texts.model_label(model), device)

    def refresh_conversations(self) -> None:
        """Rebuild the list (all conversations; the search then hides those that do not match)."""
        current = self.controller.conversation.id if self.controller.conversation else None
        self.conversations.set_conversations(self.controller.store.list_conversations(), current)
        self.search.refresh()

    def set_model(self, model: ModelChoice) -> bool:
        """Load ``model``; settings and labels follow once it is loaded (False: refused now, and why)."""
        return self.loads.request(model=model)

    def set_precision(self, precision: str) -> bool:
        """Reload at ``precision`` ("f32" or "default") once the load succeeds."""
        return self.loads.request(precision=precision)

    def set_prefix_cache(self, on: bool) -> bool:
        """Reuse the KV cache of earlier turns (CPU/GPU), or not: reloads, saved once the load succeeds."""
        return self.loads.request(prefix_cache=on)

    def save_tuned_k(self, k: int, tree: str = "") -> None:
        """Auto-tune chose K (and a draft tree "DEPTHxBRANCHING", or "" for a chain) for this pair."""
        remember_tuned(self.settings, self.model.target_dir, self.model.draft_dir, self.settings.device, k, tree)
        self.model_bar.k_slider.setValue(clamp_k(k))
        self.binder.flush()  # a tuning result is rare and costly to redo: on disk at once

    def open_tune(self):
        return self.dialogs.open_tune()

    def open_compare(self, *, demo: bool = False):
        """Show the side-by-side comparison (in presenter mode with ``demo``)."""
        return self.dialogs.open_compare(demo=demo)

    def export_conversation_stats(self, folder: Path) -> list[Path]:
        conversation = self.controller.conversation
        if conversation is None:
            return []
        return exporters.export_conversation(conversation, folder, chart=self.chart)

    # --- slots ---------------------------------------------------------------------------------------
    @Slot()
    def send(self) -> None:
        if self.agent.hold(self.send):  # tool use "Required" while the tool servers start (or none is there)
            return
        text = self.prompt.toPlainText()
        self.controller.conversations.set_system_prompt(self.options.system_prompt.toPlainText())
        if self.controller.conversation is None:
            self.new_conversation()
        if self.message_actions.send(text, self.agent.first_step(self.generation_settings())):  # a new message, or an edited one
            self.prompt.clear()
            self.show_notice("")

    @Slot(str)
    def _on_state(self, state: str) -> None:
        self.send_button.setEnabled(state == "ready")
        self.stop_button.setEnabled(state == "generating")
        self.loads.lock_controls(state)
        self.show_state()

    @Slot(object)
    def _on_conversation_opened(self, conversation) -> None:
        self.chat.show_conversation(conversation)
        self.settings.last_conversation_id = conversation.id if conversation else None
        if conversation is not None:
            self.options.system_prompt.setPlainText(conversation.system_prompt)
        self.conversations.select(conversation.id if conversation else None)  # no rebuild: a switch stays cheap

    @Slot(object, str)
    def _on_reply_text(self, message, _text: str) -> None:
        if message is not None:  # the controller has put the answer so far (and the thinking) on it
            self.chat.update_message(message)
            self.status.text_shown()

    @Slot(object, object)
    def _on_reply_finished(self, message, result: GenerationResult | None) -> None:
        self.chat.finish_message(message)  # the chart and the stats line: ReplyFigures
        if self.controller.conversation is not None:
            self._on_conversation_touched(self.controller.conversation)

    @Slot(object)
    def _on_conversation_touched(self, conversation) -> None:
        self.conversations.bring_to_top(conversation)
        self.search.refresh()  # with a search on, it decides whether the row shows

    def _on_device_changed(self, kind: str) -> None:
        if kind != self.settings.device:
            self.loads.request(device=kind)

    def new_conversation(self) -> None:
        self.conversations.clear_search()  # a search left in the box hid the new conversation (it matches nothing)
        self.controller.conversations.new_conversation(self.options.system_prompt.toPlainText())
        self.prompt.setFocus()  # Ctrl+N, the button or the menu: the next keys are the first message

    # --- building ------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.conversations = ConversationList()
        self.model_bar = ModelBar()
        self.model_bar.set_devices(device_choices(self.devices))
        self.notice = NoticeBar()
        self.chat = ChatView()
        self.chat.setLineWrapMode(ChatView.LineWrapMode.WidgetWidth)
        self.composer = Composer()
        self.prompt, self.send_button, self.stop_button = (
            self.composer.prompt, self.composer.send_button, self.composer.stop_button)
        self.side = SidePanel()
        self.chart, self.stats_label, self.options = self.side.chart, self.side.stats_label, self.side.options
        self.compare_button, self.tune_button = self.side.compare_button, self.side.tune_button

        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        for widget, stretch in ((self.model_bar, 0), (self.notice, 0), (self.chat, 1), (self.composer, 0)):
            centre_layout.addWidget(widget, stretch)
        splitter = QSplitter()
        splitter.setObjectName("mainSplitter")
        for widget in (self.conversations, centre, self.side):
            splitter.addWidget(widget)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([220, 700, self.side.sizeHint().width()])  # the options' captions whole
        self.setCentralWidget(splitter)

        self.speculation = SpeculationDisplay(self)  # next-reply line, acceptance chart, drafted-token tint
        self.figures = ReplyFigures(self)  # the speed chart's lines and the stats line follow the chat
        self.status = StatusArea(self.statusBar())
        self.models_menu = ModelsMenu(self.registry, lambda: self.model, self)
        self.server, self.remote = ServerPanel(self), RemoteBackend(self)
        self.message_actions = MessageActions(self)  # regenerate, edit, continue, delete, branches, files
        build_menus(self)

    def _connect(self) -> None:
        c, notice = self.controller, (lambda text, *_: self.show_notice(text, error=True))
        self.binder.bind(self)
        self.model_bar.set_models_menu(self.models_menu)
        for signal, slot in (
            (self.models_menu.sig_chosen, self.set_model), (self.models_menu.sig_error, self.failures.report),
            (self.failures.sig_failure, self.notice.show_failure), (self.loads.sig_refused, notice),
            (self.store_watch.sig_problem, notice), (self.store_watch.sig_resolved, lambda: store_resolved(self)),
            (self.store_watch.sig_reload, self.refresh_conversations),
            (self.conversations.sig_search, self.search.request),
            (self.search.sig_results, self.conversations.show_only),
            (self.models_menu.sig_get_models, self.dialogs.open_get_models),
            (self.dialogs.sig_registered, self.models_menu.choose_registered),
            (self.dialogs.sig_closed_get_models, self.binder.persist), (self.dialogs.sig_tuned, self.save_tuned_k),
            (self.dialogs.sig_want_precision, self.set_precision), (self.binder.sig_failed, self.failures.report),
            (c.sig_state, self._on_state), (c.sig_error, notice),
            (c.sig_conversations_changed, self.refresh_conversations),
            (c.sig_conversation_touched, self._on_conversation_touched),
            (c.sig_conversation_opened, self._on_conversation_opened), (c.sig_message_added, self.chat.append_message),
            (c.sig_reply_text, self._on_reply_text), (c.sig_reply_finished, self._on_reply_finished),
            (self.send_button.clicked, self.send), (self.prompt.sig_submit, self.send),
            (self.stop_button.clicked, c.stop), (self.prompt.sig_escape, c.stop),
            (self.compare_button.clicked, lambda: self.open_compare()), (self.tune_button.clicked, self.open_tune),
            (self.conversations.sig_new, self.new_conversation), (self.conversations.sig_open, c.conversations.open_conversation),
            (self.conversations.sig_rename, c.conversations.rename_conversation),
            (self.conversations.sig_delete, c.conversations.delete_conversation),
            (self.model_bar.sig_speculative_toggled, lambda _on: self.options.lock_greedy(self.has_draft)),
            (self.options.prefix_cache.clicked, self.set_prefix_cache),
            (self.model_bar.sig_device_changed, self._on_device_changed),
            (self.options.precision.activated, lambda i: self.set_precision(self.options.precision.itemData(i))),
        ):
            signal.connect(slot)

    # --- Qt overrides --------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.closer.on_close_event(event)  # stops, saves and waits; the window stays up while it must
