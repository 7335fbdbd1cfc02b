"""The compare view, the demo pre-flight panel and the chat view's message parts speak Chinese under a
zh_CN translator (a .ts made by pyside6-lupdate from the real sources, a few entries filled in, compiled
by pyside6-lrelease); and the compare view's keys say what they do in Help → Keyboard shortcuts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QPushButton

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.shell.shortcuts_dialog import collect_shortcuts, key_text

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "eagle_chat" / "ui" / part for part in (
    "speed/compare_view.py", "speed/compare_controls.py", "speed/presets_row.py", "speed/speed_demo_offer.py", "speed/preflight.py",
    "chat/chat_view.py", "chat/message_parts.py")]
CHINESE = {
    ("CompareView", "EagleChat — baseline vs EAGLE-3"): "EagleChat — 基线与 EAGLE-3 对比",
    ("CompareControls", "Run comparison (F5)"): "运行对比 (F5)",
    ("CompareControls", "Draft-free baseline"): "无草稿基线",
    ("CompareView", "Type or pick a prompt to compare."): "请输入或选择一个提示词进行对比。",
    ("CompareControls", "Reload at {precision} precision, where greedy answers must be identical"):
        "以 {precision} 精度重新加载，此时贪心解码的回答必须完全相同",
    ("CompareControls", "Prompt to compare"): "要对比的提示词",
    ("CompareView", "Run the comparison"): "运行对比",
    ("CompareView", "Baseline (plain decoding)"): "基线（普通解码）",
    ("PresetsRow", "quicksort"): "快速排序",
    ("SpeedDemoOffer", "Use the s&peed-demo pair: build, load, tune, run"): "使用演示模型对(&P)：构建、加载、调优、运行",
    ("PreflightPanel", "EagleChat — demo pre-flight check"): "EagleChat — 演示前检查",
    ("PreflightPanel", "&Start the demo (full screen)"): "开始演示（全屏）(&S)",
    ("PreflightPanel", "Your prompts for the demo"): "你的演示提示词",
    ("ChatView", "Conversation"): "对话",
    ("message_parts", "You"): "你",
    ("message_parts", "stopped"): "已停止",
    ("message_parts", "Time to first token"): "首 token 延迟（TTFT）",
    ("message_parts", "{label}: {value}"): "{label}：{value}",
}


@pytest.fixture
def chinese(chinese_translator):
    return chinese_translator(CHINESE, sources=SOURCES)


def test_the_compare_view_and_the_preflight_panel_show_chinese(qtbot, open_window, chinese):
    window = open_window()
    view = window.open_compare()
    assert view.windowTitle() == "EagleChat — 基线与 EAGLE-3 对比"
    assert view.run_button.text() == "运行对比 (F5)"
    assert view.draft_free_baseline.text() == "无草稿基线"
    assert view.f32_button.toolTip() == "以 f32 精度重新加载，此时贪心解码的回答必须完全相同"  # named field filled
    assert view.prompt.accessibleName() == "要对比的提示词"
    assert "<b>基线（普通解码）</b>" in [label.text() for label in view.findChildren(QLabel)]
    assert view.findChild(QPushButton, "comparePreset1").text() == "&1 English · 快速排序"
    assert view.findChild(QPushButton, "comparePreset2").text() == "&2 中文 · 快速排序"
    assert view.findChild(QPushButton, "comparePreset2").toolTip() == "请用 Python 写一个快速排序，并解释时间复杂度。"
    assert view.offer.button.text() == "使用演示模型对(&P)：构建、加载、调优、运行"
    view.prompt.setEditText("   ")
    assert not view.run()
    assert view.summary.text() == "请输入或选择一个提示词进行对比。"
    f5 = [s for s in view.findChildren(QShortcut) if key_text(s.keys()) == QKeySequence("F5").toString()]
    assert [s.whatsThis() for s in f5] == ["运行对比"]
    view.close()

    panel = window.dialogs.open_preflight()
    assert panel.windowTitle() == "EagleChat — 演示前检查"
    assert panel.start_button.text() == "开始演示（全屏）(&S)"
    assert panel.prompt_list.accessibleName() == "你的演示提示词"
    panel.reject()


def test_the_chat_view_s_role_line_status_and_tooltip_show_chinese(qtbot, chinese):
    from eagle_chat.ui.chat import message_parts
    from eagle_chat.ui.chat.chat_view import ChatView

    view = ChatView()
    qtbot.addWidget(view)
    assert view.accessibleName() == "对话"
    stats = GenerationStats(mode="baseline", num_assistant_tokens=0, generated_tokens=5, input_tokens=30,
                            ttft_ms=12.0, tpot_ms=5.0, tokens_per_s=100.0, duration_ms=40.0)
    reply = Message("assistant", "Half", id=2, status="stopped", stats=stats)
    view.show_conversation(Conversation(messages=[Message("user", "Hi", id=1), reply]))
    text = view.toPlainText()
    assert "你" in text.splitlines() and "EagleChat (已停止)" in text  # the app's name is not translated
    assert "首 token 延迟（TTFT）：12 ms" in message_parts.stats_tooltip(reply).splitlines()


def test_the_compare_view_s_keys_are_described_in_the_shortcuts_list(qtbot, open_window):
    window = open_window()
    view = window.open_compare()
    shortcuts = view.findChildren(QShortcut)
    keys = {key_text(s.keys()) for s in shortcuts}
    assert {QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText) for k in ("F5", "F11", "Esc")} <= keys
    assert all(s.whatsThis() for s in shortcuts), [key_text(s.keys()) for s in shortcuts if not s.whatsThis()]
    rows = [row for row in collect_shortcuts(window) if row.where == view.windowTitle()]
    described = {row.keys: row.text for row in rows}
    assert described[QKeySequence(Qt.Key.Key_F11).toString(QKeySequence.SequenceFormat.NativeText)] \
        == "Full screen with large type on or off"
    assert "(no description)" not in described.values() and len(described) >= 3
    view.close()
