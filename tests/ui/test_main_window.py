"""The real window on the real engine: send, stream, chart, modes, K, stop, close, reopen."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCharts import QChartView
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QPlainTextEdit,
    QPushButton,
    QSlider,
    QTextBrowser,
)

from eagle_chat.core.models.choice import ModelChoice
from tests.gui import REPLY_TIMEOUT_MS, close_window, send, wait_ready


def letters(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", text)


def test_widgets_carry_their_object_names(open_window):
    window = open_window()
    for name, kind in [
        ("chatView", QTextBrowser), ("promptEdit", QPlainTextEdit), ("sendButton", QPushButton),
        ("stopButton", QPushButton), ("deviceCombo", QComboBox), ("assistantTokensSlider", QSlider),
        ("speedChart", QChartView), ("draftToggle", QPushButton),
    ]:
        assert window.findChild(kind, name) is not None, name
    slider = window.findChild(QSlider, "assistantTokensSlider")
    assert (slider.minimum(), slider.maximum()) == (3, 7)
    assert window.findChild(QPushButton, "draftToggle").isCheckable()
    assert window.findChild(object, "statsLabel") is not None
    assert window.findChild(object, "conversationList") is not None
    assert "toy-quality" in window.model_bar.model_label.text()


def test_absent_devices_are_listed_disabled_with_a_reason(open_window):
    window = open_window()
    combo = window.model_bar.device_combo
    model = combo.model()
    rows = {combo.itemData(i): model.item(i) for i in range(combo.count())}
    assert rows["CPU"].isEnabled()
    present = {d.kind for d in window.devices}
    for kind in ("GPU", "NPU"):
        if kind not in present:
            assert not rows[kind].isEnabled()
            assert "No Intel" in rows[kind].toolTip()


def test_send_streams_a_speculative_reply_and_charts_it(qtbot, open_window):
    window = open_window()
    chunks = []
    window.controller.engine.worker.sig_chunk.connect(lambda *args: chunks.append(args), Qt.ConnectionType.DirectConnection)
    window.options.max_tokens.setValue(96)
    message, result = send(qtbot, window, "Write a Python function that reverses a string.")
    assert len(chunks) > 3, "several chunk signals before finished"
    assert result.stats.mode == "speculative" and result.stats.generated_tokens > 0
    assert message.content == result.text and message.status == "complete"
    # Rendered Markdown drops the markup; every line's words must be there.
    shown = letters(window.chat.toPlainText())
    lines = [line for line in result.text.splitlines() if letters(line) and not line.startswith("```")]
    assert lines and all(letters(line) in shown for line in lines)
    series = window.chart.series_by_mode("speculative")
    assert len(series) == 1 and series[0].count() > 2
    assert "speculative" in window.stats_label.text() and "K=5" in window.stats_label.text()
    assert window.prompt.toPlainText() == ""


def test_draft_off_gives_a_baseline_series(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(48)
    send(qtbot, window, "def parse_args(argv):")
    qtbot.mouseClick(window.model_bar.draft_toggle, Qt.MouseButton.LeftButton)
    assert not window.model_bar.draft_toggle.isChecked()
    _, result = send(qtbot, window, "def parse_args(argv):")
    assert result.stats.mode == "baseline" and result.stats.accepted_tokens == 0
    assert len(window.chart.series_by_mode("baseline")) == 1
    assert len(window.chart.series_by_mode("speculative")) == 1
    assert "baseline" in window.stats_label.text()


def test_k_slider_applies_to_the_next_reply(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(48)
    for k in (3, 7):
        window.model_bar.k_slider.setValue(k)
        _, result = send(qtbot, window, "Write quicksort in Python.")
        assert result.stats.num_assistant_tokens == k
        assert f"K={k}" in window.stats_label.text()
    assert window.settings.num_assistant_tokens == 7


def test_sampling_is_locked_to_greedy_while_a_draft_is_loaded(qtbot, open_window, tiny_pair):
    window = open_window()
    assert not window.options.sampling.isEnabled()
    assert "greedy" in window.options.sampling_note.text().lower()  # the why is in its tooltip
    assert "OpenVINO GenAI" in window.options.sampling_note.toolTip()
    window.model_bar.draft_toggle.setChecked(False)  # still loaded: GenAI streams it greedily even at K=0
    assert not window.options.sampling.isEnabled()
    window.options.sampling.setChecked(True)
    assert not window.generation_settings().do_sample
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS):
        window.set_model(ModelChoice(tiny_pair[0], None))
    assert window.options.sampling.isEnabled() and window.options.sampling_note.text() == ""
    assert not window.model_bar.draft_toggle.isEnabled()
    window.options.max_tokens.setValue(8)
    _, result = send(qtbot, window, "hello")
    assert result.stats.mode == "baseline" and window.generation_settings().do_sample


def test_stop_mid_reply(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(4000)
    with qtbot.waitSignal(window.controller.sig_reply_text, timeout=REPLY_TIMEOUT_MS):
        send(qtbot, window, "Explain context managers.", wait=False)
    assert window.stop_button.isEnabled()
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as blocker:
        qtbot.mouseClick(window.stop_button, Qt.MouseButton.LeftButton)
    message, result = blocker.args
    assert result.stopped and message.status == "stopped"
    assert result.stats.generated_tokens < 4000
    assert window.send_button.isEnabled() and not window.stop_button.isEnabled()


def test_escape_stops_and_shift_enter_adds_a_line(qtbot, open_window):
    window = open_window()
    qtbot.keyClicks(window.prompt, "line one")
    qtbot.keyClick(window.prompt, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(window.prompt, "line two")
    assert window.prompt.toPlainText() == "line one\nline two"
    window.options.max_tokens.setValue(4000)
    with qtbot.waitSignal(window.controller.sig_reply_text, timeout=REPLY_TIMEOUT_MS):
        qtbot.keyClick(window.prompt, Qt.Key.Key_Return)
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as blocker:
        qtbot.keyClick(window.prompt, Qt.Key.Key_Escape)
    assert blocker.args[1].stopped


@pytest.mark.slow
def test_close_mid_reply_then_reopen_on_the_same_home(qtbot, open_window):
    window = open_window(next_turn_prefill=True)
    window.options.max_tokens.setValue(4000)
    send(qtbot, window, "Say hello.")
    # The reply's own text: the background prefill after "Say hello." streams none (sig_background_started).
    with qtbot.waitSignal(window.controller.sig_reply_text, timeout=REPLY_TIMEOUT_MS):
        send(qtbot, window, "Write a long story about parsers.", wait=False)
    conversation_id = window.controller.conversation.id
    window.close()
    assert window.notice.text() == "Closing after the reply stops…"
    with qtbot.waitSignal(window.closer.sig_closed, timeout=REPLY_TIMEOUT_MS):
        pass
    assert not window.controller.engine.is_running() and not window.isVisible()

    again = open_window()
    assert again.conversations.titles() == ["Say hello."]
    again.controller.conversations.open_conversation(conversation_id)
    messages = again.controller.conversation.messages
    assert [m.role for m in messages] == ["user", "assistant", "user", "assistant"]
    assert messages[3].status == "stopped" and messages[3].content
    assert "Write a long story about parsers." in again.chat.toPlainText()


def test_conversations_new_rename_search_delete(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(16)
    send(qtbot, window, "First topic")
    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    send(qtbot, window, "Second topic")
    assert window.conversations.titles() == ["Second topic", "First topic"]
    window.conversations.list.setCurrentRow(1)
    window.conversations.rename_current("Renamed")
    assert "Renamed" in window.conversations.titles()
    runs = window.search.searches
    qtbot.keyClicks(window.conversations.search, "renam")  # debounced: one query once typing pauses
    qtbot.waitUntil(lambda: window.conversations.titles() == ["Renamed"], timeout=5_000)
    assert window.search.searches == runs + 1
    results = []
    window.search.sig_results.connect(results.append)
    send(qtbot, window, "more about the second")  # a reply to the hidden one keeps it hidden
    qtbot.waitUntil(lambda: len(results) >= 2, timeout=5_000)  # searched again after the message and reply
    assert results[-1] == {window.controller.store.list_conversations()[1].id}
    assert window.conversations.titles() == ["Renamed"]
    window.conversations.search.setText("")
    assert window.conversations.titles() == ["Second topic", "Renamed"]
    window.conversations.confirm = False
    window.conversations.list.setCurrentRow(0)
    window.conversations.delete_current()
    assert window.conversations.titles() == ["Renamed"]


def test_a_reply_moves_its_conversation_to_the_top_without_a_rebuild(qtbot, open_window, monkeypatch):
    window = open_window()
    window.options.max_tokens.setValue(8)
    for topic in ("First topic", "Second topic", "Third topic"):
        qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
        send(qtbot, window, topic)
    first = next(c.id for c in window.controller.store.list_conversations() if c.title == "First topic")
    window.controller.conversations.open_conversation(first)
    rebuilds = []
    monkeypatch.setattr(window.conversations, "set_conversations", lambda *a: rebuilds.append(a))
    send(qtbot, window, "More on the first topic")
    assert rebuilds == []
    assert window.conversations.titles() == ["First topic", "Third topic", "Second topic"]
    assert window.conversations.titles() == [c.title for c in window.controller.store.list_conversations()]
    assert window.conversations.current_id() == first


def test_broken_model_folder_is_reported_and_the_app_opens_on_its_usual_pair(qtbot, open_window, tmp_path):
    from eagle_chat import paths

    window = open_window("--model", str(tmp_path), "--draft", str(tmp_path), wait_loaded=False)
    qtbot.waitUntil(lambda: not window.notice.isHidden() and "instead" in window.notice.text(), timeout=30_000)
    assert "openvino_model.xml" in window.notice.text() and "tiny-qwen3" in window.notice.text()
    wait_ready(qtbot, window)  # a fresh home opens on the bundled pair
    assert window.controller.loaded.spec.target_dir == paths.tiny_target_dir()
    assert window.settings.target_dir is None and "toy-quality" in window.model_bar.model_label.text()
    send(qtbot, window, "hello")  # and it answers


def test_a_broken_model_on_the_command_line_loses_nothing(qtbot, open_window, tiny_pair, tmp_path):
    from eagle_chat import paths
    from eagle_chat.settings import load_settings

    window = open_window("--model", str(tiny_pair[0]))  # saved as the pair the app opens on
    window.options.max_tokens.setValue(4)
    send(qtbot, window, "Keep this conversation")
    kept = window.controller.conversation.id
    close_window(qtbot, window)

    again = open_window("--model", str(tmp_path / "typo"), wait_loaded=False)
    wait_ready(qtbot, again)
    assert again.controller.loaded.spec.target_dir == tiny_pair[0]
    assert again.controller.loaded.spec.draft_dir is None
    assert "does not exist" in again.notice.text() and "opens with instead: tiny-qwen3 (no draft)" in again.notice.text()
    assert again.controller.conversation.id == kept
    assert [m.content for m in again.controller.conversation.messages][0] == "Keep this conversation"
    assert "tiny-qwen3" in again.model_bar.model_label.text()
    settings, _ = load_settings(paths.settings_file())
    assert settings.target_dir == str(tiny_pair[0]) and settings.draft_dir is None


@pytest.mark.slow
def test_imported_pair_is_listed_and_the_app_starts_on_it(qtbot, open_window, tiny_pair, tmp_path, eagle_home):
    import shutil
    import subprocess
    import sys

    target = shutil.copytree(tiny_pair[0], tmp_path / "my-target")
    draft = shutil.copytree(tiny_pair[1], tmp_path / "my-draft")
    home = tmp_path / "portable"
    run = lambda *args: subprocess.run([sys.executable, "-m", "eagle_chat", "models", *args, "--home", str(home)],
                                       capture_output=True, text=True, timeout=120)
    imported = run("import", str(target), str(draft), "--name", "mine")
    assert imported.returncode == 0, imported.stderr
    listed = run("list")
    assert listed.returncode == 0 and "mine" in listed.stdout

    window = open_window("--home", str(home))
    assert window.controller.loaded.spec.target_dir == target
    assert window.controller.loaded.spec.draft_dir == draft
    assert "mine" in window.model_bar.model_label.text()
    window.models_menu.refresh()
    titles = [a.text() for a in window.models_menu.actions()]
    assert any(t.startswith("mine") for t in titles) and "Get models…" in titles
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS):
        window.models_menu.choose_bundled()
    assert "toy-quality" in window.model_bar.model_label.text()
    close_window(qtbot, window)
    again = open_window("--home", str(home))  # the explicit choice sticks over the newest registered pair
    assert "toy-quality" in again.model_bar.model_label.text()


def test_the_busy_indicator_shows_until_the_first_text(qtbot, open_window):
    """While a reply streams its text is the progress: the indicator's animation repainted the status bar ~70
    times a second (benchmarks/ui_overhead.py's window), taken from the inference on a 2-core laptop. It shows
    for the wait before the first text (a long prompt's prefill can take seconds)."""
    window = open_window()
    busy = window.status.busy
    seen: list[tuple[str, bool]] = []
    window.controller.sig_state.connect(lambda state: seen.append((state, not busy.isHidden())))
    window.controller.sig_reply_text.connect(lambda message, text: seen.append(("text", not busy.isHidden())))
    window.options.max_tokens.setValue(96)
    send(qtbot, window, "Write a Python function that reverses a string.")
    assert ("generating", True) in seen  # shown while the prompt is read
    assert seen[seen.index(("generating", True)) + 1] == ("text", False)  # gone with the first text
    assert seen[-1] == ("ready", False)
