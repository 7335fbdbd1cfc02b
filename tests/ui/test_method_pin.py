"""The Speculation list in the side panel: a method pinned there is the method the next reply runs, the window
says so before (the next-reply line) and after (the stats line, the speed chart's line, the acceptance chart);
"Off" and the EAGLE-3 button are one switch; a pin the newly loaded model lacks falls back to Automatic and
says so; the remembered pin comes back at start. Real window, real engine host, the tiny pair."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from eagle_chat import paths
from eagle_chat.core.models.choice import ModelChoice
from tests.gui import REPLY_TIMEOUT_MS, send
from tests.ui import clip_probe

CODE_EDIT = "def parse_args(argv):\n    return argv[1:]\n\nShow parse_args again with a docstring."


def items(combo) -> list[str]:
    return [combo.itemText(row) for row in range(combo.count())]


def choose(qtbot, combo, text: str) -> None:
    """Pick ``text`` in the closed list with the arrow keys, as a keyboard user does (each key is a choice)."""
    combo.setFocus()
    target = combo.findText(text)
    assert target >= 0, (text, items(combo))
    while combo.currentIndex() != target:
        with qtbot.waitSignal(combo.activated, timeout=1_000):
            qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up)


def send_pasted(qtbot, window, text: str):
    """Paste ``text`` (several lines: typed, Enter would send the first) into the message box and press Enter."""
    window.prompt.setFocus()
    window.prompt.insertPlainText(text)
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as blocker:
        qtbot.keyClick(window.prompt, Qt.Key.Key_Return)
    return blocker.args


def painted_whole(label) -> bool:
    """The label's text fits the room it was laid out in (its lines' height, its parents' rectangles)."""
    return (label.isVisible() and label.heightForWidth(label.width()) <= label.height()
            and clip_probe.shown_whole(label))


def test_a_pinned_prompt_lookup_runs_and_the_window_names_it_before_and_after(qtbot, open_window):
    window = open_window()
    window.show()
    qtbot.waitExposed(window)
    window.options.max_tokens.setValue(32)
    combo, line, toggle = window.options.speculation, window.side.next_reply, window.model_bar.draft_toggle
    assert items(combo) == ["Automatic", "EAGLE-3", "Prompt lookup", "Off"]  # what the tiny pair on CPU offers
    assert combo.currentData() == "auto" and "Automatic chooses per kind of work" in line.text()

    choose(qtbot, combo, "Prompt lookup")
    qtbot.waitUntil(lambda: line.text().startswith("Next reply: prompt lookup (pinned), K="), timeout=2_000)
    qtbot.waitUntil(lambda: painted_whole(line), timeout=2_000)
    assert toggle.isChecked()
    message, result = send_pasted(qtbot, window, CODE_EDIT)
    assert (result.stats.method, result.stats.method_basis) == ("prompt_lookup", "asked")
    assert message.stats.method == "prompt_lookup"  # what is stored with the reply
    label = window.stats_label
    assert label.text().startswith("speculative (prompt lookup) · ")
    qtbot.waitUntil(lambda: painted_whole(label), timeout=2_000)  # once laid out again for its new text
    key = window.chart.keys()[-1]
    assert window.chart.series_for(key).name() == "prompt lookup"
    assert window.chart._figures_text(key).startswith("prompt lookup — latest reply")
    assert window.side.acceptance.caption.startswith("prompt lookup · ")
    window.binder.flush()
    assert json.loads(paths.settings_file().read_text(encoding="utf-8"))["speculation_method"] == "prompt_lookup"

    choose(qtbot, combo, "Off")  # Off is the EAGLE-3 button switched off
    assert not toggle.isChecked()
    qtbot.waitUntil(lambda: line.text().startswith("Next reply: plain decoding (pinned)"), timeout=2_000)
    _, result = send(qtbot, window, "What is a parser?")
    assert (result.stats.method, result.stats.mode) == ("off", "baseline")
    assert window.stats_label.text().startswith("baseline · ")
    qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)  # on again: back to the method chosen before Off
    assert combo.currentData() == "prompt_lookup"
    qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
    assert combo.currentData() == "off"


def test_a_pin_the_new_model_does_not_offer_falls_back_to_automatic_and_says_so(qtbot, open_window, tiny_pair):
    window = open_window()
    window.options.max_tokens.setValue(16)
    combo = window.options.speculation
    choose(qtbot, combo, "EAGLE-3")
    qtbot.waitUntil(lambda: "Next reply: EAGLE-3 (pinned)" in window.side.next_reply.text(), timeout=2_000)
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS):
        assert window.set_model(ModelChoice(tiny_pair[0], None))  # no draft: no EAGLE-3
    assert items(combo) == ["Automatic", "Prompt lookup", "Off"] and combo.currentData() == "auto"
    assert "does not offer EAGLE-3: Speculation is back to Automatic" in window.notice.text()
    assert window.settings.speculation_method == "auto"
    _, result = send(qtbot, window, "What is a parser?")  # sent, not refused: Automatic runs what the pair has
    assert result is not None and result.stats.method == "off"
    choose(qtbot, combo, "Prompt lookup")  # without a draft prompt lookup still runs when pinned
    _, result = send_pasted(qtbot, window, CODE_EDIT)
    assert result.stats.method == "prompt_lookup"


def test_the_remembered_pin_comes_back_at_start(qtbot, open_window):
    paths.settings_file().parent.mkdir(parents=True, exist_ok=True)
    paths.settings_file().write_text(json.dumps({"speculation_method": "prompt_lookup"}), encoding="utf-8")
    window = open_window()
    assert window.options.speculation.currentData() == "prompt_lookup"
    window.options.max_tokens.setValue(16)
    _, result = send(qtbot, window, "What is a parser?")
    assert result.stats.method == "prompt_lookup"
