"""Polling outside Qt's event loop: a server, a child process, a file. Inside Qt, use ``qtbot.waitUntil`` or
``qtbot.waitSignal`` (they keep the event loop turning)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float = 60.0, interval: float = 0.02) -> T:
    """Until ``condition()`` is truthy, which is returned; ``timeout`` seconds is a generous bound against a
    hang, not a guess at how long it takes."""
    deadline = time.monotonic() + timeout
    while not (result := condition()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(interval)
    return result
