"""`eagle-chat serve` in a subprocess on the tiny pair, bound to 127.0.0.1 on a free port."""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import TINY_DRAFT, TINY_TARGET

ROOT = Path(__file__).resolve().parents[2]
API_KEY = "test-key-3b1f"
START_TIMEOUT_S = 180
URL_LINE = re.compile(r"EagleChat API on (http://127\.0\.0\.1:\d+/v1)")


@dataclass
class Served:
    url: str
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def records(self) -> list[str]:
        return [line for line in self.log().splitlines() if line.startswith("#")]


@contextmanager
def serve(home: Path, *extra: str, draft: bool = True, api_key: str | None = API_KEY, model: Path = TINY_TARGET):
    """Start the server, yield it once it listens, stop it with SIGINT and check it exits cleanly."""
    args = [sys.executable, "-m", "eagle_chat", "serve", "--model", str(model), "--precision", "f32",
            "--port", "0", "--home", str(home), *extra]
    if draft:
        args += ["--draft", str(TINY_DRAFT)]
    env = dict(os.environ, PYTHONPATH=str(ROOT), EAGLE_CHAT_HOME=str(home))
    env.pop("EAGLE_CHAT_API_KEY", None)
    if api_key:
        env["EAGLE_CHAT_API_KEY"] = api_key
    home.mkdir(parents=True, exist_ok=True)
    log_path = home / "serve.log"
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True, env=env, cwd=ROOT)
    try:
        url = _wait_for_url(process, log_path)
        yield Served(url, process, log_path)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stdout.close()


def stop(served: Served, timeout: float = 60) -> int:
    served.process.send_signal(signal.SIGINT)
    return served.process.wait(timeout=timeout)


def _wait_for_url(process: subprocess.Popen, log_path: Path) -> str:
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + START_TIMEOUT_S
    seen = []
    while time.monotonic() < deadline:
        if not selector.select(timeout=0.5):
            if process.poll() is not None:
                break
            continue
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        seen.append(line)
        match = URL_LINE.search(line)
        if match:
            return match.group(1)
    raise AssertionError(f"serve did not start: {''.join(seen)}\n{log_path.read_text(errors='replace')[-3000:]}")


def run_serve(home: Path, *args: str, timeout: float) -> subprocess.CompletedProcess:
    """`eagle-chat serve ARGS` that is expected to end by itself: its exit code, stdout and stderr. ``timeout``
    bounds it, so a serve that hangs fails the test (subprocess.TimeoutExpired) instead of hanging it."""
    return subprocess.run([sys.executable, "-m", "eagle_chat", "serve", "--port", "0", "--home", str(home), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
