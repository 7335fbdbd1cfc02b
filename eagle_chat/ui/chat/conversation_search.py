"""ConversationSearch: the conversation list's search, debounced and run off the GUI thread.

Typing used to run a ``LIKE '%x%'`` join over every message and rebuild the list on each keystroke
(63–107 ms at 40,000 messages). Now a keystroke only restarts a ``SEARCH_DELAY_MS`` timer; when typing
pauses the query runs on a thread of its own with a read-only connection (the trigram index; WAL lets it
read while the GUI thread writes), and the GUI thread only hides the rows that do not match. A result for
text the user has since changed is dropped.
"""

from __future__ import annotations

import logging
import sqlite3

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot

from eagle_chat.core.storage.store import ConversationStore
from eagle_chat.ui.runtime.live_threads import track

log = logging.getLogger(__name__)

SEARCH_DELAY_MS = 200


class ConversationSearch(QObject):
    sig_results = Signal(object)
    """The conversations to show: a set of ids, or None for all (the search box is empty)."""
    sig_request = Signal(int, str, bool)
    """(Internal, to the search thread) run search number n for this text, with or without the index."""

    def __init__(self, store: ConversationStore, parent: QObject | None = None, delay_ms: int = SEARCH_DELAY_MS):
        super().__init__(parent)
        self.store = store
        self.text = ""
        self.searches = 0  # how many queries ran (tests and benchmarks read it)
        self._latest = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self._run)
        self._thread: QThread | None = None
        self._worker: _SearchWorker | None = None
        self._closed = False

    def request(self, text: str) -> None:
        """The search box now says ``text``: search once typing pauses (an empty box shows all at once)."""
        self.text = text
        self._latest += 1  # whatever is in flight is stale now
        if not text.strip():
            self._timer.stop()
            self.sig_results.emit(None)
            return
        self._timer.start()

    def refresh(self) -> None:
        """The conversations changed: run the current search again now (nothing if the box is empty)."""
        if self.text.strip():
            self._latest += 1
            self._timer.stop()
            self._run()

    def shutdown(self) -> None:
        """End the search thread and wait for it; later requests are ignored (the window is closing)."""
        self._closed = True
        self._timer.stop()
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait()
            self._worker.close()
            self._thread = self._worker = None

    @Slot()
    def _run(self) -> None:
        if self._closed:
            return
        if self._thread is None:
            self._thread = QThread()
            self._thread.setObjectName("ConversationSearchThread")
            self._worker = _SearchWorker(self.store, self)
            self._worker.moveToThread(self._thread)
            self.sig_request.connect(self._worker.search, Qt.ConnectionType.QueuedConnection)
            self._worker.sig_found.connect(self._on_found, Qt.ConnectionType.QueuedConnection)
            self._thread.start()
            track(self._thread, self.shutdown)
        self.searches += 1
        self.sig_request.emit(self._latest, self.text, self.store.search_indexed)

    def is_latest(self, number: int) -> bool:
        return number == self._latest

    @Slot(int, str, object)
    def _on_found(self, number: int, text: str, ids) -> None:
        if number != self._latest:
            return
        self.sig_results.emit(self.store.search_matches(text, ids or []))


class _SearchWorker(QObject):
    """Lives on the search thread; opens its read-only connection there on first use."""

    sig_found = Signal(int, str, object)
    """Search number n for this text found these conversation ids (None: the file could not be read)."""

    def __init__(self, store: ConversationStore, search: ConversationSearch):
        super().__init__()
        self._store = store
        self._search = search
        self._reader = None

    @Slot(int, str, bool)
    def search(self, number: int, text: str, indexed: bool) -> None:
        if not self._search.is_latest(number):
            return  # typed on while it waited: skip it, a newer one is queued
        try:
            if self._reader is None:
                self._reader = self._store.search_reader()
            ids = self._reader.matching_ids(text, indexed=indexed) if self._reader is not None else None
        except sqlite3.Error as error:
            log.warning("search for %r failed: %s", text, error)
            ids = None
        self.sig_found.emit(number, text, ids)

    def close(self) -> None:
        """(After the thread ended.) Close the connection."""
        if self._reader is not None:
            self._reader.close()
            self._reader = None
