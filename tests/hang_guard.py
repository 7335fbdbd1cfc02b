"""A hung test must end the run with every thread's stack, not eat CI's 90 minutes (a pytest plugin).

pytest-timeout does most of it (pyproject: ``timeout``, ``timeout_method = "thread"``): past a test's
timeout its watchdog thread prints every thread's stack and ends the run. But that watchdog is a Python
thread, so it needs the GIL — and the hang on record (30 minutes in test_single_instance) was a GIL
deadlock: the GUI thread held the GIL waiting for a Qt mutex in ``QObject::connectImpl`` while a
GenerationThread held that mutex waiting for the GIL in ``Sbk_GetPyOverride``. So each test also arms
faulthandler's watchdog, a C thread that needs no GIL, a little after pytest-timeout's: if pytest-timeout
could not act, it dumps every thread's Python stack to the real stderr and exits the process with status 1.
"""

from __future__ import annotations

import faulthandler
import sys

import pytest

BACKSTOP_GRACE = 0.1  # of the test's timeout (at least 1 s, at most 60 s): pytest-timeout acts first


def timeout_of(item: pytest.Item) -> float:
    """The timeout pytest-timeout applies to ``item`` (0: none): its marker, else --timeout or the ini."""
    marker = item.get_closest_marker("timeout")
    if marker is not None and (marker.args or "timeout" in marker.kwargs):
        return float(marker.args[0] if marker.args else marker.kwargs["timeout"])
    option = item.config.getoption("timeout", None)
    value = option if option is not None else item.config.getini("timeout")
    return float(value or 0)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    seconds = timeout_of(item)
    if seconds > 0:
        grace = min(60.0, max(1.0, seconds * BACKSTOP_GRACE))
        faulthandler.dump_traceback_later(seconds + grace, exit=True, file=_real_stderr(item.config))
    try:
        yield
    finally:
        if seconds > 0:
            faulthandler.cancel_dump_traceback_later()


def _real_stderr(config: pytest.Config):
    """The terminal's stderr, not the file pytest captures a test's output into (lost when we exit)."""
    try:
        from _pytest.faulthandler import fault_handler_stderr_fd_key  # what pytest's own crash dumps use

        return config.stash[fault_handler_stderr_fd_key]
    except (ImportError, KeyError):
        return sys.__stderr__
