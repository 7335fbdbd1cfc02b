"""Fixture: ``hold_lock(path, mode)`` starts tests/lock_holder.py and returns a release() callable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HOLDER = Path(__file__).with_name("lock_holder.py")


@pytest.fixture
def hold_lock():
    holders = []

    def start(database: Path, mode: str = "write"):
        process = subprocess.Popen([sys.executable, str(HOLDER), str(database), mode], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True)
        holders.append(process)
        assert process.stdout.readline().strip() == "LOCKED"

        def release() -> None:
            if process.poll() is None:
                process.stdin.write("\n")
                process.stdin.flush()
                assert process.wait(timeout=30) == 0
        return release

    yield start
    for process in holders:
        if process.poll() is None:
            process.kill()
            process.wait()
