"""``eagle-chat --self-test`` on the source tree: the checks an installed bundle runs on itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from eagle_chat import paths
from eagle_chat.commands.self_test import FAILED, PASSED
from eagle_chat.commands.self_test import main as run_self_test

ROOT = Path(__file__).resolve().parents[2]


def test_engine_checks_pass_in_process(tiny_pair, eagle_home):
    lines: list[str] = []
    assert run_self_test(["--no-gui"], out=lines.append) == 0, "\n".join(lines)
    report = "\n".join(lines)
    assert lines[-1] == PASSED
    assert "OpenVINO 2026.4" in report
    assert "[ok] speculative reply equals the baseline reply" in report
    assert "[ok] the EAGLE-3 draft had tokens accepted" in report
    assert "tokens/s" in report and "draft tokens accepted" in report
    assert os.environ["EAGLE_CHAT_HOME"] == str(eagle_home), "the self-test must restore EAGLE_CHAT_HOME"
    assert not any(eagle_home.iterdir()), "the self-test must use its own temporary home"


def test_failure_is_reported_not_raised(tiny_pair, monkeypatch):
    monkeypatch.setattr(paths, "tiny_draft_dir", lambda: tiny_pair[1].parent / "no-such-draft")
    lines: list[str] = []
    assert run_self_test(["--no-gui"], out=lines.append) == 1
    assert lines[-1].startswith(FAILED)
    assert "no-such-draft" in "\n".join(lines)


@pytest.mark.slow
def test_command_line_self_test_with_window(tiny_pair, tmp_path):
    """`python -m eagle_chat --self-test`, main window included, in a fresh process with its own HOME."""
    env = {k: v for k, v in os.environ.items() if k != paths.HOME_ENV}
    env.update(HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "--self-test"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert PASSED in proc.stdout
    assert "[ok] the main window loaded the tiny pair" in proc.stdout
    assert not (tmp_path / "intel").exists(), "importing openvino wrote telemetry ids into HOME"
