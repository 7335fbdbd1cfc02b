"""The standard streams every command prints to, made safe before any command runs.

- A windowed program (the Start-menu ``EagleChat.exe``, ``pythonw``) has none: Python sets ``sys.stdout`` and
  ``sys.stderr`` to None, and ``.write``/``.flush`` on them raise. They become the null device.
- Output redirected to a file or a pipe is encoded in the locale's code page (CP936 on Chinese Windows), and
  a character outside it (an emoji in a conversation title, a model's reply) raised UnicodeEncodeError and
  ended the command half-way. Redirected streams keep that code page — what the program reading them
  expects — but replace what it cannot hold. A console (a tty) is left alone: Windows' console takes UTF-16.
"""

from __future__ import annotations

import io
import os
import sys

UTF8_NAMES = {"utf-8", "utf8", "utf_8"}


def prepare() -> None:
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
            continue
        if not isinstance(stream, io.TextIOWrapper) or (stream.encoding or "").lower() in UTF8_NAMES:
            continue
        try:
            if not stream.isatty():
                stream.reconfigure(errors="replace")
        except (OSError, ValueError):  # a closed or odd stream: leave it as it is
            pass
