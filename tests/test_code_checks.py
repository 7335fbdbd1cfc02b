"""The code checks the test command runs: ruff over the whole tree, mypy over core and the engine runtime.

Their rules live in pyproject.toml ([tool.ruff], [tool.mypy]); both run with this interpreter, so the
versions are the ones the ``test`` extra pins.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)


def test_ruff_finds_nothing():
    result = _run("ruff", "check", "--no-cache", "eagle_chat", "tests", "tools", "benchmarks")
    assert result.returncode == 0, f"ruff check failed:\n{result.stdout}{result.stderr}"


def test_mypy_finds_nothing():
    """The files and settings are [tool.mypy]'s; its cache (.mypy_cache) makes a second run take seconds."""
    result = _run("mypy")
    assert result.returncode == 0, f"mypy failed:\n{result.stdout}{result.stderr}"
