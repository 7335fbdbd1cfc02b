"""Compare mode, auto-tune (persisted and used), demo mode and exports, on the real window and engine."""

from __future__ import annotations

import csv
import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFontInfo

from eagle_chat import paths
from eagle_chat.core.measure.tuning import tune_key
from eagle_chat.settings import load_settings
from tests.gui import REPLY_TIMEOUT_MS, close_window, send, wait_ready
from tests.trees import assert_drafted_as_tree, tree_size, verification_steps


def at_f32(qtbot, window):
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS):
        window.set_precision("f32")
    wait_ready(qtbot, window)


def test_compare_fills_both_panes_and_reports_identical_answers(qtbot, open_window):
    window = open_window()
    at_f32(qtbot, window)
    window.options.max_tokens.setValue(64)
    qtbot.mouseClick(window.compare_button, Qt.MouseButton.LeftButton)
    view = window.dialogs.compare
    assert view is not None and view.isVisible()
    view.repeats.setValue(2)
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2) as blocker:
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    comparison = blocker.args[0]
    assert view.baseline_pane.toPlainText() and view.speculative_pane.toPlainText()
    assert view.baseline_pane.toPlainText() == view.speculative_pane.toPlainText()
    assert comparison.identical and len(comparison.baseline) == len(comparison.speculative) == 2
    summary = view.summary.text()
    assert "Answers identical" in summary and f"×{comparison.speedup:.2f}" in summary
    assert comparison.speedup > 0
    assert len(view.chart.series_by_mode("baseline")) == 2 and len(view.chart.series_by_mode("speculative")) == 2
    assert window.controller.conversation is None or not window.controller.conversation.messages


def test_compare_export_writes_csv_json_png(qtbot, open_window, tmp_path):
    window = open_window()
    window.options.max_tokens.setValue(24)
    view = window.open_compare()
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS):
        view.run("def parse_args(argv):")
    written = view.export(tmp_path / "out")
    assert sorted(p.suffix for p in written) == [".csv", ".json", ".png"]
    rows = list(csv.DictReader(written[0].open(encoding="utf-8")))
    # The warm-ups are recorded and marked; then three rounds in alternating order.
    assert [(r["mode"], r["warmup"]) for r in rows] == [("baseline", "True"), ("speculative", "True")] + [
        (mode, "False") for mode in ("baseline", "speculative", "speculative", "baseline", "baseline", "speculative")]
    data = json.loads(written[1].read_text(encoding="utf-8"))
    assert data["verdict"] in ("faster", "slower", "no-difference") and "alternating order" in data["compared"]
    assert data["speculative_text"] == view.speculative_pane.raw  # the reply's text; the pane shows it rendered
    assert written[2].stat().st_size > 1000


def test_demo_mode_is_full_screen_with_large_type_and_presets(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(16)
    normal_view = window.open_compare()
    normal, normal_px = normal_view.font().pointSizeF(), QFontInfo(normal_view.font()).pixelSize()
    view = window.open_compare(demo=True)
    assert view.windowState() & Qt.WindowState.WindowFullScreen
    for widget in (view.prompt, view.run_button, view.speculative_pane, view.chart):  # what the room reads
        assert widget.font().pointSizeF() > normal * 1.4
    # The details are for the presenter and the exports: never below the normal size, growing with the screen's
    # height, and smaller than what the room reads.
    summary_px = QFontInfo(view.summary.font()).pixelSize()
    assert normal_px <= summary_px < QFontInfo(view.prompt.font()).pixelSize()
    assert view.presets_row.isVisible()
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS):
        qtbot.keyClick(view.prompt, Qt.Key.Key_F5)
    assert view.speculative_pane.toPlainText()


def test_auto_tune_is_persisted_and_used_by_the_next_reply(qtbot, open_window, eagle_home):
    window = open_window()
    dialog = window.open_tune()
    dialog.ks, dialog.prompts, dialog.max_new_tokens = (3, 6), ("Write quicksort in Python.",), 32
    with qtbot.waitSignal(dialog.sig_chosen, timeout=REPLY_TIMEOUT_MS * 2) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    chosen = blocker.args[0]
    assert chosen in (3, 6)
    assert {s.k for s in dialog.report.summary} == {3, 6}
    assert f"K={chosen}" in dialog.status.text()
    key = tune_key(paths.tiny_target_dir(), paths.tiny_draft_dir(), "CPU")
    saved, _ = load_settings(paths.settings_file())
    assert saved.tuned_k[key] == chosen
    assert window.model_bar.k_slider.value() == chosen
    dialog.close()
    window.options.max_tokens.setValue(16)
    _, result = send(qtbot, window, "hello")
    assert result.stats.num_assistant_tokens == chosen

    # A later session starts on the tuned K even if the slider was moved meanwhile.
    window.model_bar.k_slider.setValue(4 if chosen != 4 else 5)
    close_window(qtbot, window)
    again = open_window()
    assert again.model_bar.k_slider.value() == chosen


def test_auto_tune_can_sweep_draft_trees_and_the_next_reply_uses_the_winner(qtbot, open_window):
    window = open_window()
    dialog = window.open_tune()
    # A 1x2 tree has 2 nodes: at K=3 and K=7 GenAI verifies 2 a step, a chain 3 or 7 (never 2).
    dialog.ks, dialog.trees, dialog.prompts, dialog.max_new_tokens = (3, 7), ((1, 2),), ("Write quicksort.",), 32
    dialog.trees_check.setChecked(True)
    assert dialog.configurations() == [(3, None), (7, None), (3, (1, 2)), (7, (1, 2))]
    with qtbot.waitSignal(dialog.sig_chosen, timeout=REPLY_TIMEOUT_MS * 2) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    k, tree = blocker.args
    assert {(s.k, s.tree) for s in dialog.report.summary} == {(3, None), (7, None), (3, "1x2"), (7, "1x2")}
    tree_runs = [r for r in dialog.report.runs if r.tree == "1x2"]
    assert len(tree_runs) == 2
    for run in tree_runs:  # the trees really were drafted
        assert_drafted_as_tree(run.k, run.generated_tokens, run.tokens_per_step, run.draft_tokens, 1, 2)
    chain = next(r for r in dialog.report.runs if r.k == 7 and r.tree is None)
    chain_steps = verification_steps(chain.generated_tokens, chain.tokens_per_step)
    assert chain.draft_tokens > tree_size(1, 2) * (chain_steps - 2)  # the same sweep as a chain: not 2 a step
    key = tune_key(paths.tiny_target_dir(), paths.tiny_draft_dir(), "CPU")
    saved, _ = load_settings(paths.settings_file())
    assert saved.tuned_k[key] == k and saved.tuned_tree.get(key, "") == tree
    dialog.close()
    window.options.max_tokens.setValue(16)
    _, result = send(qtbot, window, "hello")
    assert result.stats.num_assistant_tokens == k and (result.stats.tree or "") == tree


def test_a_run_stopped_during_auto_tune_is_not_counted(qtbot, open_window):
    window = open_window()
    dialog = window.open_tune()
    dialog.ks, dialog.prompts, dialog.max_new_tokens = (3, 6), ("Write a long story about parsers.",), 400
    stopped = []

    def stop_the_k6_run(handle):
        if not stopped:
            stopped.append(handle)
            qtbot.keyClick(window.prompt, Qt.Key.Key_Escape)  # the window's Stop, mid-run

    def watch(_index, job, handle):
        if job.tag[1] == 6:
            handle.sig_rate_points.connect(lambda _points: stop_the_k6_run(handle))

    dialog.runner.sig_job_started.connect(watch)
    with qtbot.waitSignal(dialog.sig_chosen, timeout=REPLY_TIMEOUT_MS * 2) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert stopped
    assert blocker.args[0] == 3  # K=6 has no complete measurement: it cannot win
    assert [s.k for s in dialog.report.summary] == [3]
    assert all(r.k != 6 for r in dialog.report.runs)
    assert "1 stopped run not counted" in dialog.status.text()  # the English plural form


def test_conversation_stats_export(qtbot, open_window, tmp_path):
    window = open_window()
    window.options.max_tokens.setValue(16)
    send(qtbot, window, "one")
    window.model_bar.draft_toggle.setChecked(False)
    send(qtbot, window, "two")
    written = window.export_conversation_stats(tmp_path)
    rows = list(csv.DictReader(written[0].open(encoding="utf-8")))
    assert [r["mode"] for r in rows] == ["speculative", "baseline"]
    assert json.loads(written[1].read_text())["replies"][1]["accepted_tokens"] == 0
    assert written[2].suffix == ".png" and written[2].stat().st_size > 1000


def test_compare_with_a_draft_free_baseline_pipeline(qtbot, open_window):
    window = open_window()
    at_f32(qtbot, window)
    window.options.max_tokens.setValue(48)
    view = window.open_compare()
    view.draft_free_baseline.setChecked(True)
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2) as blocker:
        view.run("Write quicksort in Python.")
    comparison = blocker.args[0]
    assert window.controller.draft_free_loaded
    assert comparison.identical and comparison.draft_free_baseline
    assert "vs a draft-free pipeline" in view.summary.text()
    assert comparison.baseline[0].accepted_tokens == 0 and comparison.baseline[0].draft_tokens == 0
    # Reloading the model releases the second copy.
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS):
        window.load_model()
    assert not window.controller.draft_free_loaded


BUSY = "The model is busy; try again when the reply has finished."


def test_a_reload_at_f32_that_fails_says_why_and_runs_nothing_later(qtbot, open_window, tiny_pair, tmp_path):
    import shutil

    target = shutil.copytree(tiny_pair[0], tmp_path / "target")
    draft = shutil.copytree(tiny_pair[1], tmp_path / "draft")
    window = open_window("--model", str(target), "--draft", str(draft))
    view = window.open_compare()
    ir = (target / "openvino_model.xml").rename(tmp_path / "model.xml")  # the folder broke after it loaded
    with qtbot.waitSignal(window.controller.sig_load_failed, timeout=REPLY_TIMEOUT_MS):
        view.rerun_f32()
    assert "Could not reload at f32" in view.summary.text() and "openvino_model.xml" in view.summary.text()
    ir.rename(target / "openvino_model.xml")
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS):
        window.set_precision("f32")  # a later load that works does not start the forgotten comparison
    assert not view.runner.is_running() and "Could not reload at f32" in view.summary.text()


def test_a_reload_at_f32_asked_during_a_load_replaces_that_load_and_runs(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(32)
    view = window.open_compare()
    view.repeats.setValue(1)
    assert window.load_model()  # at the default precision
    first = window.loads.pending.load_id
    with qtbot.waitSignal(view.sig_finished, timeout=REPLY_TIMEOUT_MS * 2) as finished:
        view.rerun_f32()  # the load under way gives way to the f32 one; the comparison runs after it
    assert window.controller.loaded.spec.precision == "f32" and window.controller.loaded.load_id != first
    assert finished.args[0].identical and "Could not" not in view.summary.text()


def test_a_draft_free_baseline_refused_while_a_load_runs_says_so(qtbot, open_window):
    window = open_window()
    view = window.open_compare()
    view.draft_free_baseline.setChecked(True)
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS):
        assert window.set_precision("f32")
        assert not view.run("def f():")
        assert view.summary.text() == BUSY
    wait_ready(qtbot, window)
    assert not view.runner.is_running() and not window.controller.draft_free_loaded


def test_speed_demo_pair_is_built_registered_and_loaded_from_the_menu(qtbot, open_window):
    window = open_window()
    with qtbot.waitSignal(window.controller.sig_loaded, timeout=REPLY_TIMEOUT_MS * 2):
        window.findChild(QAction, "speedDemoAction").trigger()
    assert "speed-demo" in window.registry.names()
    assert "toy model widened" in window.model_bar.model_label.text()
    spec = window.controller.loaded.spec
    assert spec.target_dir == paths.models_dir() / "speed-demo" / "target"
    assert window.model_bar.k_slider.value() == 3  # the pair's starting K on CPU
    window.options.max_tokens.setValue(16)
    _, result = send(qtbot, window, "Write quicksort in Python.")
    assert result.stats.mode == "speculative" and result.stats.accepted_tokens > 0
