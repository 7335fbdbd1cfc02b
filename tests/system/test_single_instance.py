"""One EagleChat per home: a second launch hands its command line to the first and writes nothing; a lock
left by a crashed instance is taken over."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from eagle_chat import paths
from tests.gui import LOAD_TIMEOUT_MS

ROOT = Path(__file__).resolve().parents[2]


def files(home: Path) -> dict[Path, tuple[int, int]]:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in home.rglob("*") if p.is_file()}


def launch(home: Path, *argv: str, cwd: Path | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "eagle_chat", "--home", str(home), *argv],
                            cwd=cwd or ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_second_launch_hands_over_and_writes_nothing(qtbot, open_window, eagle_home, tiny_pair, tmp_path):
    window = open_window()
    handed = []
    window.instance_guard.sig_activated.connect(handed.append)
    window.binder.flush()
    window.app_log.flush()
    before = files(eagle_home)
    second = launch(eagle_home)
    qtbot.waitUntil(lambda: second.poll() is not None, timeout=LOAD_TIMEOUT_MS)
    output = second.communicate()[0]
    assert second.returncode == 0, output
    assert "already running" in output and handed == [[]]
    window.app_log.flush()
    after = files(eagle_home)
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert changed <= {paths.log_file()}, changed  # only the first instance's log line
    assert f" {second.pid} " not in paths.log_file().read_text(encoding="utf-8")  # none by the second
    assert len([w for w in qtbot_widgets() if w.objectName() == "mainWindow" and w.isVisible()]) <= 1

    # Relative folders on the second command line are the second's: the first gets them absolute.
    shutil.copytree(tiny_pair[0], tmp_path / "t")
    shutil.copytree(tiny_pair[1], tmp_path / "d")
    with qtbot.waitSignal(window.loads.sig_committed, timeout=LOAD_TIMEOUT_MS * 2):
        third = launch(eagle_home, "--model", "t", "--draft", "d", cwd=tmp_path)
    assert third.wait(timeout=60) == 0
    assert handed[-1] == ["--model", str(tmp_path / "t"), "--draft", str(tmp_path / "d")]
    assert window.controller.loaded.spec.target_dir == tmp_path / "t"
    assert window.settings.target_dir == str(tmp_path / "t")


def qtbot_widgets():
    from PySide6.QtWidgets import QApplication

    return QApplication.topLevelWidgets()


def hold_the_lock() -> subprocess.Popen:
    """Another process holding this home's instance lock, answering no one (an instance busy closing)."""
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\nfrom PySide6.QtCore import QLockFile\n"
         "lock = QLockFile(sys.argv[1]); lock.setStaleLockTime(0)\n"
         "assert lock.tryLock(0); print('LOCKED', flush=True); time.sleep(600)",
         str(paths.data_dir() / "eaglechat.lock")],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "LOCKED"
    return holder


def test_a_relaunch_that_cannot_hand_over_says_so_in_a_message_box(qtbot, eagle_home, monkeypatch, capsys):
    """Started from a desktop icon there is no terminal: a launch that only wrote to stderr showed nothing."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from eagle_chat import app as eagle_app
    from eagle_chat.ui.shell import single_instance

    monkeypatch.setattr(single_instance, "CLOSING_WAIT_MS", 300)
    monkeypatch.setattr(single_instance, "HEADLESS_PLATFORMS", ())  # offscreen here; a desktop in real life
    holder = hold_the_lock()
    shown = []

    def read_the_box():  # as the user does: read it, press OK
        boxes = [w for w in QApplication.topLevelWidgets()
                 if isinstance(w, QMessageBox) and w.objectName() == "instanceNotAnsweringBox" and w.isVisible()]
        if not boxes:
            QTimer.singleShot(20, read_the_box)
            return
        shown.append((boxes[0].windowTitle(), boxes[0].text(), boxes[0].icon()))
        boxes[0].accept()

    QTimer.singleShot(0, read_the_box)
    before = files(eagle_home)
    try:
        code = eagle_app.main([])
    finally:
        holder.kill()
        holder.wait()
    assert code == 1 and len(shown) == 1
    title, text, icon = shown[0]
    assert title == "EagleChat" and icon == QMessageBox.Icon.Warning
    assert "does not answer" in text and "Wait a moment" in text and str(paths.data_dir()) in text
    assert text in capsys.readouterr().err  # and on stderr, for a terminal
    assert files(eagle_home) == before  # it wrote nothing


def test_a_lock_left_by_a_crashed_instance_is_taken_over(qtbot, open_window, eagle_home):
    holder = hold_the_lock()
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert (paths.data_dir() / "eaglechat.lock").exists()  # left behind, naming a process that is gone
    window = open_window()
    assert window.controller.state == "ready"
