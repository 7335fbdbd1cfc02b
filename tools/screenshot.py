"""Take the README screenshot: the real window mid-conversation, grabbed from a real X server.

    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py docs/screenshot.png
    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py --drafted docs/drafted-tokens.png
    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py --lang zh_CN docs/screenshot-zh.png
    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshot.py --theme dark docs/screenshot-dark.png
    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python tools/screenshot.py --math --theme dark docs/math-dark.png

Runs on the bundled tiny pair in a throw-away EAGLE_CHAT_HOME: one EAGLE-3 reply, one baseline reply,
then grabs the screen while a third reply streams. ``--drafted``: one EAGLE-3 reply with "Show drafted
tokens" on, the acceptance tab in view and the mouse's tooltip over a drafted stretch. ``--lang zh_CN``
and ``--theme dark`` start the window in that language or theme (saved in the throw-away home's
settings, as View → Language / Theme would), with prompts in Chinese or a code block to colour.
``--math``: at 1280×720, a saved conversation whose reply has formulas in each delimiter form (the tiny
model writes no LaTeX), opened as from the conversation list, once the formulas are drawn.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    argv = sys.argv[1:]
    options = {}
    for flag in ("--lang", "--theme"):
        if flag in argv:
            i = argv.index(flag)
            options[flag] = argv[i + 1]
            del argv[i:i + 2]
    args = [a for a in argv if a not in ("--drafted", "--math")]
    drafted, math = "--drafted" in argv, "--math" in argv
    out = Path(args[0] if args else "docs/screenshot.png")
    os.environ["EAGLE_CHAT_HOME"] = tempfile.mkdtemp(prefix="eagle-shot-")
    if options:
        from eagle_chat import paths
        from eagle_chat.settings import Settings, save_settings

        save_settings(Settings(language=options.get("--lang"), theme=options.get("--theme", "system")),
                      paths.settings_file())
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window

    conversation_id = save_math_conversation() if math else None
    window = create_main_window([])
    app = QApplication.instance()
    window.setGeometry(0, 0, *((1280, 720) if math else (1440, 900)))
    window.show()

    def pump(until, timeout=120.0):
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.002)

    pump(lambda: window.controller.state == "ready")
    done = []
    window.controller.sig_reply_finished.connect(lambda m, r: done.append(r))
    if drafted:
        return drafted_shot(window, app, pump, done, out)
    if conversation_id is not None:
        return math_shot(window, app, pump, conversation_id, out)
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


def drafted_shot(window, app, pump, done, out: Path) -> int:
    """A finished EAGLE-3 reply with its drafted text tinted, the acceptance chart, and a step's tooltip."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QToolTip

    from eagle_chat.ui import texts
    from eagle_chat.ui.drafted_text import range_rects

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


MATH_QUESTION = "Solve x² − 5x + 6 = 0, and remind me of a few classic formulas."
MATH_REPLY = r"""For $ax^2+bx+c=0$ the roots are
$$x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}$$
Here $a=1$, $b=-5$, $c=6$, so the discriminant is \(b^2-4ac = 1\) and the roots are $x=2$ and $x=3$.

Two classics:

\[
\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}, \qquad e^{i\pi} + 1 = 0
\]

勾股定理：直角三角形中 $a^2+b^2=c^2$，其中 $c$ 是斜边。Prices stay text: $5 and $10; code keeps its
dollars: `echo $HOME`."""


def save_math_conversation() -> int:
    """A conversation in the throw-away home whose reply has formulas: what a maths answer looks like."""
    from eagle_chat import paths
    from eagle_chat.core.storage.conversation import Message
    from eagle_chat.core.storage.store import ConversationStore

    store = ConversationStore(paths.database_file())
    conversation = store.create_conversation(title="Quadratic formula")
    store.add_message(conversation, Message("user", MATH_QUESTION))
    store.add_message(conversation, Message("assistant", MATH_REPLY))
    store.close()
    return conversation.id


def math_shot(window, app, pump, conversation_id: int, out: Path) -> int:
    """The saved maths conversation, opened, once its formulas are drawn."""
    from PySide6.QtGui import QGuiApplication

    from eagle_chat.ui.math import images

    window.controller.open_conversation(conversation_id)
    pump(lambda: images.shared().made_count >= 8 and images.shared().pending() == 0, 60)
    for _ in range(30):
        app.processEvents()
        time.sleep(0.01)
    shot = QGuiApplication.primaryScreen().grabWindow(0)
    out.parent.mkdir(parents=True, exist_ok=True)
    shot.copy(0, 0, 1280, 720).save(str(out))
    window.close()
    pump(lambda: window.closer.done, 60)
    print(f"saved {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
