"""Console signals in EagleChat's child processes and in ``serve``.

Ctrl+C in a console reaches every process attached to it: on Windows every process sharing the console, on
Linux the terminal's foreground process group. The engine host and the embedder are children that the app
stops itself (a quit message, a kill); a KeyboardInterrupt in them turned ``serve``'s graceful stop into
``engine_crashed`` for the reply in flight. They ignore the console's interrupts; the parent decides.
Windows' Ctrl+Break, and closing the console window (CTRL_CLOSE_EVENT, which the C runtime reports as the
same signal), arrive as ``signal.SIGBREAK``, a name only Windows has.
"""

from __future__ import annotations

import signal
import sys


def console_stop_signals() -> tuple[signal.Signals, ...]:
    """The signals that mean "stop" to a console program here: SIGINT and SIGTERM, and SIGBREAK on Windows."""
    if sys.platform == "win32":
        return (signal.SIGINT, signal.SIGTERM, signal.SIGBREAK)
    return (signal.SIGINT, signal.SIGTERM)


def ignore_console_interrupts() -> None:
    """For a child process: Ctrl+C (and Windows' Ctrl+Break / console close) is for the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform == "win32":
        signal.signal(signal.SIGBREAK, signal.SIG_IGN)
