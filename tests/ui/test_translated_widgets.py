"""The Get models dialog, the composer, the conversation list and the chat's code blocks speak Chinese
once a zh_CN translator is installed: a .ts made by pyside6-lupdate from the real sources (so the
contexts are the ones lupdate sees), a few entries filled in, compiled by pyside6-lrelease."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFormLayout, QLabel

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    ROOT / "eagle_chat" / "ui" / "models" / "get_models.py",
    ROOT / "eagle_chat" / "ui" / "chat" / "composer.py",
    ROOT / "eagle_chat" / "ui" / "chat" / "conversation_list.py",
    ROOT / "eagle_chat" / "ui" / "chat" / "message_actions.py",
    ROOT / "eagle_chat" / "ui" / "chat" / "markdown_html.py",
    ROOT / "eagle_chat" / "ui" / "chat" / "message_links.py",
    ROOT / "eagle_chat" / "ui" / "chat" / "thinking_block.py",
]
DELETE_FOLLOWING = "Delete this message and the %n message(s) after it? Other versions stay."
CHINESE = {
    ("GetModelsDialog", "Get models"): "获取模型",
    ("GetModelsDialog", "Download"): "下载",
    ("GetModelsDialog", "Device:"): "设备：",
    ("GetModelsDialog", "Endpoint"): "端点",
    ("PromptEdit", "Message"): "消息",
    ("Composer", "Send"): "发送",
    ("Composer", "Stop"): "停止",
    ("ConversationList", "New conversation"): "新建对话",
    ("ThinkingBlocks", "Thought for {seconds:.1f} s"): "已思考 {seconds:.1f} 秒",
    ("markdown_html", "Copy code"): "复制代码",
    ("message_links", "Copy"): "复制",
    ("MessageActions", DELETE_FOLLOWING): ["删除这条消息及其后的 %n 条消息？其他版本保留。"],
}


@pytest.fixture
def chinese(chinese_translator):
    return chinese_translator(CHINESE, sources=SOURCES)


def test_get_models_dialog_shows_chinese(qtbot, chinese):
    from eagle_chat.ui.models.get_models import GetModelsDialog

    dialog = GetModelsDialog()
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "获取模型"
    assert dialog.download_button.text() == "下载"
    form = dialog.findChild(QFormLayout)
    label = form.labelForField(dialog.device_combo)
    assert isinstance(label, QLabel) and label.text() == "设备："
    assert dialog.endpoint_edit.accessibleName() == "端点"
    assert dialog.close_button.text() == "Close"  # not in this test's .ts: the English source shows


def test_composer_and_conversation_list_show_chinese(qtbot, chinese):
    from eagle_chat.ui.chat.composer import Composer
    from eagle_chat.ui.chat.conversation_list import ConversationList

    composer, conversations = Composer(), ConversationList()
    qtbot.addWidget(composer)
    qtbot.addWidget(conversations)
    assert (composer.send_button.text(), composer.stop_button.text()) == ("发送", "停止")
    assert composer.prompt.accessibleName() == "消息"
    assert conversations.new_button.text() == "新建对话"


def test_plurals_and_format_fields_survive_translation(chinese):
    from eagle_chat.core.storage.conversation import Message
    from eagle_chat.ui.chat.thinking_block import ThinkingBlocks

    assert QCoreApplication.translate("MessageActions", DELETE_FOLLOWING, "", 3) == \
        "删除这条消息及其后的 3 条消息？其他版本保留。"
    message = Message("assistant", "42", thinking="hmm", id=7)
    blocks = ThinkingBlocks()
    blocks._seen_answer[7] = 3.24
    assert "已思考 3.2 秒" in blocks.html(message)


def test_chinese_copy_links_are_still_left_out_of_the_drafted_tint(qtbot, chinese):
    from eagle_chat.core.storage.conversation import Conversation, Message
    from eagle_chat.ui.chat.chat_view import ChatView
    from eagle_chat.ui.chat.draft_tint import document_runs

    view = ChatView()
    qtbot.addWidget(view)
    message = Message("assistant", "Before.\n\n```python\nx = 1\n```\n\nAfter.", id=1)
    view.show_conversation(Conversation(messages=[message]))
    shown = view.document().toPlainText()
    assert "复制代码" in shown and "复制" in shown  # the links are drawn in Chinese
    runs = [text for _, text in document_runs(view.document(), 0, view.document().characterCount())]
    assert any("x = 1" in text for text in runs) and any("After." in text for text in runs)
    assert not [text for text in runs if "复制" in text]  # neither the code block's nor the footer's link
