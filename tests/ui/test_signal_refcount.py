"""Regression guard: PySide6 6.12.0 on Python 3.11 loses a reference to True on every signal emit and
aborts the process after a few hundred emits. Any PySide6 we run must leave True's count alone.

On Python 3.12+ True is immortal (PEP 683): its count never moves, so that bug cannot free it and the
check on True would pass whatever emit does — it is skipped there. The same kind of loss on an ordinary
object passed through a signal is checked on every version.
"""

import sys

import pytest
from PySide6.QtCore import QObject, Signal

IMMORTAL_TRUE = sys.version_info >= (3, 12)


class Emitter(QObject):
    sig_chunk = Signal(int, str, int, float)
    sig_object = Signal(object)


class Payload:
    pass


@pytest.mark.skipif(IMMORTAL_TRUE, reason="True is immortal on Python 3.12+ (PEP 683): no emit can free it")
def test_emitting_many_signals_keeps_the_refcount_of_True():
    before = sys.getrefcount(True)
    held = [True] * 1000
    assert sys.getrefcount(True) - before >= 1000  # the count is observable here (it is not on 3.12+)
    del held
    emitter = Emitter()
    received = []
    emitter.sig_chunk.connect(lambda *args: received.append(args[0]))
    before = sys.getrefcount(True)
    for i in range(20_000):
        emitter.sig_chunk.emit(i, "tok", i, 0.0)
    after = sys.getrefcount(True)
    assert len(received) == 20_000
    assert abs(after - before) < 50, (before, after)


def test_emitting_an_object_keeps_its_refcount():
    emitter = Emitter()
    payload = Payload()
    seen = []
    emitter.sig_object.connect(lambda obj: seen.append(obj is payload))
    before = sys.getrefcount(payload)
    for _ in range(20_000):
        emitter.sig_object.emit(payload)
    assert len(seen) == 20_000 and all(seen)
    assert sys.getrefcount(payload) == before
