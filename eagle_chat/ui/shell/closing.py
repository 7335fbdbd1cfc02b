"""WindowCloser: closing the window without losing anything and without leaving anything running.

Closing stops a reply, cancels downloads, exports, verifications and tuning runs (waiting for their
processes), waits for the speed-demo build, ends the engine host and the thread that talks to it. A load is
not waited for: OpenVINO cannot interrupt a model compile (minutes on a GPU or NPU), so its engine host is
ended at once. When something is still running the window stays up saying "Closing after …" and finishes
closing once it is all over; still running after ``CLOSE_DEADLINE_S`` (a reply that ignores Stop), the
process ends, with everything already saved — that is ``hard_exit``, which the app sets; tests, running
windows in their own process, wait instead.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, QTimer, Signal, Slot

from eagle_chat.ui.words import texts
from eagle_chat.ui.words.i18n import translate

log = logging.getLogger(__name__)

CLOSE_DEADLINE_S = 10.0
POLL_MS = 20

# What a close waits for: English in ``waited_for`` and the log, translated in the window's notice.
WAITING_REPLY = QT_TRANSLATE_NOOP("WindowCloser", "the reply stops")
WAITING_DEMO_PAIR = QT_TRANSLATE_NOOP("WindowCloser", "the speed-demo pair is built")


class WindowCloser(QObject):
    sig_closed = Signal()
    """Everything has stopped and is saved; the window closes now."""

    def __init__(self, window, deadline_s: float | None = None):
        super().__init__(window)
        self._window = window
        self.deadline_s = CLOSE_DEADLINE_S if deadline_s is None else deadline_s
        self.hard_exit: Callable[[], None] | None = None
        self.done = False
        self.started_at: float | None = None
        self.waited_for: list[str] = []  # what the close had to wait for
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def on_close_event(self, event) -> None:
        """The window's closeEvent: accept it when all is over, else keep the window up and poll."""
        if self.done:
            event.accept()
            return
        if self.started_at is None:
            self._begin()
        if not self.waited_for:  # nothing was running: the worker ends at once
            self._window.hide()
            self._finish()
            event.accept()
            return
        event.ignore()
        if not self._timer.isActive():
            bound = self.deadline_s if self.hard_exit is not None else None
            waiting = [translate("WindowCloser", what) for what in self.waited_for]
            self._window.show_notice(texts.closing_text(waiting, bound))
            self._timer.start()

    def _begin(self) -> None:
        w = self._window
        self.started_at = time.monotonic()
        self.waited_for = self._running()
        log.info("closing%s", f", waiting for {', '.join(self.waited_for)}" if self.waited_for else "")
        w.binder.remember_window(w)
        w.controller.conversations.set_system_prompt(w.settings.system_prompt)
        w.binder.flush()
        w.search.shutdown()
        w.store_watch.stop()
        w.dialogs.close_all()  # cancels downloads and runs, and waits for their processes
        w.server.shutdown()  # the API server stops listening; its requests in flight stop within a step
        w.controller.begin_shutdown()
        for widget in (w.centralWidget(), w.menuBar()):
            widget.setEnabled(False)

    def _running(self) -> list[str]:
        w = self._window
        running = []
        if w.controller.reply is not None:
            running.append(WAITING_REPLY)
        if w.models_menu.is_building():
            running.append(WAITING_DEMO_PAIR)
        return running

    def _all_stopped(self) -> bool:
        return self._window.controller.shut_down() and not self._window.models_menu.is_building()

    @Slot()
    def _poll(self) -> None:
        if self._all_stopped():
            self._timer.stop()
            self._finish()
            self._window.close()
            return
        if self.hard_exit is not None and time.monotonic() - self.started_at > self.deadline_s:
            self._timer.stop()
            log.warning("still %s after %.0f s: ending the process (everything is saved)",
                        " and ".join(self.waited_for), self.deadline_s)
            self._window.controller.store.close()
            self.hard_exit()

    def _finish(self) -> None:
        w = self._window
        w.models_menu.shutdown()
        w.controller.shutdown()  # the thread has ended (or ends at once): nothing to wait for
        w.binder.flush()  # a load that finished while closing may have changed the settings
        w.controller.store.close()
        self.done = True
        log.info("closed in %.2f s", time.monotonic() - self.started_at)
        self.sig_closed.emit()
