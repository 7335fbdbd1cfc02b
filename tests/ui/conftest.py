"""Fixtures the window's tests share."""

from __future__ import annotations

import asyncio

import pytest


@pytest.fixture
def qasync_loop(qapp):
    """qasync's asyncio loop on the test's Qt event loop, as app.main runs it (pytest-qt spins Qt)."""
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    loop._QEventLoop__is_running = False  # loop.stop() would call QApplication.exit()
    asyncio.events._set_running_loop(None)
    loop.close()
    asyncio.set_event_loop(None)
