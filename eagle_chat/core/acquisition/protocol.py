"""The line protocol between EagleChat and its worker processes (download, export check, verification).

A worker writes one JSON object per line on stdout, each with an ``event`` key; anything else it prints
(library logs, warnings) goes to stderr. The parent reads lines as they come and turns them into progress
for a terminal or a dialog. Keeping both halves here keeps them in step.

An ``error`` event carries the English ``message`` and, for a user error, its ``template`` and ``params``
(:func:`error_fields`), so the parent can rebuild the error (:func:`error_from_event`) and the window can show
it translated.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

from eagle_chat.core.errors import UserError

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


def error_fields(error: BaseException) -> dict[str, Any]:
    """The fields of an ``error`` event for ``error``: its English message, and for a user error its template
    and parameters (values JSON cannot carry are sent as their text)."""
    fields: dict[str, Any] = {"message": str(error)}
    if isinstance(error, UserError):
        fields["template"] = error.template
        fields["params"] = {k: v if isinstance(v, (str, int, float, bool)) or v is None else str(v)
                            for k, v in error.params.items()}
    return fields


def error_from_event(event: dict) -> UserError | str:
    """What an ``error`` event reported: the user error it carried, else its message as it stands."""
    template, params = event.get("template"), event.get("params")
    if isinstance(template, str) and isinstance(params, dict):
        return UserError.restore(template, params)
    return str(event.get("message", ""))
