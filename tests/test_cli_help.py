"""``eagle-chat --help`` names every subcommand the dispatcher knows (cli.COMMANDS; the help cannot import the
entry side, so this test keeps the two together), and --self-test (it left out tools and
--self-test, so a user could not find them from the command line)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from eagle_chat.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]


def test_help_lists_every_command():
    result = subprocess.run([sys.executable, "-m", "eagle_chat", "--help"], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    missing = [name for name in COMMANDS if name not in text]
    assert not missing, (missing, text)
