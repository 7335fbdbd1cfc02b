"""Command line: ``eagle-chat`` starts the app; every subcommand lives in :mod:`eagle_chat.commands`.

This module only dispatches. The GUI is the default so that the plain command a newcomer types opens the
window. Each command module is imported only when it runs, so ``eagle-chat bench`` never loads Qt.
"""

from __future__ import annotations

import importlib
import sys

from eagle_chat.commands import std_streams

# argv[0] -> the module under eagle_chat.commands whose main(argv) runs it
COMMANDS = {"bench": "bench", "models": "models", "serve": "serve", "conversations": "conversations",
            "docs": "docs", "tools": "tools", "--self-test": "self_test"}
SUBCOMMANDS = tuple(name for name in COMMANDS if not name.startswith("-"))


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the process's own command line: its streams are ours to fix
        std_streams.prepare()
    argv = list(sys.argv[1:] if argv is None else argv)
    name = COMMANDS.get(argv[0]) if argv else None
    if name is None:
        name, rest = "gui", argv
    else:
        rest = argv[1:]
    module = importlib.import_module(f"eagle_chat.commands.{name}")
    return module.main(rest)
