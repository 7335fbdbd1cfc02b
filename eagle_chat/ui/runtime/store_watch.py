"""StoreWatch: while the conversation database is locked or cannot be opened, retry on a timer.

The store never waits for another program's lock (see :mod:`eagle_chat.core.storage.store`); it queues
writes and reports a ``problem``. This object retries every ``RETRY_MS`` (each try waits at most the store's
BUSY_TIMEOUT_S, 4 ms, so the GUI never stalls longer), tells the window when the problem appears and when it
is gone, and asks for the conversation list to be rebuilt when the file opened late or ids changed.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from eagle_chat.core.storage.store import ConversationStore
from eagle_chat.ui.words.core_text import user_error_text
from eagle_chat.ui.words.i18n import translate

RETRY_MS = 500


class StoreWatch(QObject):
    sig_problem = Signal(str)
    """The database cannot be read or written right now: the sentence to show."""
    sig_resolved = Signal()
    """The problem is gone: everything queued meanwhile is written."""
    sig_reload = Signal()
    """The conversations to list changed underneath (the file opened late, or queued rows got new ids)."""

    def __init__(self, store: ConversationStore, parent: QObject | None = None, interval_ms: int = RETRY_MS):
        super().__init__(parent)
        self.store = store
        self.shown: str = ""  # the problem sentence the window shows now ("" none)
        self.last_problem: str = ""  # the latest one shown (to clear it from the notice once it is gone)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)

    def start(self) -> None:
        self._timer.start()
        self.check()

    def stop(self) -> None:
        self._timer.stop()

    @Slot()
    def check(self) -> None:
        store = self.store
        was_available = store.available
        if store.problem is not None or store.unsaved:
            store.flush()
        if (store.available and not was_available) or store.ids_changed:
            store.ids_changed = False
            self.sig_reload.emit()
        problem = user_error_text(store.problem) if store.problem is not None else ""
        if problem != self.shown:
            self.shown = problem
            if problem:
                self.last_problem = problem
                self.sig_problem.emit(problem)
            else:
                self.sig_resolved.emit()


def store_resolved(window) -> None:
    """The database takes writes again: clear the window's notice about it (if it still shows) and say so."""
    if window.notice.text() == window.store_watch.last_problem:
        window.show_notice("")
    window.statusBar().showMessage(translate("StoreWatch", "Your conversations are saved again."), 8000)
