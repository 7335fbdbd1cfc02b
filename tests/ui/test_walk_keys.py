"""Keys pressed as fast as a clicker or a macro presses them: the comparison runs what the screen says.

Alt+N picks a preset and runs it; F5 right after (here with no event processed between the two keys, as a
clicker sends them within ~12 ms) must run that preset, not the prompt shown before it — a preset button's
mnemonic is an *animated* click whose ``clicked`` comes 100 ms later, so F5 used to start the old prompt and
the comparison was then labelled with the new one.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from eagle_chat.ui.speed.presets_row import PRESET_PROMPTS
from tests.helpers.window import REPLY_TIMEOUT_MS


def test_a_preset_then_f5_at_once_runs_the_preset(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(8)
    view = window.open_compare()
    view.repeats.setValue(1)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    wanted = PRESET_PROMPTS[2][1]
    assert view.prompt.currentText() != wanted
    started: list[str] = []
    view.runner.sig_job_started.connect(lambda _i, job, _r: started.append(job.prompt))
    with qtbot.waitSignal(view.runner.sig_done, timeout=REPLY_TIMEOUT_MS * 2):
        QTest.keyClick(view, Qt.Key.Key_3, Qt.KeyboardModifier.AltModifier)
        QTest.keyClick(view, Qt.Key.Key_F5)
    qtbot.wait(300)  # a late animated click would land here
    assert started and set(started) == {wanted}, started
    assert view.comparison is not None and view.comparison.prompt == wanted
    assert view.prompt.currentText() == wanted
