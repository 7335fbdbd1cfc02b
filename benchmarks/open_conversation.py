"""Opening a long conversation: the longest GUI stall from the click until it is fully drawn.

    python benchmarks/open_conversation.py [--messages 200] [--repeats 5]

Builds a conversation of ``--messages`` messages whose replies carry Python code blocks (Markdown, as
models write them), opens the real window, then clicks between it and a short conversation ``--repeats``
times, as a user does. A 5 ms timer on the GUI thread measures every gap in the event loop: the longest
gap is the longest time the window could not repaint or take input. Also prints how long until the newest
message is on screen and until everything (older messages, code colours) is drawn. Goal: stall < 50 ms.
"""

from __future__ import annotations

import argparse
import time

from _common import median, private_home

REPLY = """Here is one way to do it:

```python
def merge_sorted(left, right):
    \"\"\"Merge two sorted lists into one sorted list.\"\"\"
    out, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            out.append(left[i]); i += 1
        else:
            out.append(right[j]); j += 1
    out.extend(left[i:])
    out.extend(right[j:])
    return out
```

It runs in **O(n + m)** time. A quick check:

```python
assert merge_sorted([1, 4, 9], [2, 3, 10]) == [1, 2, 3, 4, 9, 10]
```

- it is *stable*;
- it never copies more than once.
"""


def main() -> None:
    private_home()
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    from PySide6.QtCore import QElapsedTimer, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from eagle_chat import paths
    from eagle_chat.app import create_main_window
    from eagle_chat.core.storage.conversation import Message
    from eagle_chat.core.storage.store import ConversationStore

    store = ConversationStore(paths.database_file())
    long = store.create_conversation("Long conversation")
    for i in range(args.messages // 2):
        store.add_message(long, Message("user", f"Question {i}: how do I merge two sorted lists?"))
        store.add_message(long, Message("assistant", f"Answer {i}. " + REPLY))
    short = store.create_conversation("Short conversation")
    store.add_message(short, Message("user", "hello"))
    store.add_message(short, Message("assistant", "Hello! How can I help?"))
    store.close()

    window = create_main_window([])
    window.show()
    app = QApplication.instance()
    while window.controller.state not in ("ready", "empty"):
        app.processEvents()
    clock = QElapsedTimer()
    clock.start()
    gaps: list[float] = []
    last = [clock.elapsed()]

    def tick() -> None:
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now

    ticker = QTimer()
    ticker.setInterval(5)
    ticker.timeout.connect(tick)
    ticker.start()

    def row_of(conversation_id: int) -> int:
        for row in range(window.conversations.list.count()):
            if window.conversations.list.item(row).data(Qt.ItemDataRole.UserRole) == conversation_id:
                return row
        raise LookupError(conversation_id)

    def settle(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.001)

    def click(conversation_id: int) -> None:
        from PySide6.QtTest import QTest

        view = window.conversations.list
        rect = view.visualItemRect(view.item(row_of(conversation_id)))
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())

    stalls, first, full = [], [], []
    settle(0.5)
    for _ in range(args.repeats):
        click(short.id)
        settle(0.3)
        gaps.clear()
        last[0] = clock.elapsed()
        started = time.perf_counter()
        click(long.id)
        shown = time.perf_counter() - started  # the click's handler returned: the newest messages are drawn
        while getattr(window.chat, "loading", lambda: False)():
            app.processEvents()
        done = time.perf_counter() - started
        settle(0.2)
        stalls.append(max(gaps + [shown * 1000.0]))
        first.append(shown * 1000.0)
        full.append(done * 1000.0)
    text = window.chat.toPlainText()
    complete = f"Answer {args.messages // 2 - 1}." in text and "Answer 0." in text
    print(f"{args.messages} messages with code blocks, {args.repeats} opens by click")
    print(f"longest GUI stall: {max(stalls):.0f} ms (median of opens {median(stalls):.0f} ms); "
          f"newest messages drawn after {median(first):.0f} ms; all drawn after {median(full):.0f} ms; "
          f"every message present: {complete}")
    ticker.stop()
    window.close()


if __name__ == "__main__":
    main()
