"""The longest GUI stall while another process holds the conversation database's write lock.

    python benchmarks/store_contention.py [--locked-s 5] [--code DIR]

A Qt event loop runs a 1 ms heartbeat timer (its longest gap is the GUI stall) while the GUI thread writes
like a streaming reply does: a message every 500 ms, an update of it every 100 ms. Phases: 3 s free, then
a second process (tests/lock_holder.py) holds BEGIN IMMEDIATE for --locked-s, then 3 s free again. With
this checkout the store's retry timer (ui/runtime/store_watch.py) runs as in the app. ``--code /work/main`` runs
the same on another checkout (before: SQLite's 5 s busy wait per write, then an error).
Goal (issue 10): no stall longer than one frame (16 ms) from a store write. The store waits at most
BUSY_TIMEOUT_S (4 ms) for a lock, then queues.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--locked-s", type=float, default=5.0)
    parser.add_argument("--code", type=Path, default=ROOT)
    args = parser.parse_args()
    from _common import private_home

    sys.path.insert(0, str(args.code.resolve()))
    home = private_home()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from eagle_chat.core.storage.conversation import Message
    from eagle_chat.core.storage.store import ConversationStore

    app = QApplication([])
    path = home / "conversations.sqlite3"
    store = ConversationStore(path)
    for i in range(200):
        conversation = store.create_conversation(f"history {i}")
        for j in range(10):
            store.add_message(conversation, Message("user", f"message {i}.{j} " * 20))
    try:
        from eagle_chat.ui.runtime.store_watch import StoreWatch

        watch = StoreWatch(store)
        watch._timer.timeout.disconnect()
        watch._timer.timeout.connect(lambda: timed(watch.check, write=False))
        watch._timer.start()
    except ImportError:
        watch = None  # the code measured has no retry timer
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (a free phase shows this machine's own stalls)")
    print(f"code: {args.code}  (store from {Path(sys.modules[ConversationStore.__module__].__file__).parents[3]})")

    phase = {"name": "free", "stall": 0.0, "call": 0.0, "cpu": 0.0, "errors": 0, "writes": 0}
    results = []
    last_tick = [time.perf_counter()]
    conversation = store.create_conversation("live")
    reply = [store.add_message(conversation, Message("assistant", "", status="streaming"))]

    def tick():
        now = time.perf_counter()
        phase["stall"] = max(phase["stall"], now - last_tick[0])
        last_tick[0] = now

    def timed(call, write=True):
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            call()
        except Exception as error:  # noqa: BLE001 - the before-code raises "database is locked"
            phase["errors"] += 1
            phase.setdefault("error", f"{type(error).__name__}: {error}")
        phase["call"] = max(phase["call"], time.perf_counter() - started)
        phase["cpu"] = max(phase["cpu"], time.thread_time() - cpu)
        phase["writes"] += write

    def update():
        reply[0].content += "more text " * 5
        timed(lambda: store.update_message(reply[0]))

    def add():
        timed(lambda: reply.__setitem__(0, store.add_message(conversation, Message("assistant", "x"))))

    heartbeat, updates, adds = QTimer(), QTimer(), QTimer()
    for timer, interval, slot in ((heartbeat, 1, tick), (updates, 100, update), (adds, 500, add)):
        timer.setInterval(interval)
        timer.timeout.connect(slot)
        timer.start()

    def run_phase(name: str, seconds: float):
        phase.update(name=name, stall=0.0, call=0.0, cpu=0.0, errors=0, writes=0)
        phase.pop("error", None)
        end = time.perf_counter() + seconds
        last_tick[0] = time.perf_counter()
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.0005)
        tick()  # a call that blocked past the phase's end still counts
        results.append(dict(phase))

    run_phase("free", 3)
    holder = subprocess.Popen([sys.executable, str(ROOT / "tests" / "lock_holder.py"), str(path), "write"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "LOCKED"
    run_phase(f"locked by another process ({args.locked_s:.0f} s)", args.locked_s)
    holder.stdin.write("\n")
    holder.stdin.flush()
    holder.wait()
    run_phase("free again", 3)
    for r in results:
        extra = f", {r['errors']} failed ({r['error']})" if r["errors"] else ""
        print(f"  {r['name']:34} longest GUI stall {r['stall'] * 1000:7.1f} ms; longest store call or retry "
              f"{r['call'] * 1000:7.1f} ms wall, {r['cpu'] * 1000:5.1f} ms CPU; {r['writes']} writes{extra}")
    unsaved = getattr(store, "unsaved", False)
    print(f"after the lock went: unsaved changes {'remain' if unsaved else 'none'}")
    print(f"LONGEST GUI STALL WHILE LOCKED: {results[1]['stall'] * 1000:.1f} ms")
    if watch is not None:
        watch.stop()
    store.close()


if __name__ == "__main__":
    main()
