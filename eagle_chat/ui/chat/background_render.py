"""BackgroundRender: drawing work done in small slices between frames, so a long conversation opens at once.

Drawing a 200-message conversation with code at once (Markdown, Pygments colours, Qt's layout) takes
seconds, during which the window cannot repaint or take input. The chat view draws only the newest
messages at once and queues the rest here: each turn of the event loop runs queued jobs until
``SLICE_MS`` have passed, then yields, so no frame waits longer than about one job plus a slice.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal

SLICE_MS = 12.0


class BackgroundRender(QObject):
    """A queue of small jobs (bound methods and their arguments) run between frames; ``cancel`` drops
    what is left. A job holds its object weakly: a view that is gone just drops its jobs."""

    sig_idle = Signal()
    """The queue ran empty (everything queued is drawn)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._jobs: deque[tuple[weakref.WeakMethod, tuple]] = deque()
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._run_slice)

    def add(self, job: Callable[..., None], *args) -> None:
        self._jobs.append((weakref.WeakMethod(job), args))
        if not self._timer.isActive():
            self._timer.start()

    def cancel(self) -> None:
        self._jobs.clear()
        self._timer.stop()

    def busy(self) -> bool:
        return bool(self._jobs)

    def _run_slice(self) -> None:
        deadline = time.perf_counter() + SLICE_MS / 1000.0
        while self._jobs and time.perf_counter() < deadline:
            method, args = self._jobs.popleft()
            method = method()
            if method is not None:
                method(*args)
            del method  # may have been the last reference to the view (and so to this object)
            if not shiboken6.isValid(self):
                return
        if not self._jobs:
            self._timer.stop()
            self.sig_idle.emit()
