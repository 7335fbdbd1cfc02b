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


def ready_window(argv: list[str]):
    """The app's main window, shown, once its model is loaded: (window, app); exits with the window's notice
    when there is no model to load."""
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window

    window = create_main_window(argv)
    window.show()
    app = QApplication.instance()
    while window.controller.state != "ready":
        app.processEvents()
        if window.controller.state == "empty":
            raise SystemExit(window.notice.text())
    return window, app


def rss_mb(pid: int | str = "self") -> float:
    """A process's resident memory (VmRSS) in MB: this one's by default; NaN if it is gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return float("nan")
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def os_threads() -> int:
    return len(os.listdir("/proc/self/task"))


def median(values) -> float:
    values = list(values)
    return statistics.median(values) if values else float("nan")


def start_serve(args: list[str], home: Path, *, python: str = sys.executable, env: dict | None = None,
                timeout_s: float = 300.0):
    """Start ``eagle-chat serve ARGS --port 0 --home HOME`` as a child process (its log in HOME/serve.log)
    and wait for the address it prints: (the process, its base URL ``http://127.0.0.1:PORT/v1``)."""
    import re
    import selectors
    import subprocess
    import time

    home.mkdir(parents=True, exist_ok=True)
    command = [python, "-m", "eagle_chat", "serve", *args, "--port", "0", "--home", str(home)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=open(home / "serve.log", "w"), text=True,
                               env=dict(os.environ, PYTHONPATH=str(ROOT), **(env or {})), cwd=ROOT)
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and process.poll() is None:
        if selector.select(timeout=0.5):
            match = re.search(r"(http://127\.0\.0\.1:\d+/v1)", process.stdout.readline())
            if match:
                return process, match.group(1)
    process.kill()
    raise SystemExit(f"serve did not start:\n{(home / 'serve.log').read_text()[-2000:]}")
