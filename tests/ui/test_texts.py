"""The window's sentences are built from core facts in eagle_chat.ui.texts."""

from pathlib import Path

from eagle_chat.core.acquisition.steps import Progress
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.measure.compare import Comparison
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.ui import texts


def _stats(mode="speculative", rate=900.0):
    return GenerationStats(mode=mode, num_assistant_tokens=4, generated_tokens=10, input_tokens=3,
                           ttft_ms=5.0, tpot_ms=1.0, tokens_per_s=rate, duration_ms=12.0,
                           accepted_tokens=6, draft_tokens=8, acceptance=0.75, tokens_per_step=2.5)


def test_stats_summary_names_k_acceptance_and_steps():
    text = texts.stats_summary(_stats())
    assert "K=4" in text and "75%" in text and "2.50 tok/step" in text and "900.0 tok/s" in text
    assert "K=" not in texts.stats_summary(_stats(mode="baseline"))


def test_comparison_lines_say_speedup_source_and_where_answers_part():
    comparison = Comparison("p", [_stats("baseline", 100.0)], [_stats("speculative", 250.0)], "abc", "abd",
                            precision="f32", draft_free_baseline=True)
    lines = texts.comparison_lines(comparison)
    assert lines[0].startswith("Speed-up ×2.50") and "f32" in lines[0]
    assert "draft-free" in lines[1]
    assert lines[-1].startswith("Answers differ: the answers part at character 2")
    same = Comparison("p", [_stats("baseline")], [_stats()], "abc", "abc")
    assert texts.comparison_lines(same)[-1] == "Answers identical ✓"
    assert "0 draft tokens" in texts.comparison_lines(same)[1]


def test_progress_text_with_bytes_and_without():
    line = texts.progress_text(Progress("Downloading x", done=1_000_000, total=4_000_000, speed=500_000,
                                        eta=125, file="openvino_model.bin"))
    assert "of" in line and "/s" in line and "2 min 05 s left" in line and line.endswith("openvino_model.bin")
    assert texts.progress_text(Progress("Exporting", message="working")) == "working"


def test_model_label_marks_the_bundled_pair():
    assert texts.TOY_NOTE in texts.model_label(ModelChoice(Path("/m/t"), Path("/m/d"), bundled=True))
    assert texts.model_label(ModelChoice(Path("/m/t"), None)) == "t (no draft)"
