"""Every QThread the app starts, and how each is ended if the interpreter exits while it still runs.

Qt ends a process that destroys a running QThread with a fatal error ("QThread: Destroyed while thread …
is still running", SIGABRT). Closing the window ends every thread first (``ui/shell/closing.py``); any other way
out — a script or command returning while a reply, the next-turn prefill or a search still runs, or while
a close still waits for one — reached the interpreter's teardown with the thread alive, and a clean exit
became an abort (seen: the privacy test's app session exited with -6 after printing its reply). So each
thread is tracked with the way its owner ends it, and whatever still runs at exit is ended that way — its
work stopped within a step, saved where it is a conversation's — and waited for.
"""

from __future__ import annotations

import atexit
import logging
import weakref
from collections.abc import Callable

from PySide6.QtCore import QThread

log = logging.getLogger(__name__)

# Every tracked thread ever started, so tests can assert none outlives its test.
LIVE_THREADS: "weakref.WeakSet[QThread]" = weakref.WeakSet()
_ENDERS: "weakref.WeakKeyDictionary[QThread, weakref.WeakMethod]" = weakref.WeakKeyDictionary()


def track(thread: QThread, end: Callable[[], None]) -> None:
    """Count ``thread`` among the live ones. ``end`` — a bound method, held weakly so that tracking keeps
    nothing alive — stops the thread's work, ends the thread and waits for it, as its owner's close does."""
    LIVE_THREADS.add(thread)
    _ENDERS[thread] = weakref.WeakMethod(end)


def end_running() -> list[str]:
    """End every tracked thread that still runs and wait for it; the names of those it had to end."""
    ended = []
    for thread in list(LIVE_THREADS):
        try:
            if not thread.isRunning():
                continue
            name = thread.objectName()
        except RuntimeError:  # its C++ object is already gone: nothing left to destroy
            continue
        log.warning("the process is ending while %s still runs: ending it first", name)
        ender = _ENDERS.get(thread)
        end = ender() if ender is not None else None
        if end is not None:
            end()
        else:
            thread.quit()
        thread.wait()
        ended.append(name)
    return ended


atexit.register(end_running)  # after PySide6's own (atexit runs last-registered first): Qt is still whole
