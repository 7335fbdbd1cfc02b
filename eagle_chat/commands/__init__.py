"""The entry side: one module per command, each with ``main(argv) -> int``; :mod:`eagle_chat.cli` dispatches.

Commands may import :mod:`eagle_chat.app` (the composition root) and the core; nothing outside this package
imports a command module.
"""
