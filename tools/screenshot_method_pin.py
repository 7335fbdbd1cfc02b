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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
import shot_kit  # noqa: E402 - beside this script (tools/)

PASTED = "def parse_args(argv):\n    return argv[1:]\n\nShow parse_args again with a docstring."


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    window, app = shot_kit.open_ready_window()
    combo = window.options.speculation
    row = combo.findData("prompt_lookup")
    combo.setCurrentIndex(row)
    combo.activated.emit(row)  # as a click on the item does
    window.options.max_tokens.setValue(48)
    window.prompt.setPlainText(PASTED)
    finished = []
    window.controller.sig_reply_finished.connect(lambda *args: finished.append(args))
    window.send()
    shot_kit.pump(app, lambda: bool(finished), 300)
    shot_kit.settle(app, 100)
    print(window.side.next_reply.text())
    print(window.stats_label.text())
    return shot_kit.save_screen_and_close(window, app, out / "method-pin-1280x720.png")


if __name__ == "__main__":
    raise SystemExit(main())
