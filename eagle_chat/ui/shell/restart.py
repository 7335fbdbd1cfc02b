"""Starting EagleChat again (a language change applies at start): the window closes as it always does, and
once it has closed — its lock released, so the new process does not hand its command line back to this one —
the same program starts again with the same arguments, a PyInstaller bundle as its executable, a Python
install as ``python -m eagle_chat``."""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QProcess

log = logging.getLogger(__name__)


def restart_command(argv: list[str] | None = None) -> list[str]:
    """The command that starts this EagleChat again: program first, then its arguments."""
    args = list(sys.argv[1:] if argv is None else argv)
    if getattr(sys, "frozen", False):
        return [sys.executable, *args]
    return [sys.executable, "-m", "eagle_chat", *args]


def restart(window) -> None:
    """Close ``window`` (it stops, saves and waits as on any close), then start EagleChat again."""
    command = restart_command()

    def start() -> None:
        started, _pid = QProcess.startDetached(command[0], command[1:])
        log.info("restarting: %s (%s)", " ".join(command), "started" if started else "could not start")

    window.closer.sig_closed.connect(start)  # after the instance lock is released (connected first)
    window.close()
