"""Shared bits of the benchmark scripts (not tests: they print figures, they assert nothing)."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROMPTS = [
    line.strip() for line in (ROOT / "tests" / "prompts.txt").read_text(encoding="utf-8").splitlines() if line.strip()
]


def private_home() -> Path:
    """Benchmarks never touch the user's folders."""
    home = Path(tempfile.mkdtemp(prefix="eagle-bench-home-"))
    os.environ["EAGLE_CHAT_HOME"] = str(home)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return home


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def os_threads() -> int:
    return len(os.listdir("/proc/self/task"))


def median(values) -> float:
    values = list(values)
    return statistics.median(values) if values else float("nan")
