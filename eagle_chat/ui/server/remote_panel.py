"""The "Remote server" backend beside CPU/GPU/NPU: URL, API key and model name, then load as usual.

The worker loads a :class:`RemoteEngine` for a :class:`RemoteSpec` the way it loads a local pipeline, so
the chat, Stop, the speed chart and the stats need nothing else. The key is kept by :class:`KeyStore`
(the OS keyring, else a 0600 file), never in settings.json.
"""

from __future__ import annotations

from urllib.parse import urlparse

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout

from eagle_chat import paths
from eagle_chat.core.serving.keys import KeyStore
from eagle_chat.core.serving.remote import REMOTE, RemoteSpec
from eagle_chat.ui.widgets import theme
from eagle_chat.core.generation.loaded import LoadedPipeline


class RemoteDialog(QDialog):
    def __init__(self, parent, *, url: str, model: str, key: str, key_place: str):
        super().__init__(parent)
        self.setObjectName("remoteDialog")
        self.setWindowTitle(self.tr("Remote server"))
        self.url = QLineEdit(url)
        self.url.setObjectName("remoteUrlEdit")
        self.url.setPlaceholderText("http://127.0.0.1:8000/v1")  # i18n: ok (a URL)
        self.url.setAccessibleName(self.tr("Server URL"))
        self.key = QLineEdit(key)
        self.key.setObjectName("remoteKeyEdit")
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText(self.tr("none"))
        self.key.setAccessibleName(self.tr("API key"))
        self.key.setAccessibleDescription(self.tr("Empty if the server needs no key"))
        self.model = QLineEdit(model)
        self.model.setObjectName("remoteModelEdit")
        self.model.setPlaceholderText(self.tr("the server's first model"))
        self.model.setAccessibleName(self.tr("Model"))
        self.model.setAccessibleDescription(self.tr("Empty: the first model the server lists"))
        self.error = QLabel()
        self.error.setObjectName("remoteError")
        self._restyle()
        hint_text = self.tr("An OpenAI-compatible base URL: another EagleChat (http://host:8000/v1) or OpenVINO "
                            "Model Server (http://host:8000/v3). Leave the model empty to use the first one the "
                            "server lists.")
        if key_place == "keyring":
            where = self.tr("The key is kept in the system keyring.")
        else:
            where = self.tr("No system keyring here: the key is kept in a file only you can read.")
        hint = QLabel(self.tr("{hint} {where}").format(hint=hint_text, where=where))
        hint.setWordWrap(True)
        self.url.setAccessibleDescription(hint_text)
        form = QFormLayout()
        form.addRow(self.tr("URL"), self.url)
        form.addRow(self.tr("API key"), self.key)
        form.addRow(self.tr("Model"), self.model)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._check)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (hint, self.error):
            layout.addWidget(widget)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def values(self) -> tuple[str, str, str]:
        return self.url.text().strip().rstrip("/"), self.key.text().strip(), self.model.text().strip()

    def _check(self) -> None:
        url = urlparse(self.values()[0])
        if url.scheme not in ("http", "https") or not url.netloc:
            self.error.setText(
                self.tr("Enter a URL that starts with http:// or https://, e.g. http://127.0.0.1:8000/v1"))
            return
        self.accept()

    def _restyle(self) -> None:
        self.error.setStyleSheet(f"color: {theme.colours().error_text};")

    def event(self, event: QEvent) -> bool:  # Qt override
        handled = super().event(event)
        if event.type() == QEvent.Type.ApplicationPaletteChange:  # View → Theme switched light / dark
            self._restyle()
        return handled


class RemoteBackend(QObject):
    sig_configured = Signal(str)
    """The remote server's URL was set (the window then loads it)."""

    def __init__(self, window, keys: KeyStore | None = None):
        super().__init__(window)
        self.window = window
        self.keys = keys or KeyStore(paths.remote_keys_file())
        self.dialog: RemoteDialog | None = None
        window.model_bar.sig_remote_chosen.connect(self.choose)
        window.models_menu.sig_chosen.connect(self._leave)  # a local pair chosen: back to a local device
        # queued: after the window's own handlers, which name the local pair
        queued = Qt.ConnectionType.QueuedConnection
        window.controller.sig_loaded.connect(self._on_loaded, queued)
        window.controller.sig_state.connect(self._on_state, queued)

    @property
    def active(self) -> bool:
        return self.window.settings.device == REMOTE

    def spec(self) -> RemoteSpec:
        s = self.window.settings
        return RemoteSpec(s.remote_url, s.remote_model, self.keys.get(s.remote_url) if s.remote_url else None)

    @Slot()
    def choose(self) -> RemoteDialog:
        """Ask for URL, key and model (a window-modal dialog; tests fill it and press OK)."""
        s = self.window.settings
        key = self.keys.get(s.remote_url) if s.remote_url else ""
        self.dialog = RemoteDialog(self.window, url=s.remote_url, model=s.remote_model, key=key or "",
                                   key_place=self.keys.where)
        self.dialog.accepted.connect(lambda: self.configure(*self.dialog.values()))
        self.dialog.rejected.connect(lambda: self.window.model_bar.set_device(self.window.settings.device))
        self.dialog.open()
        return self.dialog

    def configure(self, url: str, key: str, model: str) -> None:
        self.keys.set(url, key)
        self.window.binder.update(remote_url=url, remote_model=model, device=REMOTE)
        self.window.model_bar.set_device(REMOTE)
        self.sig_configured.emit(url)
        self.window.load_model()

    @Slot(object)
    def _leave(self, _model) -> None:
        if self.active:
            self.window.binder.update(device="CPU")
            self.window.model_bar.set_device("CPU")

    @Slot(object)
    def _on_loaded(self, info: LoadedPipeline) -> None:
        if info.device == REMOTE:
            self.window.model_bar.set_model_text(self._label(), str(self.window.settings.remote_url))

    @Slot(str)
    def _on_state(self, state: str) -> None:
        if self.window.settings.device == REMOTE and state in ("loading", "ready"):
            if state == "loading":
                text = self.tr("Connecting to {server}").format(server=self._label())
            else:
                text = self.tr("Ready — {server}").format(server=self._label())
            self.window.status.state_label.setText(text)

    def _label(self) -> str:
        s = self.window.settings
        return self.tr("{model} at {url} (remote server)").format(model=s.remote_model or self.tr("remote model"),
                                                                  url=s.remote_url)
