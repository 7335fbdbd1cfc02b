"""The engine host's main as a windowed Windows program runs it: no standard streams (sys.stdout and
sys.stderr are None in EagleChat.exe, pythonw.exe and the processes they spawn)."""

from __future__ import annotations

import sys

from eagle_chat.core.hosting import host_process


def run_without_std_streams(conn, stop_conn, log_path: str) -> None:
    sys.stdout = None
    sys.stderr = None
    host_process.run(conn, stop_conn, log_path)
