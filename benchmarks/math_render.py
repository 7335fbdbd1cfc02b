"""What LaTeX math costs the GUI thread while a maths reply streams into the chat view.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/math_render.py

Streams a reply with 60 formulas (every delimiter form) into a real ChatView in 8-character chunks, at the
view's own pace, and prints: the view's render times (median, worst) with math on and with the same text's
formulas shown as source, the longest gap of a 5 ms GUI timer meanwhile (the GUI thread's longest stall),
how long the worker took to make the formulas, and the cache's size.
"""

from __future__ import annotations

import statistics
import time

from _common import private_home

private_home()

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from eagle_chat.core.storage.conversation import Conversation, Message  # noqa: E402
from eagle_chat.ui.chat import chat_view as chat_view_module  # noqa: E402
from eagle_chat.ui.chat.chat_view import ChatView  # noqa: E402
from eagle_chat.ui.math import images  # noqa: E402

FORMULAS = [r"x_{%d}^2 + y_{%d}^2 = r^2", r"\frac{a_{%d}}{b_{%d}}", r"\sum_{k=1}^{%d} k^{%d}",
            r"\sqrt{%d + x^{%d}}"]


def reply_text(count: int, salt: str) -> str:
    parts = []
    for i in range(count):
        tex = FORMULAS[i % len(FORMULAS)] % (i, i) + salt
        form = i % 4
        if form == 0:
            parts.append(f"Step {i}: we have ${tex}$ which holds.")
        elif form == 1:
            parts.append(f"Step {i}: and \\({tex}\\) too.")
        elif form == 2:
            parts.append(f"Display {i}:\n\n$${tex}$$\n")
        else:
            parts.append(f"Display {i}:\n\n\\[\n{tex}\n\\]\n")
    return "\n\n".join(parts)


def stream(app: QApplication, text: str, math_on: bool) -> dict:
    view = ChatView()
    view.resize(800, 600)
    view.show()
    message = Message("assistant", "", id=2, status="streaming")
    view.show_conversation(Conversation(messages=[Message("user", "Maths", id=1), message]))
    costs: list[float] = []
    real = chat_view_module.render_markdown

    def timed(*args, **kwargs):
        if not math_on:
            kwargs["math"] = None
        started = time.perf_counter()
        result = real(*args, **kwargs)
        costs.append(time.perf_counter() - started)
        return result

    chat_view_module.render_markdown = timed
    gaps, last = [], [time.perf_counter()]
    timer = QTimer()
    timer.setInterval(5)

    def tick():
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer.timeout.connect(tick)
    timer.start()
    started = time.perf_counter()
    for end in range(8, len(text) + 8, 8):
        message.content = text[:end]
        view.update_message(message)
        app.processEvents()
        time.sleep(0.002)  # tokens arrive
    streamed = time.perf_counter() - started
    message.status = "done"
    view.finish_message(message)
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and (images.shared().pending() or view.loading()):
        app.processEvents()
        time.sleep(0.002)
    made = time.perf_counter() - started
    settle = time.perf_counter() + 1.0  # the last announcement, and the redraw it asks for
    while time.perf_counter() < settle:
        app.processEvents()
        time.sleep(0.002)
    timer.stop()
    chat_view_module.render_markdown = real
    drawn = view.toHtml().count('src="math:')
    view.deleteLater()
    return {"renders": len(costs), "median_ms": statistics.median(costs) * 1e3, "worst_ms": max(costs) * 1e3,
            "gap_ms": max(gaps) * 1e3, "streamed_s": streamed, "all_made_s": made, "images": drawn}


def main() -> None:
    app = QApplication([])
    for label, math_on, salt in (("source only", False, ""), ("math, cold cache", True, ""),
                                 ("math, warm cache", True, "")):
        figures = stream(app, reply_text(60, salt), math_on)
        print(f"{label:17s} renders {figures['renders']:4d}  median {figures['median_ms']:5.2f} ms  "
              f"worst {figures['worst_ms']:6.2f} ms  longest GUI gap {figures['gap_ms']:6.1f} ms  "
              f"streamed in {figures['streamed_s']:.2f} s, all formulas drawn at {figures['all_made_s']:.2f} s, "
              f"{figures['images']} images")
    shared = images.shared()
    print(f"worker made {shared.made_count} formulas; cache {len(shared._images)} images, {shared._bytes / 1024:.0f} KiB")
    shared.stop()


if __name__ == "__main__":
    main()
