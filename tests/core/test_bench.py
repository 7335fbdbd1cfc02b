"""`eagle-chat bench`: the report's structure, lossless check, and agreement with raw OpenVINO GenAI."""

import json
import shutil
import subprocess
import sys

import openvino_genai as ov_genai

from eagle_chat.core.generation.devices import pipeline_properties
from eagle_chat.core.generation.engine import PipelineSpec
from eagle_chat.core.measure.bench import choose, run_bench
from eagle_chat.core.measure.tuning import tune_key
from eagle_chat.settings import load_settings
from tests.trees import assert_drafted_as_tree


def test_run_bench_matches_raw_genai(tiny_pair, prompts):
    target, draft = tiny_pair
    report = run_bench(PipelineSpec(target, draft, precision="f32"), prompts[:2], ks=(3, 5), repeats=1,
                       max_new_tokens=32)
    assert [s.k for s in report.summary] == [3, 5]
    assert all(s.identical_output for s in report.summary)
    assert all(s.speedup > 0 and s.baseline_tokens_per_s > 0 for s in report.summary)
    modes = [(r.mode, r.k, r.prompt_index) for r in report.runs]
    assert sorted(modes, key=str) == sorted(
        [("baseline", None, i) for i in range(2)] + [("speculative", k, i) for k in (3, 5) for i in range(2)],
        key=str,
    )
    assert choose(report).k in (3, 5)

    props = pipeline_properties("CPU", precision="f32")
    pipe = ov_genai.LLMPipeline(str(target), "CPU", draft_model=ov_genai.draft_model(str(draft), "CPU", **props),
                                **props)
    for run in (r for r in report.runs if r.mode == "speculative"):
        config = pipe.get_generation_config()
        config.max_new_tokens = 32
        config.num_assistant_tokens = run.k
        raw = pipe.generate([prompts[run.prompt_index]], config)
        assert raw.texts[0] == run.text
        assert raw.extended_perf_metrics.get_num_accepted_tokens() == run.accepted_tokens
        assert raw.perf_metrics.get_num_generated_tokens() == run.generated_tokens


def test_bench_cli_on_a_pair_it_has_never_seen(tiny_pair, tmp_path):
    target = shutil.copytree(tiny_pair[0], tmp_path / "some-model")
    draft = shutil.copytree(tiny_pair[1], tmp_path / "some-draft")
    (tmp_path / "prompts.txt").write_text("def parse_args(argv):\n\nWrite quicksort in Python.\n", encoding="utf-8")
    home = tmp_path / "home"
    out = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "bench", "--model", str(target), "--draft", str(draft),
         "--prompts-file", str(tmp_path / "prompts.txt"), "--prompt", "Reverse a string in Python.",
         "--max-new-tokens", "24", "--k", "3", "4", "--repeats", "2", "--precision", "f32", "--tune",
         "--json", str(tmp_path / "bench.json"), "--home", str(home)],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "speed-up" in out.stdout and "chosen K" in out.stdout
    data = json.loads((tmp_path / "bench.json").read_text(encoding="utf-8"))
    assert len(data["runs"]) == 3 * 2 * 3  # 3 prompts x 2 repeats x (baseline + 2 K)
    assert {"mode", "k", "prompt_index", "repeat", "text", "tokens_per_s", "ttft_ms", "tpot_ms",
            "generated_tokens", "accepted_tokens", "draft_acceptance"} <= set(data["runs"][0])
    for run in data["runs"]:  # tokens per verification step, adding up to the generated tokens
        assert sum(run["steps"]) == run["generated_tokens"]
        if run["mode"] == "baseline":
            assert set(run["steps"]) == {1}
        else:
            assert max(run["steps"]) <= run["k"] + 1 and len(run["steps"]) < run["generated_tokens"]
    assert [s["k"] for s in data["summary"]] == [3, 4]
    assert all(s["identical_output"] is True for s in data["summary"])
    assert {"k", "baseline_tokens_per_s", "speculative_tokens_per_s", "speedup", "identical_output"} <= set(
        data["summary"][0]
    )
    assert data["chosen_k"] in (3, 4)
    settings, _ = load_settings(home / "config" / "settings.json")
    assert settings.tuned_k[tune_key(target, draft, "CPU")] == data["chosen_k"]


def test_bench_cli_reports_a_broken_folder(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "bench", "--model", str(tmp_path), "--draft", str(tmp_path),
         "--home", str(tmp_path / "home")],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 2
    assert "has no openvino_model.xml" in out.stderr


def test_tree_drafting_is_swept_and_a_winning_tree_is_used_by_the_app(tiny_pair, tmp_path, qtbot):
    target = shutil.copytree(tiny_pair[0], tmp_path / "t")
    draft = shutil.copytree(tiny_pair[1], tmp_path / "d")
    home = tmp_path / "home"
    out = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "bench", "--model", str(target), "--draft", str(draft),
         "--prompt", "Write quicksort in Python.", "--max-new-tokens", "24", "--k", "3", "7", "--tree", "1:2",
         "--repeats", "1", "--tune", "--json", str(tmp_path / "b.json"), "--home", str(home)],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert [(s["k"], s["tree"]) for s in data["summary"]] == [(3, None), (7, None), (3, "1x2"), (7, "1x2")]
    assert all(s["identical_output"] for s in data["summary"])
    trees = [r for r in data["runs"] if r["tree"] == "1x2"]
    assert len(trees) == 2
    for run in trees:  # a 1x2 tree has 2 nodes: 2 verified per step where a chain verifies K (3 or 7)
        assert_drafted_as_tree(run["k"], run["generated_tokens"], run["tokens_per_step"], run["draft_tokens"],
                               1, 2)
    assert "chosen_tree" in data and " t1x2" in out.stdout

    # Force the tree as the tuned choice and check the app's next reply drafts a tree.
    from eagle_chat.app import create_main_window
    from eagle_chat.settings import save_settings

    settings, _ = load_settings(home / "config" / "settings.json")
    key = tune_key(target, draft, "CPU")
    settings.tuned_k[key], settings.tuned_tree[key] = 7, "1x2"
    settings.target_dir, settings.draft_dir = str(target), str(draft)
    save_settings(settings, home / "config" / "settings.json")
    window = create_main_window(["--home", str(home)])
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(lambda: window.controller.state == "ready", timeout=60_000)
        assert window.model_bar.k_slider.value() == 7
        window.options.max_tokens.setValue(24)
        window.prompt.setPlainText("Write quicksort in Python.")
        with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=60_000) as blocker:
            window.send()
        stats = blocker.args[1].stats
        assert stats.tree == "1x2" and "tree 1x2" in window.stats_label.text()
        assert_drafted_as_tree(7, stats.generated_tokens, stats.tokens_per_step, stats.draft_tokens, 1, 2)
    finally:
        window.close()
