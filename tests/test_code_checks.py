"""The code checks the test command runs: ruff over the whole tree, mypy over core and the engine runtime,
and mypy for Windows and macOS over the whole package (names a platform lacks).

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


# The platforms EagleChat's users run besides Linux. Windows 11 is the main one.
OTHER_PLATFORMS = ("win32", "darwin")


def _mypy_errors(*platforms: str) -> dict[str, set[str]]:
    """mypy's error lines over the whole package as if it ran on each platform (pyproject's settings, its
    file list widened to all of eagle_chat), the runs side by side. One cache folder per platform under
    .mypy_cache: the platform is part of mypy's cache key, so a shared folder would be rewritten by each run."""
    runs = {platform: subprocess.Popen(
        [sys.executable, "-m", "mypy", "--platform", platform, "--no-error-summary", "--hide-error-context",
         "--cache-dir", str(ROOT / ".mypy_cache" / f"platform-{platform}"), "eagle_chat"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for platform in platforms}
    errors = {}
    for platform, run in runs.items():
        out, err = run.communicate(timeout=300)
        assert run.returncode in (0, 1), f"mypy --platform {platform} did not run:\n{out}{err}"
        errors[platform] = {line for line in out.splitlines() if ": error: " in line}
    return errors


def test_no_posix_only_names_anywhere_in_the_package():
    """A name Windows or macOS lack (signal.SIGKILL, os.killpg, os.getloadavg, os.sysconf, a Connection
    where Windows returns a PipeConnection…) is an error mypy reports for that platform only: the errors on
    win32 or darwin that Linux does not have. Whole package, UI included: one such name evaluated at import
    time (worker.py's signal.SIGKILL) kept the window and `eagle-chat serve` from starting on Windows.
    Guard such code with ``if sys.platform == "win32":`` (the form mypy understands; os.name is not)."""
    errors = _mypy_errors("linux", *OTHER_PLATFORMS)
    only_there = {platform: sorted(errors[platform] - errors["linux"]) for platform in OTHER_PLATFORMS}
    assert only_there == {platform: [] for platform in OTHER_PLATFORMS}, only_there
