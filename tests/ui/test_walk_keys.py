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


def test_the_acceptance_chart_never_says_warming_up_while_runs_are_counted(qtbot, open_window):
    """It kept "Warming up both modes…" through the counted baseline runs, and before the first run said the
    chat's "send a message with EAGLE-3 on"."""
    from PySide6.QtCore import QTimer

    window = open_window()
    window.options.max_tokens.setValue(16)
    view = window.open_compare()
    title = view.acceptance.chart().title
    assert "send a message" not in title().lower() and title(), title()
    warming = view.tr("Warming up both modes…")
    seen: list[tuple[str, str]] = []
    view.runner.sig_job_started.connect(lambda _i, job, _r: seen.append(("start", job.tag.mode, job.tag.warmup)))
    sampler = QTimer()
    sampler.timeout.connect(lambda: seen.append(("title", title())))
    sampler.start(5)
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2):
        assert view.run()
    sampler.stop()
    counted = False
    for entry in seen:
        if entry[0] == "start":
            counted = not entry[2]
        elif counted:
            assert entry[1] != warming, seen
    assert counted
