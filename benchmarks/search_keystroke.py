"""Search cost per keystroke at 40,000 messages: the store query, and the conversation list it refills.

    python benchmarks/search_keystroke.py [--messages 40000] [--conversations 2000] [--code DIR]

Builds a history of real-looking text (lines of the Python standard library's sources), then types a few
searches one key at a time and times ``ConversationStore.list_conversations(text)`` for every prefix, as
the window did on each keystroke before it debounced. ``--code /work/main`` runs the same measurement on
another checkout (the before figure). Goal (issue 10): < 16 ms per keystroke at 40k messages.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
import time
from pathlib import Path

QUERIES = ("quicksort", "context manager", "def parse_args", "socket", "UnicodeDecodeError", "x_y")


def corpus_lines(limit: int = 200_000) -> list[str]:
    lines = []
    for source in sorted(Path(sqlite3.__file__).resolve().parents[1].glob("*.py")):
        lines += [ln.strip() for ln in source.read_text(encoding="utf-8", errors="replace").splitlines()
                  if len(ln.strip()) > 20]
        if len(lines) > limit:
            break
    return lines


OLD_SCHEMA = """
CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, system_prompt TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE messages (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL REFERENCES conversations(id)
    ON DELETE CASCADE, role TEXT NOT NULL, content TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'complete',
    stats TEXT, error TEXT, created REAL NOT NULL);
CREATE INDEX messages_by_conversation ON messages(conversation_id, id);
PRAGMA user_version = 1;
PRAGMA journal_mode = WAL;
"""


def build(path: Path, messages: int, conversations: int) -> None:
    """A history as EagleChat 0.1 wrote it (no search index): the code measured opens it as a user's
    first start after an update would, so its first open includes any one-time indexing."""
    rng = random.Random(10)
    lines = corpus_lines()
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.executemany("INSERT INTO conversations (id, title, system_prompt, created, updated) VALUES (?, ?, '', ?, ?)",
                   [(i + 1, rng.choice(lines)[:48], i, i) for i in range(conversations)])
    rows = []
    for i in range(messages):
        text = "\n".join(rng.choice(lines) for _ in range(rng.randint(2, 30)))
        rows.append((i % conversations + 1, "user" if i % 2 == 0 else "assistant", text, i))
    db.executemany("INSERT INTO messages (conversation_id, role, content, created) VALUES (?, ?, ?, ?)", rows)
    db.commit()
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=40_000)
    parser.add_argument("--conversations", type=int, default=2_000)
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout whose eagle_chat is measured")
    args = parser.parse_args()
    from _common import private_home

    sys.path.insert(0, str(args.code.resolve()))  # ahead of the checkout _common put first
    home = private_home()
    from eagle_chat.core.storage.store import ConversationStore

    path = home / "bench.sqlite3"
    started = time.perf_counter()
    build(path, args.messages, args.conversations)
    built = time.perf_counter() - started
    started = time.perf_counter()
    store = ConversationStore(path)
    opened = time.perf_counter() - started
    wait = getattr(store, "wait_for_index", None)  # the one-time fill runs in the background: wait for it
    filled = f"; search index filled in the background in {time.perf_counter() - started:.1f} s" if (
        wait and wait()) else ""
    size = path.stat().st_size / 1e6
    print(f"code: {args.code}  ({ConversationStore.__module__} from "
          f"{Path(sys.modules[ConversationStore.__module__].__file__).parents[3]})")
    print(f"history: {args.messages} messages in {args.conversations} conversations, {size:.0f} MB, built in "
          f"{built:.1f} s; first open {opened * 1000:.0f} ms{filled}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs: wall times include waiting for a CPU; "
          "CPU times (this thread's own work) do not")
    all_costs, all_cpu = [], []
    for query in QUERIES:
        costs, cpu, found = [], [], 0
        for n in range(1, len(query) + 1):
            t, c = time.perf_counter(), time.thread_time()
            found = len(store.list_conversations(query[:n]))
            costs.append((time.perf_counter() - t) * 1000)
            cpu.append((time.thread_time() - c) * 1000)
        all_costs += costs
        all_cpu += cpu
        print(f"  {query!r:22} query per key: CPU median {sorted(cpu)[len(cpu) // 2]:6.1f} ms, worst "
              f"{max(cpu):6.1f} ms; wall worst {max(costs):6.1f} ms  ({found} conversations match)")
    all_costs.sort()
    all_cpu.sort()
    print(f"STORE QUERY PER KEYSTROKE (as the window ran it on every key before): CPU median "
          f"{all_cpu[len(all_cpu) // 2]:.1f} ms, p90 {all_cpu[int(len(all_cpu) * 0.9)]:.1f} ms, worst "
          f"{all_cpu[-1]:.1f} ms; wall median {all_costs[len(all_costs) // 2]:.1f} ms, worst {all_costs[-1]:.1f} ms")
    typing_in_the_window(store)
    store.close()


def typing_in_the_window(store) -> None:
    """The conversation list as the window has it, typed into at 10 keys/s: the GUI thread's cost per
    keystroke (the longest gap of a 1 ms heartbeat timer), and how long until the list shows the result."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from eagle_chat.ui.chat.conversation_list import ConversationList

    app = QApplication.instance() or QApplication([])
    listing = ConversationList()
    listing.resize(260, 800)
    listing.show()
    listing.set_conversations(store.list_conversations(), None)
    try:
        from eagle_chat.ui.chat.conversation_search import ConversationSearch
    except ImportError:  # the code measured searches on every keystroke and rebuilds the list
        search = None
        listing.sig_search.connect(lambda text: listing.set_conversations(store.list_conversations(text), None))
    else:
        search = ConversationSearch(store)
        listing.sig_search.connect(search.request)
        search.sig_results.connect(listing.show_only)
    stalls, shown_after, gui_cpu = [], [], []
    if search is not None:  # the GUI thread's own work when a result arrives
        original = listing.show_only

        def timed_show_only(ids):
            c = time.thread_time()
            original(ids)
            gui_cpu.append((time.thread_time() - c) * 1000)

        search.sig_results.disconnect()
        search.sig_results.connect(timed_show_only)
    for query in QUERIES:
        listing.search.clear()
        app.processEvents()
        keys, last = list(query), [time.perf_counter()]
        state = {"stall": 0.0, "typed_at": None}

        def beat():
            now = time.perf_counter()
            state["stall"] = max(state["stall"], now - last[0])
            last[0] = now

        def key():
            if keys:
                c = time.thread_time()
                listing.search.setText(listing.search.text() + keys.pop(0))
                gui_cpu.append((time.thread_time() - c) * 1000)
                state["typed_at"] = time.perf_counter()

        expected = {c.id for c in store.list_conversations(query)}  # before the clock starts
        heartbeat, typist = QTimer(), QTimer()
        heartbeat.timeout.connect(beat)
        typist.timeout.connect(key)
        last[0] = time.perf_counter()
        heartbeat.start(1)
        typist.start(100)
        shown = lambda: {i for i, item in listing._items.items() if not item.isHidden()} if search else {
            c for c in listing._items}
        deadline = time.perf_counter() + 30
        while time.perf_counter() < deadline and (keys or shown() != expected):
            app.processEvents()
            time.sleep(0.0005)
        shown_after.append((time.perf_counter() - state["typed_at"]) * 1000)
        heartbeat.stop()
        typist.stop()
        stalls.append(state["stall"] * 1000)
        print(f"  typing {query!r:22} longest GUI stall {stalls[-1]:6.1f} ms; list right "
              f"{shown_after[-1]:6.0f} ms after the last key")
    if search is not None:
        search.shutdown()
    gui_cpu.sort()
    print(f"GUI THREAD CPU PER KEYSTROKE OR RESULT: median {gui_cpu[len(gui_cpu) // 2]:.2f} ms, worst "
          f"{gui_cpu[-1]:.1f} ms ({len(gui_cpu)} events)")
    print(f"GUI STALL WHILE TYPING (wall, 1 ms heartbeat): worst {max(stalls):.1f} ms, median "
          f"{sorted(stalls)[len(stalls) // 2]:.1f} ms")


if __name__ == "__main__":
    main()
