"""Closing during a load or a reply: the window says "Closing after …", the process ends within a bound,
and nothing is left running."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

from tests.gui import LOAD_TIMEOUT_MS

ROOT = Path(__file__).resolve().parents[2]

# Runs eagle_chat.app.main() (the real event loop, with the hard-exit bound armed). When the model is
# ready it starts what argv[2] names, closes the window and prints what the window said and when.
SCRIPT = """
import os, sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
import eagle_chat.ui.shell.closing as closing
from eagle_chat import app as eagle_app
closing.CLOSE_DEADLINE_S = 3.0
what = sys.argv[2]

def when_ready():
    windows = [w for w in QApplication.topLevelWidgets() if w.objectName() == "mainWindow"]
    if not windows or windows[0].controller.state != "ready":
        QTimer.singleShot(50, when_ready)
        return
    window = windows[0]
    if what == "reply":
        window.options.max_tokens.setValue(8000)
        window.prompt.setPlainText("Write a long story about parsers.")
        window.send()
        QTimer.singleShot(300, lambda: close(window))
    else:
        window.set_precision("f32")
        close(window)

def close(window):
    print("CLOSING", time.monotonic(), flush=True)
    window.close()
    print("SAID", window.notice.text(), flush=True)

QTimer.singleShot(50, when_ready)
code = eagle_app.main(["--home", sys.argv[1]])
print("EXITED", time.monotonic(), flush=True)
sys.exit(code)
"""


def run(tmp_path, what: str) -> tuple[float, str, int]:
    child = subprocess.Popen([sys.executable, "-c", SCRIPT, str(tmp_path / "home"), what],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    closing_at, said = None, ""
    for line in child.stdout:
        if line.startswith("CLOSING"):
            closing_at = time.monotonic()
        if line.startswith("SAID"):
            said = line[5:].strip()
    code = child.wait(timeout=LOAD_TIMEOUT_MS / 1000 * 3)
    assert closing_at is not None, said
    elapsed = time.monotonic() - closing_at
    # Nothing of the app's process group outlives it. A zombie has ended: multiprocessing's resource tracker
    # (started with the engine host) ends with the app, and this container's init does not reap orphans.
    # The app's exit closes the pipes they read, so they end within moments of it, not at once.
    left = [p for p in psutil.process_iter(["status"]) if _group(p) == child.pid
            and p.info["status"] != psutil.STATUS_ZOMBIE]
    _gone, alive = psutil.wait_procs(left, timeout=3)
    alive = [p for p in alive if _status(p) not in (None, psutil.STATUS_ZOMBIE)]
    assert not alive, f"a child process outlived the app: {[(p, _cmdline(p)) for p in alive]}"
    return elapsed, said, code


def _status(process) -> str | None:
    try:
        return process.status()
    except psutil.NoSuchProcess:
        return None


def _cmdline(process) -> str:
    try:
        return " ".join(process.cmdline())[:200]
    except psutil.Error:
        return "?"


def _group(process) -> int | None:
    try:
        return os.getpgid(process.pid)
    except (ProcessLookupError, psutil.NoSuchProcess):
        return None


def test_close_during_a_reply_ends_the_process_quickly(tmp_path):
    elapsed, said, code = run(tmp_path, "reply")
    assert code == 0 and said == "Closing after the reply stops (at most 3 s)…"
    assert elapsed < 10, elapsed  # stop is seen within a decoding step; measured ~0.1-0.3 s


def test_close_during_a_load_ends_its_engine_host_and_exits(tmp_path):
    elapsed, said, code = run(tmp_path, "load")
    assert code == 0 and not said.startswith("Closing after")  # nothing to wait for: the load is cancelled
    assert elapsed < 10, elapsed  # measured ~1 s, most of it the interpreter's exit


def test_close_during_a_load_returns_in_under_a_second(qtbot, open_window):
    window = open_window()
    window.show()
    with qtbot.waitSignal(window.controller.sig_state, check_params_cb=lambda state: state == "loading"):
        assert window.set_precision("f32")
    started = time.monotonic()
    with qtbot.waitSignal(window.closer.sig_closed, timeout=1000):
        window.close()
    assert time.monotonic() - started < 1.0
    assert not window.isVisible() and not window.controller.engine.is_running()
    hosts = [p for p in multiprocessing.active_children() if p.name == "EagleChat engine"]
    assert not hosts  # the compile it ran is gone with its process
    assert window.settings.precision != "f32"  # the cancelled load was not committed


def test_closing_the_window_during_a_download_ends_its_process(qtbot, open_window, tiny_catalog, fake_hub):
    fake_hub.throttle_bps = 100_000
    window = open_window()
    window.show()
    dialog = window.dialogs.open_get_models()
    dialog.select_entry("tiny")
    dialog.endpoint_edit.setText(fake_hub.url)
    assert dialog.start_download()
    qtbot.waitUntil(lambda: dialog.runner._process is not None and dialog.runner._process.processId() > 0,
                    timeout=LOAD_TIMEOUT_MS)
    pid = dialog.runner._process.processId()
    window.close()
    qtbot.waitUntil(lambda: window.closer.done, timeout=LOAD_TIMEOUT_MS)
    assert not dialog.runner.running
    try:
        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive, "the download's process outlived the window"


# Leaves without closing the window: a reply streams, the next-turn prefill or a search may be running.
EXIT_SCRIPT = """
import sys, time
from PySide6.QtWidgets import QApplication
from eagle_chat.app import create_main_window
window = create_main_window(["--home", sys.argv[1]])
app = QApplication.instance()
def until(condition):  # as long as it takes (a load under heavy load: minutes); the caller's timeout bounds it
    while not condition():
        app.processEvents()
        time.sleep(0.005)
until(lambda: window.controller.state in ("ready", "empty"))
assert window.controller.state == "ready", window.notice.text()
window.search.request("parsers")
until(lambda: window.search.searches > 0)
texts = []
window.controller.sig_reply_text.connect(lambda message, text: texts.append(message))
window.options.max_tokens.setValue(8000)
window.prompt.setPlainText("Write a long story about parsers.")
window.send()
until(lambda: bool(texts))
print("LEAVING", window.controller.engine.is_running(), window.search._thread.isRunning(), flush=True)
sys.exit(0)
"""


def test_a_process_that_ends_while_threads_still_run_exits_cleanly(eagle_home):
    """Qt aborts a process that destroys a running QThread: leaving mid-reply (and with the search thread
    up) without closing the window must still exit 0, with the reply saved as stopped, not end in SIGABRT."""
    from eagle_chat import paths
    from eagle_chat.core.storage.store import ConversationStore

    done = subprocess.run([sys.executable, "-c", EXIT_SCRIPT, str(eagle_home)], capture_output=True, text=True,
                          timeout=LOAD_TIMEOUT_MS / 1000 * 3, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "LEAVING True True" in done.stdout, done.stdout + done.stderr
    log = paths.log_file().read_text(encoding="utf-8")
    assert done.returncode == 0, done.stderr[-3000:] + log[-3000:]
    assert "Destroyed while thread" not in log + done.stderr
    assert "still runs: ending it first" in log  # ended at exit by their owners, not left to Qt
    store = ConversationStore(paths.database_file())
    try:
        reply = store.load_conversation(store.list_conversations()[0].id).messages[-1]
    finally:
        store.close()
    assert reply.role == "assistant" and reply.status == "stopped" and reply.content  # nothing lost
