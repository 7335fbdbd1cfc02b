"""The app's log: a rotating file in the platform's log folder, and every unhandled error routed into it.

A desktop launch has no terminal, so anything printed to stderr is lost. Here Python logging, uncaught
exceptions (``sys.excepthook`` — PySide6 hands an exception raised in a slot to it — and
``threading.excepthook``) and Qt's own warnings (``qInstallMessageHandler``) all go to
``paths.log_file()``; ``--verbose`` mirrors the log on stderr. An uncaught exception is also handed to
``on_exception`` so the window can say so (a notice with the log's path), never a traceback dialog.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QtMsgType, qInstallMessageHandler

from eagle_chat import paths

MAX_BYTES = 1_000_000
BACKUPS = 3
FORMAT = "%(asctime)s %(process)d %(threadName)s %(levelname)s %(name)s: %(message)s"

_QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}

log = logging.getLogger("eagle_chat")
ExceptionHandler = Callable[[type, BaseException, object], None]


class AppLog:
    """The installed log; :meth:`uninstall` puts back what was there (tests open many windows)."""

    def __init__(self, path: Path, *, verbose: bool):
        self.path = path
        self.on_exception: ExceptionHandler | None = None
        self._handlers: list[logging.Handler] = []
        formatter = logging.Formatter(FORMAT)
        file_handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True
        )
        file_handler.setLevel(logging.DEBUG if verbose else logging.INFO)
        self._handlers.append(file_handler)
        if verbose:
            self._handlers.append(logging.StreamHandler(sys.stderr))
        root = logging.getLogger()
        self._root_level = root.level
        root.setLevel(min(root.level or logging.WARNING, logging.DEBUG if verbose else logging.INFO))
        for handler in self._handlers:
            handler.setFormatter(formatter)
            root.addHandler(handler)
        self._previous_hooks = (sys.excepthook, threading.excepthook)
        sys.excepthook = self._excepthook
        threading.excepthook = self._thread_excepthook
        self._previous_qt = qInstallMessageHandler(_qt_message)
        log.info("EagleChat started (Python %s); log %s", sys.version.split()[0], path)

    def uninstall(self) -> None:
        """Flush and detach the log and the hooks."""
        if sys.excepthook == self._excepthook:
            sys.excepthook = self._previous_hooks[0]
        if threading.excepthook == self._thread_excepthook:
            threading.excepthook = self._previous_hooks[1]
        qInstallMessageHandler(self._previous_qt)
        root = logging.getLogger()
        for handler in self._handlers:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(self._root_level)
        self.on_exception = None

    def flush(self) -> None:
        for handler in self._handlers:
            handler.flush()

    def _excepthook(self, kind, error, tb) -> None:
        log.error("uncaught exception", exc_info=(kind, error, tb))
        self._tell(kind, error, tb)
        previous = self._previous_hooks[0]
        if previous not in (sys.__excepthook__, self._excepthook):
            previous(kind, error, tb)  # e.g. pytest-qt's, which fails the test that raised

    def _thread_excepthook(self, args) -> None:
        name = args.thread.name if args.thread else "?"
        log.error("uncaught exception in thread %s", name,
                  exc_info=(args.exc_type, args.exc_value, args.exc_traceback))
        if args.exc_value is not None:
            self._tell(args.exc_type, args.exc_value, args.exc_traceback)

    def _tell(self, kind, error, tb) -> None:
        if self.on_exception is not None and not issubclass(kind, (KeyboardInterrupt, SystemExit)):
            try:
                self.on_exception(kind, error, tb)
            except Exception:  # noqa: BLE001 - reporting must never raise from a hook
                log.exception("could not show the error")


def install(*, verbose: bool = False) -> AppLog:
    """Start logging to ``paths.log_file()`` (rotated at ``MAX_BYTES``, ``BACKUPS`` old files kept)."""
    return AppLog(paths.log_file(), verbose=verbose)


def _qt_message(kind, context, message: str) -> None:
    logging.getLogger("qt").log(_QT_LEVELS.get(kind, logging.WARNING), "%s", message)
