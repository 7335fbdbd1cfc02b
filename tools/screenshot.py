"""Take the README screenshot: the real window mid-conversation, grabbed from a real X server.

    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py docs/screenshot.png

Runs on the bundled tiny pair in a throw-away EAGLE_CHAT_HOME: one EAGLE-3 reply, one baseline reply,
then grabs the screen while a third reply streams.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshot.png")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window

    window = create_main_window([])
    app = QApplication.instance()
    window.setGeometry(0, 0, 1440, 900)
    window.show()

    def pump(until, timeout=120.0):
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.002)

    pump(lambda: window.controller.state == "ready")
    done = []
    window.controller.sig_reply_finished.connect(lambda m, r: done.append(r))
    window.options.max_tokens.setValue(160)
    for prompt, speculative in [("Write a Python function that reverses a string.", True),
                                ("Write a Python function that reverses a string.", False)]:
        window.model_bar.draft_toggle.setChecked(speculative)
        window.prompt.setPlainText(prompt)
        window.send()
        pump(lambda n=len(done): len(done) > n)
    window.model_bar.draft_toggle.setChecked(True)
    window.options.max_tokens.setValue(2000)
    window.prompt.setPlainText("Write quicksort in Python and explain its time complexity.")
    window.send()
    pump(lambda: window.controller.reply is not None and window.controller.reply.tokens > 120, 30)
    for _ in range(5):
        app.processEvents()
    shot = QGuiApplication.primaryScreen().grabWindow(0)
    out.parent.mkdir(parents=True, exist_ok=True)
    shot.copy(0, 0, 1440, 900).save(str(out))
    window.controller.stop()
    window.close()
    print(f"saved {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
