"""Screenshots of the presenter's full-screen comparison for docs/, from a real X server.

    xvfb-run -s "-screen 0 1280x720x24" env LANG=zh_CN.UTF-8 EAGLE_CHAT_HOME=$(mktemp -d) \\
        python tools/presenter_screenshots.py finished docs/presenter-zh-1280x720.png
    xvfb-run -s "-screen 0 1920x1080x24" env LANG=en_US.UTF-8 EAGLE_CHAT_HOME=$(mktemp -d) \\
        python tools/presenter_screenshots.py finished docs/presenter-en-1920x1080.png
    xvfb-run -s "-screen 0 1280x720x24" env LANG=en_US.UTF-8 EAGLE_CHAT_HOME=$(mktemp -d) \\
        python tools/presenter_screenshots.py warmup docs/presenter-warmup.png

Opens the window on the bundled tiny pair (a fresh home), the comparison full screen with drafted tokens
tinted, runs it, and saves the screen once it has finished ("finished"), or the view as the second warm-up
run starts ("warmup"). The figures are whatever this machine measures.
"""

from __future__ import annotations

import sys
import time

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from eagle_chat.app import create_main_window


def main(what: str, out: str, tokens: int = 400) -> int:
    window = create_main_window([])
    app = QApplication.instance()

    def pump(until=lambda: False, seconds: float | None = 0.3) -> None:
        deadline = None if seconds is None else time.monotonic() + seconds
        while not until() and (deadline is None or time.monotonic() < deadline):
            app.processEvents()
            time.sleep(0.005)

    window.show()
    pump(lambda: window.controller.state in ("ready", "empty"), None)
    window.options.max_tokens.setValue(tokens)
    pump(lambda: not window.demo.warm_start.is_running(), 30)
    view = window.open_compare(demo=True)
    pump(seconds=1.0)
    shots = []

    def warming(index: int, *_args) -> None:
        if what == "warmup" and index == 1 and not shots:
            app.sendPostedEvents(None, QEvent.Type.LayoutRequest.value)
            shots.append(view.grab())

    view.runner.sig_job_started.connect(warming)
    finished = []
    view.sig_finished.connect(finished.append)
    view.drafted_toggle.setChecked(True)
    view.run()
    pump(lambda: bool(finished) or not view.runner.is_running(), None)
    pump(seconds=1.5)
    (shots[0] if shots else view.screen().grabWindow(0)).save(out)
    print(view.board.headline.text(), f"({view.board.headline.font().pixelSize()} px)")
    window.close()
    pump(lambda: window.closer.done, None)
    return 0 if finished else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], *(int(a) for a in sys.argv[3:])))
