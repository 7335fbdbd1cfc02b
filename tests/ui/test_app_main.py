"""`eagle-chat` itself: the qasync event loop starts, the window loads the model, and closing the window
ends the process cleanly with exit status 0."""

import subprocess
import sys

SCRIPT = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
from eagle_chat import app as eagle_app

def close_when_ready():
    windows = [w for w in QApplication.topLevelWidgets() if w.objectName() == "mainWindow"]
    if windows and windows[0].controller.state == "ready":
        print("READY", flush=True)
        windows[0].close()
    else:
        QTimer.singleShot(50, close_when_ready)

QTimer.singleShot(50, close_when_ready)
sys.exit(eagle_app.main(sys.argv[1:]))
"""


def test_the_app_runs_its_event_loop_and_exits_cleanly_on_close(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "--home", str(tmp_path / "home")],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "READY" in done.stdout
    assert "QThread: Destroyed while thread" not in done.stderr
    assert (tmp_path / "home" / "config" / "settings.json").is_file()
