"""What the screenshot tools share: pumping the event loop until something holds, letting paints settle,
and saving the screen's top-left corner before closing the window as a user does."""

from __future__ import annotations

import time
from pathlib import Path


def pump(app, until, timeout: float = 120.0) -> None:
    """Process events until ``until()`` holds (or ``timeout`` seconds pass)."""
    deadline = time.monotonic() + timeout
    while not until() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.002)


def open_ready_window(width: int = 1280, height: int = 720):
    """The app's main window at (0, 0, ``width``, ``height``), shown and with its model ready: (window, app)."""
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window

    window = create_main_window([])
    app = QApplication.instance()
    window.setGeometry(0, 0, width, height)
    window.show()
    pump(app, lambda: window.controller.state == "ready")
    return window, app


def settle(app, frames: int = 30) -> None:
    """Let queued paints and timers run for ``frames`` × 10 ms."""
    for _ in range(frames):
        app.processEvents()
        time.sleep(0.01)


def save_screen_and_close(window, app, out: Path, width: int = 1280, height: int = 720) -> int:
    """Save the screen's top-left ``width`` × ``height`` to ``out``, then close ``window`` and wait for it."""
    from PySide6.QtGui import QGuiApplication

    shot = QGuiApplication.primaryScreen().grabWindow(0)
    out.parent.mkdir(parents=True, exist_ok=True)
    shot.copy(0, 0, width, height).save(str(out))
    window.close()
    pump(app, lambda: window.closer.done, 60)
    print(f"saved {out} ({out.stat().st_size} bytes)")
    return 0
