"""Take the README screenshot: the real window mid-conversation, grabbed from a real X server.

    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py docs/screenshot.png
    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py --drafted docs/drafted-tokens.png
    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py --lang zh_CN docs/screenshot-zh.png
    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py --theme dark docs/screenshot-dark.png
    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python tools/screenshot.py --chart docs/speed-chart.png
    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python tools/screenshot.py --first-start docs/first-start.png

Runs on the bundled tiny pair in a throw-away EAGLE_CHAT_HOME: one EAGLE-3 reply, one baseline reply,
then grabs the screen while a third reply streams. ``--drafted``: one EAGLE-3 reply with "Show drafted
tokens" on, the acceptance tab in view and the mouse's tooltip over a drafted stretch. ``--chart``: the window filling the screen, three replies
(EAGLE-3, baseline, EAGLE-3) in the side panel's speed chart and the latest line's tooltip. ``--lang zh_CN``
and ``--theme dark`` start the window in that language or theme (saved in the throw-away home's
settings, as View → Language / Theme would), with prompts in Chinese or a code block to colour.
``--first-start``: what a newcomer sees, at the size the window takes on that screen: the bundled pair
loaded, no conversation yet, the first-run card in the chat.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import shot_kit  # noqa: E402 - beside this script (tools/)


def main() -> int:
    argv = sys.argv[1:]
    options = {}
    for flag in ("--lang", "--theme"):
        if flag in argv:
            i = argv.index(flag)
            options[flag] = argv[i + 1]
            del argv[i:i + 2]
    args = [a for a in argv if a not in ("--drafted", "--chart", "--first-start")]
    drafted, chart, first_start = "--drafted" in argv, "--chart" in argv, "--first-start" in argv
    out = Path(args[0] if args else "docs/screenshot.png")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    if options:
        from eagle_chat import paths
        from eagle_chat.settings import Settings, save_settings

        save_settings(Settings(language=options.get("--lang"), theme=options.get("--theme", "system")),
                      paths.settings_file())
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window

    window = create_main_window([])
    app = QApplication.instance()
    if chart:
        window.setGeometry(QGuiApplication.primaryScreen().availableGeometry())
    elif not first_start:
        window.setGeometry(QRect(0, 0, 1440, 900))
    window.show()

    def pump(until, timeout=120.0):
        shot_kit.pump(app, until, timeout)

    pump(lambda: window.controller.state == "ready")
    if first_start:
        return first_start_shot(window, app, pump, out)
    done = []
    window.controller.sig_reply_finished.connect(lambda m, r: done.append(r))
    if drafted:
        return drafted_shot(window, app, pump, done, out)
    if chart:
        return chart_shot(window, app, pump, done, out)
    window.options.max_tokens.setValue(160)
    first = "Write a Python function that reverses a string."
    last = "Write quicksort in Python and explain its time complexity."
    if options.get("--lang", "").startswith("zh"):
        first, last = "请用 Python 写一个反转字符串的函数。", "请用 Python 写一个快速排序，并解释时间复杂度。"
    elif options.get("--theme") == "dark":  # a code block in the conversation, coloured by the dark style
        first = "What does this do?\n\n```python\ndef reverse(s: str) -> str:\n    # slicing with a step of -1\n" \
                "    return s[::-1]\n\nprint(reverse(\"EagleChat\"))\n```"
    for prompt, speculative in [(first, True), (first, False)]:
        window.model_bar.draft_toggle.setChecked(speculative)
        window.prompt.setPlainText(prompt)
        window.send()
        pump(lambda n=len(done): len(done) > n)
    window.model_bar.draft_toggle.setChecked(True)
    window.options.max_tokens.setValue(2000)
    streaming = (lambda: window.controller.reply is not None and window.controller.reply.message is not None
                 and window.controller.reply.tokens > 120)
    for attempt, prompt in enumerate((last, last, "Write quicksort in Python and explain its time complexity.")):
        if attempt:  # the toy model can stop early after a long history: ask again in a new conversation
            window.new_conversation()
        window.prompt.setPlainText(prompt)
        window.send()
        pump(lambda n=len(done): streaming() or len(done) > n, 30)
        if streaming():
            break
    for _ in range(5):
        app.processEvents()
    shot = QGuiApplication.primaryScreen().grabWindow(0)
    out.parent.mkdir(parents=True, exist_ok=True)
    shot.copy(0, 0, 1440, 900).save(str(out))
    window.controller.stop()
    window.close()  # asynchronous: the reply (or warm start) stops first
    pump(lambda: window.closer.done, 60)
    print(f"saved {out} ({out.stat().st_size} bytes)")
    return 0


def first_start_shot(window, app, pump, out: Path) -> int:
    """The whole screen as a newcomer first sees it (the window sized to the screen by itself)."""
    from PySide6.QtGui import QGuiApplication

    window.activateWindow()
    pump(lambda: False, 1.0)  # the warm start's and the layout's last paints
    QGuiApplication.primaryScreen().grabWindow(0).save(str(out))
    window.close()
    pump(lambda: window.closer.done, 60)
    print(f"saved {out} ({out.stat().st_size} bytes)")
    return 0


def drafted_shot(window, app, pump, done, out: Path) -> int:
    """A finished EAGLE-3 reply with its drafted text tinted, the acceptance chart, and a step's tooltip."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QToolTip

    from eagle_chat.ui.words import texts
    from eagle_chat.ui.chat.drafted_text import range_rects

    window.side.drafted_toggle.setChecked(True)
    window.side.charts.setCurrentWidget(window.side.acceptance)
    window.options.max_tokens.setValue(220)
    window.prompt.setPlainText("Write quicksort in Python and explain its time complexity.")
    window.send()
    pump(lambda: done)
    for _ in range(20):
        app.processEvents()
    view = window.chat
    view.verticalScrollBar().setValue(0)
    message = window.controller.conversation.messages[-1]
    a, b, step, accepted = [r for r in view.drafted.tinted(message.id) if r[1] - r[0] > 6][3]
    box = range_rects(view, a, b)[0]
    point = view.viewport().mapToGlobal(QPoint(int(box.center().x()), int(box.bottom()) - view.verticalScrollBar().value()))
    QToolTip.showText(point, texts.drafted_tooltip(step, accepted), view.viewport())
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    shot = QGuiApplication.primaryScreen().grabWindow(0)
    out.parent.mkdir(parents=True, exist_ok=True)
    shot.copy(0, 0, 1440, 900).save(str(out))
    window.close()  # asynchronous: the reply (or warm start) stops first
    pump(lambda: window.closer.done, 60)
    print(f"saved {out} ({out.stat().st_size} bytes)")
    return 0


def chart_shot(window, app, pump, done, out: Path) -> int:
    """Three replies in the side panel's speed chart (the latest bold, the earlier two faded) and the
    tooltip the latest line shows on hover, on the whole screen."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QGuiApplication, QHelpEvent
    from PySide6.QtWidgets import QApplication

    window.options.max_tokens.setValue(160)
    for prompt, speculative in (("Write a Python function that reverses a string.", True),
                                ("Write a Python function that reverses a string.", False),
                                ("Write quicksort in Python and explain its time complexity.", True)):
        window.model_bar.draft_toggle.setChecked(speculative)
        window.prompt.setPlainText(prompt)
        window.send()
        pump(lambda n=len(done): len(done) > n)
    chart = window.chart
    latest = chart.series_for(chart.keys()[-1])
    point = latest.at(latest.count() // 8)  # near its start: the tooltip opens below and to the right
    scene = chart.chart().mapToScene(chart.chart().mapToPosition(QPointF(point.x(), point.y()), latest))
    where = chart.mapFromScene(scene)
    viewport = chart.viewport()
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, where, viewport.mapToGlobal(where)))
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    screen = QGuiApplication.primaryScreen()
    out.parent.mkdir(parents=True, exist_ok=True)
    screen.grabWindow(0).copy(screen.geometry()).save(str(out))
    window.close()  # asynchronous: the reply (or warm start) stops first
    pump(lambda: window.closer.done, 60)
    print(f"saved {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
