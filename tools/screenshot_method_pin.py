"""Take docs/method-pin-1280x720.png: the window at 1280×720 with Speculation pinned to Prompt lookup, after one
reply — the next-reply line names the pin, the stats line and the speed chart's line the method the reply ran
with. The real window, grabbed from a real X server:

    Xvfb :77 -screen 0 1280x720x24 &  DISPLAY=:77 QT_QPA_PLATFORM=xcb .venv/bin/python tools/screenshot_method_pin.py docs/

Runs in a throw-away EAGLE_CHAT_HOME on the bundled tiny pair.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PASTED = "def parse_args(argv):\n    return argv[1:]\n\nShow parse_args again with a docstring."


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window

    window = create_main_window([])
    app = QApplication.instance()
    screen = QGuiApplication.primaryScreen().availableGeometry()
    window.setGeometry(screen)
    window.show()

    def pump(until, timeout=300.0):
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.005)
        for _ in range(20):
            app.processEvents()

    pump(lambda: window.controller.state == "ready")
    combo = window.options.speculation
    row = combo.findData("prompt_lookup")
    combo.setCurrentIndex(row)
    combo.activated.emit(row)  # as a click on the item does
    window.options.max_tokens.setValue(48)
    window.prompt.setPlainText(PASTED)
    finished = []
    window.controller.sig_reply_finished.connect(lambda *args: finished.append(args))
    window.send()
    pump(lambda: bool(finished))
    pump(lambda: False, 1.0)
    print(window.side.next_reply.text())
    print(window.stats_label.text())
    out.mkdir(parents=True, exist_ok=True)
    path = out / "method-pin-1280x720.png"
    shot = QGuiApplication.primaryScreen().grabWindow(0)
    shot.copy(window.frameGeometry()).save(str(path))
    print(f"saved {path} ({path.stat().st_size} bytes)")
    window.close()
    pump(lambda: window.closer.done, 60.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
