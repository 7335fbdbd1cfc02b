"""What the screen-fit probes share (tests/ui/test_screen_fit.py, test_presenter_fit.py): they run as child
processes on a screen of a given size and import this, so it needs Qt only — no pytest, no fixtures."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QRect


def pump(app, until=lambda: False, seconds: float | None = 0.3) -> None:
    """Process events until ``until()`` holds; for ``seconds`` at most, or (None) as long as it takes: a load
    or a close ends by itself, however loaded the machine; the caller's subprocess timeout bounds a hang."""
    deadline = None if seconds is None else time.monotonic() + seconds
    while not until() and (deadline is None or time.monotonic() < deadline):
        app.processEvents()
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)  # what the event loop does between events
        time.sleep(0.005)


def outside(widget, name: str, area: QRect) -> list[str]:
    """``[]`` if ``widget`` lies inside ``area`` and its parents show it whole, else what is wrong."""
    rect = QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())
    shown, parent = rect, widget.parentWidget()
    while parent is not None:  # what its parents leave of it (a squeezed layout cuts a child off)
        shown = shown.intersected(QRect(parent.mapToGlobal(parent.rect().topLeft()), parent.size()))
        parent = parent.parentWidget()
    whole = shown == rect and not rect.isEmpty()
    return [] if area.contains(rect) and whole else [f"{name} at {rect.getRect()} (shown whole: {whole})"]
