"""Take the documents screenshot: a conversation with two attached files, a reply given the planted passage
(its Sources line under it) and the passage's preview open, grabbed from a real X server.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python tools/screenshot_documents.py docs/documents-cited-answer.png

Runs on the bundled tiny pair and tiny embedder in a throw-away EAGLE_CHAT_HOME: the toy model's words are
noise and it does not write [n] itself, so the picture shows what EagleChat adds around any model — the
attached files, what the reply was given, and the preview a click on a source opens.
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

FACT = "Ferry tickets to Skellig Mhor cost 12 euros; the last boat leaves the pier at 17:30."


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/documents-cited-answer.png")
    home = Path(tempfile.mkdtemp(prefix="eagle-shot-"))
    os.environ["EAGLE_CHAT_HOME"] = str(home)
    from tests.documents.files import write_pdf

    folder = home / "trip"
    folder.mkdir()
    write_pdf(folder / "island-guide.pdf", ["Skellig Mhor is a rocky island off the coast. Puffins nest there "
                                            "from April to August.", FACT, "Landing is not allowed in storms."])
    (folder / "packing-list.md").write_text("# Packing\n\n- rain jacket\n- binoculars\n- cash for the ferry\n",
                                            encoding="utf-8")
    from PySide6.QtCore import QUrl

    window, app = shot_kit.open_ready_window()
    window.options.max_tokens.setValue(40)
    done = []
    window.documents.runner.sig_finished.connect(lambda *args: done.append(args))
    window.documents.attach([folder / "island-guide.pdf", folder / "packing-list.md"])
    shot_kit.pump(app, lambda: bool(done))
    window.prompt.setPlainText("When does the last ferry leave, and what does a ticket cost?")
    window.send()
    shot_kit.pump(app, lambda: window.controller.state == "generating", 30)
    shot_kit.pump(app, lambda: window.controller.state == "ready")
    reply = window.controller.conversation.messages[-1]
    n = next(s["n"] for s in reply.sources if FACT in s["text"])
    window.chat.anchorClicked.emit(QUrl(f"source:{reply.id}:{n}"))
    from eagle_chat.ui.chat.source_preview import SourcePreview

    preview = window.chat.findChild(SourcePreview)
    preview.resize(520, 300)
    preview.move(740, 300)
    shot_kit.settle(app, 50)
    return shot_kit.save_screen_and_close(window, app, out)


if __name__ == "__main__":
    sys.exit(main())
