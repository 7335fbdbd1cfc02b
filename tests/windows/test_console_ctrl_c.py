"""Ctrl+C in a console reaches every process attached to it — on Windows every process sharing the console,
on Linux the terminal's foreground process group: `serve` and its engine host alike. The stop must stay
serve's graceful one, not turn into an engine crash."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import httpx
import pytest

from tests.conftest import TINY_DRAFT, TINY_TARGET
from tests.serving.served import ROOT, _wait_for_url


@pytest.mark.posix_only  # os.killpg: the group delivery a terminal does (Windows: CTRL_C_EVENT to the console)
def test_ctrl_c_to_the_whole_process_group_stops_serve_gracefully(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    log_path = home / "serve.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT), EAGLE_CHAT_HOME=str(home))
    env.pop("EAGLE_CHAT_API_KEY", None)
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "eagle_chat", "serve", "--model", str(TINY_TARGET), "--draft", str(TINY_DRAFT),
             "--precision", "f32", "--port", "0", "--home", str(home)],
            stdout=subprocess.PIPE, stderr=log, text=True, env=env, cwd=ROOT, start_new_session=True)
    try:
        url = _wait_for_url(process, log_path)
        body = {"model": TINY_TARGET.name, "max_tokens": 400, "stream": True, "temperature": 0,
                "messages": [{"role": "user", "content": "Tell me a long story."}]}
        with httpx.stream("POST", f"{url}/chat/completions", json=body, timeout=120) as reply:
            assert reply.status_code == 200
            lines = reply.iter_lines()
            seen = [next(lines) for _ in range(3)]  # the reply is under way in the engine host …
            os.killpg(process.pid, signal.SIGINT)  # … when the console's Ctrl+C reaches server and host at once
            seen += list(lines)
        text = "\n".join(seen)
        assert "data: [DONE]" in text and "error" not in text, text[-2000:]  # the reply in flight was answered
        code = process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
    log = log_path.read_text(encoding="utf-8", errors="replace")
    assert code == 0, log[-3000:]
    assert "Stopping: answering the requests in flight" in log
    assert "crash" not in log.lower() and "Traceback" not in log, log[-3000:]
