"""The Tools dialog: the MCP servers of mcp.json, their status and tools; a server turned off or on (its
``disabled`` flag, written to the file), a tool left out of what the model is offered (for this session),
mcp.json read again, its folder opened to edit it."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.core.tools.config import set_disabled
from eagle_chat.ui.words.core_text import user_error_text

REFRESH_MS = 500


class ToolsDialog(QDialog):
    def __init__(self, agent, parent=None):
        super().__init__(parent)
        self.agent = agent
        self.setObjectName("toolsDialog")
        self.setWindowTitle(self.tr("Tools (MCP servers)"))
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("toolsTree")
        self.tree.setHeaderLabels([self.tr("Server / tool"), self.tr("Status"), self.tr("Details")])
        self.tree.itemChanged.connect(self._changed)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        reload_button = QPushButton(self.tr("Read mcp.json again"), self)
        reload_button.setObjectName("reloadToolsButton")
        reload_button.clicked.connect(self.agent.reload_servers)
        folder = QPushButton(self.tr("Open its folder"), self)
        folder.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(paths.config_dir()))))
        buttons.addButton(reload_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(folder, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)
        self.resize(640, 420)
        self._shown: list | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        self._timer.start()
        self.refresh()

    def refresh(self) -> None:
        """Redraw when a server's status or tools changed (polled: the hub runs on its own thread)."""
        states = self.agent.server_states()
        key = [(s.config.name, s.config.disabled, s.status, s.error, [t["name"] for t in s.tools]) for s in states]
        if key == self._shown:
            return
        self._shown = key
        self.tree.blockSignals(True)
        self.tree.clear()
        for state in states:
            server = QTreeWidgetItem([state.config.name, self._status(state.status), state.error or state.config.describe()])
            server.setData(0, Qt.ItemDataRole.UserRole, (state.config.name, None))
            server.setFlags(server.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            server.setCheckState(0, Qt.CheckState.Unchecked if state.config.disabled else Qt.CheckState.Checked)
            for tool in state.tools:
                auto = self.tr("runs without asking") if tool["name"] in state.config.auto_approve else ""
                child = QTreeWidgetItem([tool["name"], auto, (tool["description"] or "").splitlines()[0] if tool["description"] else ""])
                child.setData(0, Qt.ItemDataRole.UserRole, (state.config.name, tool["name"]))
                child.setFlags(child.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                off = (state.config.name, tool["name"]) in self.agent.disabled
                child.setCheckState(0, Qt.CheckState.Unchecked if off else Qt.CheckState.Checked)
                server.addChild(child)
            self.tree.addTopLevelItem(server)
            server.setExpanded(True)
        for column in (0, 1):  # tool names and statuses whole; the details take the rest
            self.tree.resizeColumnToContents(column)
        self.tree.blockSignals(False)

    def _changed(self, item: QTreeWidgetItem, column: int) -> None:
        server, tool = item.data(0, Qt.ItemDataRole.UserRole)
        on = item.checkState(0) == Qt.CheckState.Checked
        if tool is not None:
            (self.agent.disabled.discard if on else self.agent.disabled.add)((server, tool))
            self.agent.sig_offer_changed.emit()  # the next-reply line: "Required" may now offer nothing
            return
        try:
            set_disabled(paths.mcp_config_file(), server, not on)
        except (UserError, OSError, ValueError) as error:
            self.agent.window.show_notice(user_error_text(error), error=True)
            return
        self.agent.reload_servers()

    def _status(self, status: str) -> str:
        return {"starting": self.tr("starting"), "ready": self.tr("ready"), "failed": self.tr("failed"),
                "disabled": self.tr("off"), "closed": self.tr("closed")}.get(status, status)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self._timer.stop()
        super().closeEvent(event)
