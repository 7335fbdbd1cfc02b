"""``eagle-chat tools list|call`` run as a real command against the SDK-written test server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS_SERVER = str(Path(__file__).resolve().parents[1] / "mcp_servers" / "tools_server.py")
SECRET = "sk-cli-secret-777"


def run(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "eagle_chat", "tools", *args, "--home", str(home)],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def home(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "mcp.json").write_text(json.dumps({"mcpServers": {
        "local": {"command": sys.executable, "args": [TOOLS_SERVER], "env": {"API_KEY": SECRET},
                  "autoApprove": ["add"]},
        "broken": {"command": sys.executable, "args": [TOOLS_SERVER], "env": {"FAIL_AT_START": "1"}},
        "off": {"command": sys.executable, "args": [TOOLS_SERVER], "disabled": True},
    }}))
    return tmp_path


def test_list_json_gives_status_tools_and_schemas_without_secrets(home):
    done = run(home, "list", "--json")
    assert done.returncode == 1, done.stderr  # one server failed to start
    states = {s["name"]: s for s in json.loads(done.stdout)}
    assert states["local"]["status"] == "ready" and states["broken"]["status"] == "failed"
    assert states["off"]["status"] == "disabled" and states["off"]["tools"] == []
    add = next(t for t in states["local"]["tools"] if t["name"] == "add")
    assert add["input_schema"]["required"] == ["a", "b"]
    assert states["local"]["auto_approve"] == ["add"]
    assert SECRET not in done.stdout + done.stderr


def test_list_as_text(home):
    done = run(home, "list")
    assert "local  ready" in done.stdout and "broken  failed" in done.stdout
    assert "add: Add two integers.  (runs without asking)" in done.stdout


def test_call_prints_the_result_and_errors_exit_1(home):
    done = run(home, "call", "local", "add", '{"a": 20, "b": 22}')
    assert (done.returncode, done.stdout.strip()) == (0, "42"), done.stderr
    done = run(home, "call", "local", "add", '{"a": "x"}')
    assert done.returncode == 1 and done.stdout.startswith("Invalid arguments")
    assert run(home, "call", "local", "add", "{nope").returncode == 2
    assert run(home, "call", "nobody", "add", "{}").returncode == 2
