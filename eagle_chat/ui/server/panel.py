"""ServerPanel: the window's Server switch, its URL in the status bar, the request log, the chart series.

Switched on, the OpenAI-compatible API runs inside the window's own asyncio loop (qasync) and its
requests join the controller's queue beside the window's replies: the same pipeline serves both. Each
API reply draws its own line in the speed chart ("API · EAGLE-3"), so a presenter can show an IDE's
request being accelerated, and each request gets a line in the log under the chat.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QPushButton

from eagle_chat.core.errors import UserError
from eagle_chat.core.serving.http import HttpOptions
from eagle_chat.core.serving.records import RequestRecord
from eagle_chat.core.serving.requests import Limits
from eagle_chat.core.serving.server import ApiServer, ServerConfig
from eagle_chat.ui.words.core_text import user_error_text
from eagle_chat.ui.runtime.reply_handle import ReplyHandle
from eagle_chat.ui.server.bridge import ControllerBackend

LOG_LINES = 200
STOP_GRACE_S = 5.0  # switching off lets replies in flight finish for this long


class ServerPanel(QObject):
    sig_running = Signal(bool, str)
    """The API server started (True and its URL) or stopped (False and "")."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.backend = ControllerBackend(self.controller, window.generation_settings)
        self.server: ApiServer | None = None
        self._busy: asyncio.Future | None = None
        self.toggle = QPushButton(self.tr("API server"))
        self.toggle.setObjectName("serverToggle")
        self.toggle.setAccessibleName(self.tr("OpenAI-compatible API server"))
        self.toggle.setCheckable(True)
        tip = self.tr("Serve the loaded model at http://127.0.0.1:{port}/v1 (OpenAI-compatible) to IDE assistants "
                      "and agents on this computer").format(port=window.settings.server_port)
        self.toggle.setToolTip(tip)
        self.toggle.setAccessibleDescription(tip)
        self.url_label = QLabel()
        self.url_label.setObjectName("serverUrlLabel")
        self.url_label.setAccessibleName(self.tr("API server address"))
        self.url_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.log = QPlainTextEdit()
        self.log.setObjectName("apiRequestLog")
        self.log.setAccessibleName(self.tr("API request log"))
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(LOG_LINES)
        self.log.setMaximumHeight(90)
        self.log.setVisible(False)
        centre = window.chat.parentWidget().layout()  # under the chat, above the composer
        centre.insertWidget(centre.indexOf(window.chat) + 1, self.log)
        bar = window.statusBar()
        bar.addPermanentWidget(self.url_label)
        bar.addPermanentWidget(self.toggle)
        self.toggle.toggled.connect(self._on_toggled)
        self.controller.sig_reply_started.connect(self._on_reply_started)

    @property
    def url(self) -> str | None:
        return self.server.url if self.server is not None else None

    def shutdown(self) -> None:
        """The window is closing: close the server now (replies in flight stop within a step)."""
        if self.server is not None:
            self.server.abort()
            self.server = None

    # --- switching ---------------------------------------------------------------------------------
    @Slot(bool)
    def _on_toggled(self, on: bool) -> None:
        self._busy = asyncio.ensure_future(self._start() if on else self._stop())

    async def _start(self) -> None:
        settings = self.window.settings
        config = ServerConfig(port=settings.server_port, grace_s=STOP_GRACE_S,
                              http=HttpOptions(limits=Limits(max_tokens=self.window.options.max_tokens.maximum())))
        server = ApiServer(config, self.backend, on_record=self._on_record)
        try:
            url = await server.start()
        except UserError as error:
            self.window.show_notice(user_error_text(error), error=True)
            self._set_checked(False)
            return
        if not self.toggle.isChecked():  # switched off while starting
            await server.stop(0)
            return
        self.server = server
        self.url_label.setText(url)
        self.log.setVisible(True)
        self.log.appendPlainText(
            self.tr("Serving {url} — requests share the window's model and queue.").format(url=url))
        self.window.statusBar().showMessage(self.tr("API server on {url}").format(url=url), 8000)
        self.sig_running.emit(True, url)

    async def _stop(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            await server.stop(STOP_GRACE_S)
        self.url_label.setText("")
        self.log.appendPlainText(self.tr("Server stopped."))
        self.sig_running.emit(False, "")

    def _set_checked(self, on: bool) -> None:
        self.toggle.blockSignals(True)
        self.toggle.setChecked(on)
        self.toggle.blockSignals(False)

    # --- what the requests do ----------------------------------------------------------------------
    @Slot(ReplyHandle)
    def _on_reply_started(self, handle: ReplyHandle) -> None:
        """An API request's reply draws its own line in the chart, live, with its figures when it ends."""
        if not handle.api:
            return
        chart, mode = self.window.chart, handle.mode
        label = self.tr("API · EAGLE-3") if mode == "speculative" else self.tr("API · baseline")
        chart.begin(handle, f"api-{mode}", label)
        handle.sig_rate_points.connect(lambda points: chart.add_points(handle, points))
        handle.sig_ended.connect(lambda result: chart.finish(handle, result.stats if result is not None else None))

    def _on_record(self, record: RequestRecord) -> None:
        self.log.appendPlainText(record.line())
