"""How long closing takes when a reply or a load is running, in the real app process (eagle_chat.app.main).

    python benchmarks/close_time.py [--runs 3] [--deadline 10]

Uses the same scripted session as tests/system/test_closing.py: when the model is ready, start a long
reply (or a reload at f32, or a reload that never ends — a stand-in for a GPU/NPU compile OpenVINO will not
interrupt), close the window, and time from close() to the process's exit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.system.test_closing import SCRIPT  # noqa: E402


def once(what: str, deadline: float) -> float:
    home = Path(tempfile.mkdtemp(prefix="eagle-close-"))
    script = SCRIPT.replace("closing.CLOSE_DEADLINE_S = 3.0", f"closing.CLOSE_DEADLINE_S = {deadline}")
    child = subprocess.Popen([sys.executable, "-c", script, str(home / "home"), what], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"})
    closing_at = None
    for line in child.stdout:
        if line.startswith("CLOSING"):
            closing_at = time.monotonic()
    child.wait()
    return time.monotonic() - closing_at


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--deadline", type=float, default=10.0, help="CLOSE_DEADLINE_S for the stuck load")
    args = parser.parse_args()
    for what, label in (("reply", "during a reply"), ("load", "during a load (tiny pair, f32)"),
                        ("stuck-load", f"during a load that never ends (bound {args.deadline:.0f} s)")):
        times = [once(what, args.deadline) for _ in range(args.runs)]
        print(f"close {label:45} to process exit: median {statistics.median(times):5.2f} s, "
              f"worst {max(times):5.2f} s ({args.runs} runs)")


if __name__ == "__main__":
    main()
