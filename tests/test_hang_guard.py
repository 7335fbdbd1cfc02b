"""The suite's hang guard works: a hung test ends a pytest run quickly, printing every thread's stack —
with pytest-timeout's watchdog, and with faulthandler's when the hang holds the GIL (the deadlock on
record). Runs the project's own configuration (pyproject.toml, tests/hang_guard.py) on tests that hang on
purpose, in a child pytest with a 2-second timeout."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HANGING = '''
import ctypes
import threading


def test_waits_forever():
    helper = threading.Thread(target=threading.Event().wait, name="helper-that-waits", daemon=True)
    helper.start()
    threading.Event().wait()


def test_holds_the_gil():
    ctypes.PyDLL(None).sleep(600)  # a C call made with the GIL held: no Python thread can run
'''


def run_hanging(tmp_path: Path, name: str) -> tuple[subprocess.CompletedProcess, float]:
    (tmp_path / "test_hanging.py").write_text(HANGING, encoding="utf-8")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
         "-p", "tests.hang_guard", "-p", "no:cacheprovider", "-o", "timeout=2", "-q",
         f"{tmp_path / 'test_hanging.py'}::{name}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return done, time.monotonic() - started


def test_a_hung_test_ends_the_run_with_every_threads_stack(tmp_path):
    done, elapsed = run_hanging(tmp_path, "test_waits_forever")
    output = done.stdout + done.stderr
    assert done.returncode != 0 and elapsed < 60, output
    assert "Timeout" in output
    assert 'test_hanging.py", line 9, in test_waits_forever' in output  # the hung test's own line
    assert "helper-that-waits" in output  # and every other thread's stack


def test_a_hang_holding_the_gil_ends_the_run_with_every_threads_stack(tmp_path):
    done, elapsed = run_hanging(tmp_path, "test_holds_the_gil")
    output = done.stdout + done.stderr
    assert done.returncode != 0 and elapsed < 60, output
    assert "Timeout" in output  # faulthandler's "Timeout (0:00:03)!": pytest-timeout's thread could not run
    assert 'test_hanging.py", line 13 in test_holds_the_gil' in output
    assert output.count("Thread 0x") >= 2  # every thread, pytest-timeout's stuck watchdog included


def test_this_suite_runs_guarded(request):
    from tests.hang_guard import timeout_of

    assert timeout_of(request.node) > 0  # pyproject's default reaches every test (none opts out)
