"""The log: a rotating file in the log folder (under --home), --verbose on stderr, and Qt's messages and
uncaught exceptions of any thread in it."""

from __future__ import annotations

import logging
import sys
import threading

import pytest
from PySide6.QtCore import qWarning

from eagle_chat import paths
from eagle_chat.ui.runtime import app_log


def test_the_log_lives_under_the_home_and_rotates(eagle_home, monkeypatch):
    assert paths.log_dir() == eagle_home / "log"
    monkeypatch.setattr(app_log, "MAX_BYTES", 2000)
    log = app_log.install()
    try:
        for i in range(200):
            logging.getLogger("eagle_chat.test").info("line %d %s", i, "x" * 40)
        log.flush()
    finally:
        log.uninstall()
    kept = sorted(p.name for p in paths.log_dir().iterdir())
    assert kept == ["eaglechat.log", "eaglechat.log.1", "eaglechat.log.2", "eaglechat.log.3"]
    assert "line 199" in paths.log_file().read_text(encoding="utf-8")


def test_verbose_mirrors_the_log_on_stderr_and_qt_messages_go_in(capsys):
    log = app_log.install(verbose=True)
    try:
        logging.getLogger("eagle_chat.test").debug("a debug detail")
        qWarning("a warning from Qt")
        log.flush()
    finally:
        log.uninstall()
    err = capsys.readouterr().err
    assert "a debug detail" in err and "a warning from Qt" in err
    text = paths.log_file().read_text(encoding="utf-8")
    assert "a debug detail" in text and "WARNING qt: a warning from Qt" in text


@pytest.mark.qt_no_exception_capture  # else pytest-qt's hook (which ours hands on to) fails the test
def test_uncaught_exceptions_of_any_thread_are_logged_and_handed_on():
    log = app_log.install()
    heard = []
    log.on_exception = lambda kind, error, tb: heard.append(str(error))
    try:
        thread = threading.Thread(target=lambda: 1 / 0, name="worker-that-fails")
        thread.start()
        thread.join()
        try:
            raise ValueError("on the main thread")
        except ValueError:
            sys.excepthook(*sys.exc_info())
        log.flush()
    finally:
        log.uninstall()
    assert heard == ["division by zero", "on the main thread"]
    text = paths.log_file().read_text(encoding="utf-8")
    assert "uncaught exception in thread worker-that-fails" in text and "ZeroDivisionError" in text
    assert sys.excepthook is not log._excepthook and threading.excepthook is not log._thread_excepthook
