"""The OpenAI-compatible API in the app: the bridge to the controller's queue, the Server switch, and the
Remote server backend."""

from eagle_chat.ui.server.panel import ServerPanel
from eagle_chat.ui.server.remote_panel import RemoteBackend

__all__ = ["RemoteBackend", "ServerPanel"]
