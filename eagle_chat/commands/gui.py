"""``eagle-chat [--model DIR] [--draft DIR] [--device D] [--home DIR]``: open the window."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    from eagle_chat import app

    return app.main(argv)
