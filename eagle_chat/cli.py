"""Command line: ``eagle-chat`` starts the app; every subcommand lives in :mod:`eagle_chat.commands`.

This module only dispatches. The GUI is the default so that the plain command a newcomer types opens the
window. ``--home DIR`` may come before any command. Each command module is imported only when it runs, so
``eagle-chat bench`` never loads Qt.
"""

from __future__ import annotations

import importlib
import sys

from eagle_chat.commands import std_streams
from eagle_chat.paths import set_home, split_leading_home

# argv[0] -> the module under eagle_chat.commands whose main(argv) runs it
COMMANDS = {"bench": "bench", "models": "models", "serve": "serve", "conversations": "conversations",
            "docs": "docs", "tools": "tools", "--self-test": "self_test"}
SUBCOMMANDS = tuple(name for name in COMMANDS if not name.startswith("-"))


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the process's own command line: its streams are ours to fix
        std_streams.prepare()
    argv = list(sys.argv[1:] if argv is None else argv)
    home, after_home = split_leading_home(argv)
    name = COMMANDS.get(after_home[0]) if after_home else None
    if name is None:
        name, rest = "gui", argv  # the window's own parser takes --home anywhere
    else:
        if home:  # --home before the command: for every command, the same as after it
            set_home(home)
        rest = after_home[1:]
    module = importlib.import_module(f"eagle_chat.commands.{name}")
    return module.main(rest)
