"""A marker file that exists exactly while a reply is being generated, so a native crash is noticed.

OpenVINO runs in-process; a crash inside it (an abort on heap corruption, a segfault) kills the app with no
Python code running, so nothing can be saved or said at that moment. The marker is written when a
generation starts and removed when it ends (finished, failed or stopped, and on a normal close). If the
app starts and finds it, the last run died in the middle of a reply: the facts in it (which reply, whether
prefix caching was on) let the window say so and offer what might avoid a repeat. The partial reply
itself is already on disk: the store saves the reply in flight every second and marks it "interrupted"
on the next start.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from eagle_chat.core.files import retry_if_shared, write_json_atomic


class ReplyMarker:
    """``begin`` / ``end`` around each generation; ``take`` at start reads and clears a left-over one."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.active = False

    def begin(self, **facts) -> None:
        """A generation starts: write the marker with ``facts`` (conversation_id, message_id, prefix_cache…)."""
        try:
            write_json_atomic(self.path, {"started": time.time(), **facts}, durable=False)
            self.active = True
        except OSError:
            self.active = False  # a read-only data folder must not stop the reply

    def end(self) -> None:
        """The generation ended (any way but a crash): remove the marker."""
        if self.active:
            self.active = False
            try:
                retry_if_shared(self.path.unlink, missing_ok=True)
            except OSError:  # still held open: the next start reports a crash that was not one, nothing worse
                pass

    def take(self) -> dict | None:
        """The facts of a marker a previous run left behind (``{}`` if it is unreadable), and remove it;
        None when the last run ended cleanly."""
        if not self.path.exists():
            return None
        try:
            facts = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            facts = {}
        try:
            retry_if_shared(self.path.unlink, missing_ok=True)
        except OSError:  # held open by another program: the app must start all the same
            pass
        return facts if isinstance(facts, dict) else {}
