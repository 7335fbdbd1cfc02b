"""Regression guard: PySide6 6.12.0 on Python 3.11 loses a reference to True on every signal emit and
aborts the process after a few hundred emits. Any PySide6 we run must leave True's count alone."""

import sys

from PySide6.QtCore import QObject, Signal


class Emitter(QObject):
    sig_chunk = Signal(int, str, int, float)


def test_emitting_many_signals_keeps_the_refcount_of_True():
    emitter = Emitter()
    received = []
    emitter.sig_chunk.connect(lambda *args: received.append(args[0]))
    before = sys.getrefcount(True)
    for i in range(20_000):
        emitter.sig_chunk.emit(i, "tok", i, 0.0)
    after = sys.getrefcount(True)
    assert len(received) == 20_000
    assert abs(after - before) < 50, (before, after)
