"""The line protocol between EagleChat and its worker processes (download, export check, verification).

A worker writes one JSON object per line on stdout, each with an ``event`` key; anything else it prints
(library logs, warnings) goes to stderr. The parent reads lines as they come and turns them into progress
for a terminal or a dialog. Keeping both halves here keeps them in step.
"""

from __future__ import annotations

import json
import sys
import threading

EVENTS = ("start", "progress", "verifying", "status", "done", "result", "error")


class Emitter:
    """Writes one JSON event per line; thread-safe (ModelScope reports progress from its threads)."""

    def __init__(self, stream=None):
        self._stream = stream or sys.stdout
        self._lock = threading.Lock()

    def __call__(self, event: str, **fields) -> None:
        line = json.dumps({"event": event, **fields})
        with self._lock:
            self._stream.write(line + "\n")
            self._stream.flush()


def parse_event(line: str | bytes) -> dict | None:
    """The event in one output line, or None if the line is not one (e.g. a stray print)."""
    if isinstance(line, bytes):
        line = line.decode("utf-8", errors="replace")
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except ValueError:
        return None
    return event if isinstance(event, dict) and event.get("event") in EVENTS else None
