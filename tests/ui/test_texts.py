"""The window's sentences are built from core facts in eagle_chat.ui.words.texts."""

from pathlib import Path

import pytest

from eagle_chat.core.acquisition.pull_steps import Progress
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.measure.compare import Comparison
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.ui.words import i18n, texts


@pytest.fixture
def english(qapp):
    """English as the window installs it: with its plural forms ("1 run", "3 runs")."""
    i18n.apply_language(qapp, "en")


def _stats(mode="speculative", rate=900.0):
    return GenerationStats(mode=mode, num_assistant_tokens=4, generated_tokens=10, input_tokens=3,
                           ttft_ms=5.0, tpot_ms=1.0, tokens_per_s=rate, duration_ms=12.0,
                           accepted_tokens=6, draft_tokens=8, acceptance=0.75, tokens_per_step=2.5)


def test_stats_summary_names_k_acceptance_and_steps():
    text = texts.stats_summary(_stats())
    assert "K=4" in text and "75%" in text and "2.50 tok/step" in text and "900.0 tok/s" in text
    assert "K=" not in texts.stats_summary(_stats(mode="baseline"))


def _comparison(base_rates, fast_rates, base_text="abc", fast_text="abc", **setup):
    from eagle_chat.core.measure.compare import ComparisonRun, ComparisonSetup

    runs = [ComparisonRun(0, "baseline", -1, True, _stats("baseline", 1.0), base_text),
            ComparisonRun(1, "speculative", -1, True, _stats("speculative", 1.0), fast_text)]
    for repeat, (b, f) in enumerate(zip(base_rates, fast_rates)):
        runs.append(ComparisonRun(len(runs), "baseline", repeat, False, _stats("baseline", b), base_text))
        runs.append(ComparisonRun(len(runs), "speculative", repeat, False, _stats("speculative", f), fast_text))
    return Comparison("p", runs, ComparisonSetup(**{"k": 4, "max_new_tokens": 64, **setup}))


def test_comparison_lines_say_speedup_what_was_compared_spread_and_where_answers_part(english):
    comparison = _comparison([100.0, 110.0, 90.0], [250.0, 240.0, 260.0], "abc", "abd", precision="f32",
                             draft_free_baseline=True)
    lines = texts.comparison_lines(comparison)
    assert lines[0].startswith("Speed-up ×2.50: EAGLE-3 was faster in every one of 3 runs")
    assert "draft-free" in lines[1] and "K=4" in lines[1] and "f32 precision" in lines[1]
    assert "3 runs per mode in alternating order" in lines[1] and "2 uncounted warm-up runs" in lines[1]
    assert "baseline 100.0 (90.0–110.0)" in lines[2] and "EAGLE-3 250.0 (240.0–260.0)" in lines[2]
    assert lines[-1].startswith("Answers differ: the answers part at character 2")
    same = _comparison([100.0, 100.0], [100.0, 100.0])
    assert texts.comparison_lines(same)[-1] == "Answers identical ✓"
    assert "0 draft tokens" in texts.comparison_lines(same)[1]


def test_speedups_within_the_noise_are_no_measurable_difference():
    overlap = _comparison([100.0, 130.0, 90.0], [120.0, 140.0, 95.0])  # ×1.20 but the ranges overlap
    assert overlap.verdict == "no-difference"
    assert texts.comparison_lines(overlap)[0] == (
        "No measurable difference (×1.20; the two modes' tokens/s ranges overlap)")
    close = _comparison([100.0, 101.0], [103.0, 104.0])  # apart, but within the 5 % noise floor
    assert close.verdict == "no-difference" and "within 5%" in texts.comparison_lines(close)[0]
    slower = _comparison([100.0, 105.0], [80.0, 85.0])
    assert slower.verdict == "slower" and texts.comparison_lines(slower)[0].startswith("EAGLE-3 was slower (×0.80)")
    single = _comparison([100.0], [300.0])
    assert single.verdict == "too-few-runs" and "too few to tell from noise" in texts.comparison_lines(single)[0]


def test_progress_text_with_bytes_and_without():
    line = texts.progress_text(Progress("Downloading x", done=1_000_000, total=4_000_000, speed=500_000,
                                        eta=125, file="openvino_model.bin"))
    assert "of" in line and "/s" in line and "2 min 05 s left" in line and line.endswith("openvino_model.bin")
    assert texts.progress_text(Progress("Exporting", message="working")) == "working"


def test_model_label_marks_the_bundled_pair():
    assert texts.TOY_NOTE in texts.model_label(ModelChoice(Path("/m/t"), Path("/m/d"), bundled=True))
    assert texts.model_label(ModelChoice(Path("/m/t"), None)) == "t (no draft)"


def test_where_two_code_answers_part_reads_on_one_line(english):
    """A code answer's snippet came with its line breaks and indentation: the summary grew five ragged lines."""
    from eagle_chat.core.measure.compare import find_divergence

    divergence = find_divergence("def f():\n    return 1\n", "def f():\n    return  2\n        # done")
    text = texts.divergence_text(divergence)
    assert "\n" not in text and "  " not in text, text
    assert text.endswith("“1 ⏎” vs EAGLE-3 “2 ⏎ # done”"), text


def test_the_stats_line_names_a_method_other_than_eagle3():
    stats = GenerationStats(mode="speculative", num_assistant_tokens=5, generated_tokens=40, input_tokens=9,
                            ttft_ms=5, tpot_ms=1, tokens_per_s=900.0, duration_ms=50, tokens_per_step=2.4)
    assert texts.stats_summary(stats).startswith("speculative · ")  # EAGLE-3, also a reply stored before methods
    stats.method = "prompt_lookup"
    assert texts.stats_summary(stats).startswith("speculative (prompt lookup) · ")
