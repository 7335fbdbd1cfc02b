"""Take the screenshot of the words-only notice with its one-click embedder button, after files were attached
with no embedding model installed, grabbed from a real X server:

    LANG=zh_CN.UTF-8 xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python tools/screenshot_embedder_offer.py \
        docs/documents-embedder-offer-zh.png

Runs on the bundled tiny pair in a throw-away EAGLE_CHAT_HOME with no embedder (EAGLE_CHAT_EMBEDDER unset).
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


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/documents-embedder-offer-zh.png")
    home = Path(tempfile.mkdtemp(prefix="eagle-shot-"))
    os.environ["EAGLE_CHAT_HOME"] = str(home)
    os.environ.pop("EAGLE_CHAT_EMBEDDER", None)  # what a new user has
    from tests.documents.chinese_library import chinese_library

    folder = chinese_library(home / "资料")
    window, app = shot_kit.open_ready_window()
    done = []
    window.documents.runner.sig_finished.connect(lambda *args: done.append(args))
    window.documents.attach(sorted(folder.iterdir()))
    shot_kit.pump(app, lambda: bool(done))
    shot_kit.settle(app, 50)
    button = window.notice.action_button
    assert button.isVisible(), "the notice has no button"
    return shot_kit.save_screen_and_close(window, app, out)


if __name__ == "__main__":
    sys.exit(main())
