"""`eagle-chat bench --conversation N`: one conversation turn by turn, with the app's chat settings."""

import json
import subprocess
import sys

from eagle_chat.core.generation.engine import GenerationSettings, PipelineSpec
from eagle_chat.core.measure.conversation import run_conversation


def test_the_conversation_grows_turn_by_turn_and_caching_changes_no_text(tiny_pair):
    report = run_conversation(PipelineSpec(*tiny_pair, precision="f32"), ["Sort a list.", "And reverse it?"], 4,
                              GenerationSettings(max_new_tokens=16, num_assistant_tokens=3), compare_cache=True)
    on, off = report.runs
    assert (on.prefix_cache, off.prefix_cache) == (True, False)
    assert [t.turn for t in on.turns] == [1, 2, 3, 4]
    prompts = [t.prompt_tokens for t in on.turns]
    assert prompts == sorted(prompts) and prompts[3] > prompts[0] + 3 * 8  # each reply is fed back
    assert [t.prompt_tokens for t in off.turns] == prompts
    assert report.identical is True
    assert all(t.ttft_ms > 0 and t.generated_tokens > 0 and t.text for t in on.turns)
    assert "same text" in report.table() and len(report.table().splitlines()) == 2 + 4
    # As in the app, the conversation is prefilled for each next turn with caching on (only there).
    assert on.turns[0].prefill_ms is None and all(t.prefill_ms > 0 for t in on.turns[1:])
    assert all(t.prefill_ms is None for t in off.turns) and "prefill ms" in report.table()


def test_the_conversation_bench_can_leave_the_prefill_out(tiny_pair):
    report = run_conversation(PipelineSpec(*tiny_pair, precision="f32"), ["Sort a list."], 2,
                              GenerationSettings(max_new_tokens=8, num_assistant_tokens=3), next_turn_prefill=False)
    assert all(t.prefill_ms is None for t in report.runs[0].turns) and "prefill ms" not in report.table()


def test_bench_conversation_cli_uses_the_app_settings_and_writes_json(tiny_pair, tmp_path):
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "settings.json").write_text(json.dumps(
        {"num_assistant_tokens": 4, "max_new_tokens": 12, "precision": "f32", "system_prompt": "Be brief.",
         "prefix_cache": True}), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "bench", "--conversation", "3", "--prompt", "Hello there.",
         "--prompt", "Write quicksort.", "--compare-cache", "--json", str(tmp_path / "c.json"), "--home", str(home)],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "3-turn conversation" in out.stdout and "EAGLE-3 K=4" in out.stdout and "12 max new tokens" in out.stdout
    assert "texts with prefix caching on and off identical: yes" in out.stdout
    data = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert [t["turn"] for t in data["turns"]] == [1, 2, 3]
    assert {"turn", "prompt_tokens", "ttft_ms", "tokens_per_s", "generated_tokens", "text"} <= set(data["turns"][0])
    assert all(t["generated_tokens"] <= 12 for t in data["turns"])
    assert data["prefix_cache"] is True and data["prefix_cache_off"]["prefix_cache"] is False
    assert data["identical_texts"] is True
    assert [t["text"] for t in data["turns"]] == [t["text"] for t in data["prefix_cache_off"]["turns"]]


def test_bench_no_prefix_cache_needs_no_comparison_and_compare_needs_a_conversation(tmp_path):
    out = subprocess.run([sys.executable, "-m", "eagle_chat", "bench", "--compare-cache", "--home", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "--compare-cache needs --conversation" in out.stderr
