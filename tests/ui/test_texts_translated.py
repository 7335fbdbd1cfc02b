"""The sentences built from core facts (ui/words/texts.py, ui/words/demo_texts.py, the start's notices) come out in the
installed language, numbers filled in: a .ts made by pyside6-lupdate from the real sources (so the contexts
and the plurals are what lupdate sees), a few entries filled in, compiled by pyside6-lrelease. Without a
translator they are the English ones, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton

from eagle_chat import paths
from eagle_chat.core.generation.devices import list_devices
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.core.measure.preflight import Check
from eagle_chat.core.models import speed_demo
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.ui.words import demo_texts, i18n, texts
from tests.ui.test_texts import _comparison

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "eagle_chat" / "ui" / "words" / "texts.py", ROOT / "eagle_chat" / "ui" / "words" / "demo_texts.py"]
COMPARED = ("Compared: EAGLE-3 {drafting} vs {baseline}, on {device}, {precision}; %n run(s) per mode in "
            "alternating order, {warm}; up to {tokens} new tokens")
CHINESE = {  # (context, source) -> translation; a list: the plural's forms (Chinese has one)
    ("texts", "speculative"): "投机解码",
    ("texts", "{rate:.1f} tok/s"): "{rate:.1f} tok/s",
    ("texts", "TTFT {ms:.0f} ms"): "首 token 延迟（TTFT）{ms:.0f} ms",
    ("texts", "{tokens} tokens"): "{tokens} 个 token",
    ("texts", "{rate:.2f} tok/step"): "{rate:.2f} tok/步",
    ("texts", "acceptance {share:.0%}"): "接受率 {share:.0%}",
    ("texts", "{runs} runs"): "{runs} 次生成",
    ("texts", "Speed-up ×{speedup:.2f}: EAGLE-3 was faster in every one of %n runs per mode"):
        ["加速 ×{speedup:.2f}：每种模式各 %n 次运行中，EAGLE-3 每次都更快"],
    ("texts", COMPARED): [("对比：EAGLE-3 {drafting} 与 {baseline}，在 {device} 上，{precision}；每种模式 %n 次运行，"
                           "交替进行，{warm}；最多 {tokens} 个新 token")],
    ("texts", "after %n uncounted warm-up run(s) of up to {tokens} tokens"): ["先进行 %n 次不计入的预热运行，每次最多 {tokens} 个 token"],
    ("texts", "{steps} steps"): "{steps} 个验证步",
    ("texts", "mean {mean:.2f} of {most} accepted"): "平均接受 {mean:.2f}/{most}",
    ("texts", "{rate:.2f} tokens/step"): "{rate:.2f} token/步",
    ("texts", "toy-quality bundled pair"): "内置的玩具级模型对",
    ("texts", "{name} ({folders})"): "{name}（{folders}）",
    ("texts", "Turn prefix caching off"): "关闭前缀缓存",
    ("texts", "EagleChat last stopped in the middle of a reply: the reply was cut off. {kept}"):
        "EagleChat 上次在生成回复的过程中停止：该回复被截断。{kept}",
    ("texts", "Nothing of that reply had been saved yet."): "该回复尚未保存任何内容。",
    ("texts", "{device} is not available here ({reason}); using CPU."): "{device} 在此不可用（{reason}）；改用 CPU。",
    ("demo_texts", ("Screen {width}×{height} is smaller than the large type needs ({need_width}×{need_height}): "
                    "use a larger display or lower the display scaling.")):
        "屏幕 {width}×{height} 小于大字号所需的尺寸（{need_width}×{need_height}）：请使用更大的显示器或降低显示缩放。",
    ("demo_texts", "Compiled-model cache in place (%n blob(s), {size}).{origin}"): ["已编译模型缓存就绪（%n 个 blob，{size}）。{origin}"],
    ("demo_texts", " This load took {seconds:.1f} s, from the cache."): "本次加载用时 {seconds:.1f} 秒，读自缓存。",
    ("demo_texts", "&Tune now"): "立即调优(&T)",
}


@pytest.fixture
def chinese(chinese_translator):
    return chinese_translator(CHINESE, sources=SOURCES)


def _stats() -> GenerationStats:
    return GenerationStats(mode="speculative", num_assistant_tokens=4, generated_tokens=10, input_tokens=3,
                           ttft_ms=5.4, tpot_ms=1.0, tokens_per_s=900.04, duration_ms=12.0, accepted_tokens=6,
                           draft_tokens=8, acceptance=0.756, tokens_per_step=2.5, runs=2)


SCREEN = Check("screen", "warn", {"width": 1280, "height": 720, "need_width": 1600, "need_height": 900})
CACHE = Check("cache", "ok", {"dir": "x", "blobs": 3, "bytes": 12_000_000, "load_time_ms": 1234})


def _record() -> StepRecord:
    record = StepRecord()
    record.extend([(3, None, None), (1, None, None), (2, None, None)])
    return record


def test_stats_plurals_and_demo_sentences_come_out_in_chinese_with_their_numbers(chinese):
    assert texts.stats_summary(_stats()) == (
        "投机解码 · 900.0 tok/s · 首 token 延迟（TTFT）5 ms · 10 个 token · K=4 · 2.50 tok/步 · 接受率 76% · 2 次生成")
    lines = texts.comparison_lines(_comparison([100.0, 110.0, 90.0], [250.0, 240.0, 260.0], precision="f32"))
    assert lines[0] == "加速 ×2.50：每种模式各 3 次运行中，EAGLE-3 每次都更快"  # %n plural, .format after it
    assert lines[1].startswith("对比：EAGLE-3 K=4 与 ") and "每种模式 3 次运行" in lines[1]
    assert "先进行 2 次不计入的预热运行，每次最多 " in lines[1]  # a plural inside a plural's field
    assert demo_texts.check_line(SCREEN) == (
        "屏幕 1280×720 小于大字号所需的尺寸（1600×900）：请使用更大的显示器或降低显示缩放。")
    assert demo_texts.check_line(CACHE) == "已编译模型缓存就绪（3 个 blob，12.0 MB）。本次加载用时 1.2 秒，读自缓存。"
    assert demo_texts.fix_label("tune") == "立即调优(&T)"
    # the pieces callers split on survive the translation: the chart's title, the model bar's name
    caption = texts.acceptance_caption(_record(), 4)
    assert caption.split(" · ") == ["2 个验证步", "平均接受 0.50/4", "2.00 token/步"]
    label = texts.model_label(ModelChoice(Path("/m/t"), Path("/m/d"), name="Qwen", bundled=True))
    assert label == "Qwen（t + d） — 内置的玩具级模型对" and label.split(" — ")[0] == "Qwen（t + d）"


def test_in_english_the_sentences_are_the_english_ones_with_their_plural_forms(qapp):
    i18n.apply_language(qapp, "en")  # as the window does: English plural forms only
    assert texts.stats_summary(_stats()) == (
        "speculative · 900.0 tok/s · TTFT 5 ms · 10 tokens · K=4 · 2.50 tok/step · acceptance 76% · 2 runs")
    lines = texts.comparison_lines(_comparison([100.0, 110.0, 90.0], [250.0, 240.0, 260.0], precision="f32"))
    assert lines[0] == "Speed-up ×2.50: EAGLE-3 was faster in every one of 3 runs per mode"
    assert "; 3 runs per mode in alternating order, after 2 uncounted warm-up runs of up to " in lines[1]
    assert demo_texts.check_line(SCREEN) == ("Screen 1280×720 is smaller than the large type needs (1600×900): use "
                                             "a larger display or lower the display scaling.")
    assert demo_texts.check_line(CACHE) == "Compiled-model cache in place (3 blobs, 12.0 MB). This load took 1.2 s, from the cache."
    assert demo_texts.fix_label("tune") == "&Tune now"
    assert texts.acceptance_caption(_record(), 4) == "2 steps · mean 0.50 of 4 accepted · 2.00 tokens/step"
    assert texts.interrupted_notice(1).startswith("1 reply was cut off when EagleChat last closed;")
    # the description lupdate sees is the core's own words
    assert texts.SPEED_DEMO_NOTE == speed_demo.DESCRIPTION


def test_the_start_notices_and_their_button_come_out_in_chinese(qtbot, chinese, open_window):
    """app.py: a device that is not here, and the crash marker's notice with its "turn prefix caching off"."""
    present = {d.kind for d in list_devices()}
    absent = next(kind for kind in ("NPU", "GPU") if kind not in present)
    for path in (paths.settings_file(), paths.reply_marker_file()):
        path.parent.mkdir(parents=True, exist_ok=True)
    # "en": the window installs no translator of its own; the test's stays the one in use
    paths.settings_file().write_text(json.dumps({"device": absent, "prefix_cache": True, "language": "en"}),
                                     encoding="utf-8")
    paths.reply_marker_file().write_text(json.dumps({"prefix_cache": True}), encoding="utf-8")
    window = open_window()
    notice = window.notice.text()
    assert f"{absent} 在此不可用（" in notice and "）；改用 CPU。" in notice
    assert "EagleChat 上次在生成回复的过程中停止：该回复被截断。该回复尚未保存任何内容。" in notice
    offer = window.findChild(QPushButton, "noticeActionButton")
    assert offer.isVisibleTo(window) and offer.text() == "关闭前缀缓存"
