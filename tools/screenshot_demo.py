"""Take the demo screenshots: the pre-flight panel after "Fix what can be fixed", and a finished full-screen
comparison on the speed-demo pair — the real window, grabbed from a real X server.

    xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python tools/screenshot_demo.py docs/

Runs in a throw-away EAGLE_CHAT_HOME from the bundled tiny pair, exactly as a presenter would: F11, fix,
add a prompt of their own, start the demo, run. Writes ``preflight.png`` and ``demo-comparison.png``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window

    window = create_main_window([])
    app = QApplication.instance()
    screen = QGuiApplication.primaryScreen().geometry()
    window.setGeometry(0, 0, screen.width(), screen.height())
    window.show()

    def pump(until, timeout=900.0):
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.005)
        for _ in range(20):
            app.processEvents()

    def grab(widget, path: Path) -> None:
        pump(lambda: False, 0.5)
        geometry = widget.frameGeometry()
        shot = QGuiApplication.primaryScreen().grabWindow(0)
        shot.copy(geometry).save(str(path))
        print(f"saved {path} ({path.stat().st_size} bytes)")

    pump(lambda: window.controller.state == "ready")
    panel = window.dialogs.open_preflight()
    panel.move(screen.width() // 2 - 480, 60)
    panel.resize(960, 480)
    panel.fix_all()
    pump(lambda: panel.status.text().startswith(("Everything", "Stopped")))
    panel.add_prompt("Write a Python class for a simple stack with push and pop.")
    panel.recheck()
    pump(lambda: not panel._cpu_timer.isActive())
    out.mkdir(parents=True, exist_ok=True)
    grab(panel, out / "preflight.png")

    window.options.max_tokens.setValue(256)
    panel.start_demo()
    view = window.dialogs.compare
    view.setGeometry(screen)  # full screen without a window manager to do it (Xvfb)
    finished = []
    view.sig_finished.connect(finished.append)
    view.run("Write quicksort in Python and explain its time complexity")
    pump(lambda: bool(finished))
    grab(view, out / "demo-comparison.png")
    print("\n".join(view.summary.text().splitlines()))
    view.close()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
