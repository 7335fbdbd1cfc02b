"""EngineLink: the generation thread and its worker — every cross-thread connection to the engine is here.

The controller (GUI thread) calls plain methods; each becomes a queued slot call on the worker's thread,
and the worker's signals come back queued to the controller's slots. Two calls go straight through from
the GUI thread because the worker's thread is blocked in the engine host while they matter: ``end_host``
(cancel a load, restart a hung engine) and ``host_pid``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QThread, Signal, SignalInstance

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.ui.runtime.worker import CANCEL, GenerationWorker


class EngineLink(QObject):
    """Owns the ``GenerationThread`` and the :class:`GenerationWorker` on it."""

    sig_request_load = Signal(int, object)
    sig_request_unload = Signal()
    sig_request_load_draft_free = Signal()
    sig_request_unload_draft_free = Signal()
    sig_request_generate = Signal(int, object, object, object, bool)
    sig_request_shutdown = Signal()

    def __init__(self, parent: QObject, handlers: dict[str, Callable | SignalInstance]):
        """``handlers``: the worker's signal names (``sig_loaded`` …) → the controller's slots."""
        super().__init__(parent)
        self.generation_thread = QThread()  # not 'thread': that is QObject.thread()
        self.generation_thread.setObjectName("GenerationThread")
        self.worker = GenerationWorker()
        self.worker.moveToThread(self.generation_thread)
        queued = Qt.ConnectionType.QueuedConnection
        self.sig_request_load.connect(self.worker.load, queued)
        self.sig_request_unload.connect(self.worker.shutdown_host, queued)
        self.sig_request_load_draft_free.connect(self.worker.load_draft_free, queued)
        self.sig_request_unload_draft_free.connect(self.worker.unload_draft_free, queued)
        self.sig_request_generate.connect(self.worker.generate, queued)
        self.sig_request_shutdown.connect(self.worker.shutdown, queued)
        self.connect_worker(handlers)
        self.generation_thread.finished.connect(self.worker.deleteLater)
        self.generation_thread.start()

    def connect_worker(self, handlers: dict[str, Callable | SignalInstance]) -> None:
        """Queue more of the worker's signals to slots on the GUI thread (bound methods of QObjects there)."""
        for name, slot in handlers.items():
            getattr(self.worker, name).connect(slot, Qt.ConnectionType.QueuedConnection)

    def load(self, load_id: int, spec) -> None:
        self.worker.wanted_load = load_id  # a load still queued behind it is skipped, not run for nothing
        self.sig_request_load.emit(load_id, spec)

    def unload(self) -> None:
        self.sig_request_unload.emit()

    def load_draft_free(self) -> None:
        self.sig_request_load_draft_free.emit()

    def unload_draft_free(self) -> None:
        self.sig_request_unload_draft_free.emit()

    def generate(self, request_id: int, prompt, settings: GenerationSettings, stop: threading.Event,
                 draft_free: bool) -> None:
        self.sig_request_generate.emit(request_id, prompt, settings, stop, draft_free)

    def cancel_load(self) -> None:
        """Cancel the load under way and any still queued (from the GUI thread): its host ends at once."""
        self.worker.wanted_load = 0
        self.worker.end_host(CANCEL)

    def end_host(self, reason: str) -> bool:
        """End the engine host at once (from the GUI thread): see GenerationWorker.end_host."""
        return self.worker.end_host(reason)

    def host_pid(self) -> int | None:
        return self.worker.host_pid()

    def begin_shutdown(self) -> None:
        """Queued after the running request: the worker ends the host and quits the thread's loop."""
        if self.generation_thread.isRunning():
            self.sig_request_shutdown.emit()

    def is_running(self) -> bool:
        return self.generation_thread.isRunning()

    def wait(self) -> None:
        self.generation_thread.wait()
