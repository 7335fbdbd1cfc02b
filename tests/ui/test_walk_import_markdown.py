"""Importing a Markdown export (or a broken file) said only the JSON parser's words — "… was not imported: The file
is not valid JSON (Expecting value: line 1 column 1 (char 0))." — in English in every language (issue 40, item
10). Now the notice names what the file is and what to import instead (or where it stops being JSON), and says
nothing was changed; the conversations and the file are indeed as they were. Driven through Conversation →
Import with the file dialog answered, checked on the notice as shown (its label whole in its space)."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QFileDialog

from tests.gui import send


def _import(window, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    window.findChild(QAction, "actionImportConversation").trigger()


def _shown_whole(window) -> str:
    QApplication.processEvents()  # the notice laid out, as it is painted
    label = window.notice.label
    assert window.notice.isVisible() and label.isVisible()
    if label.wordWrap():
        assert label.heightForWidth(label.width()) <= label.height(), (label.height(), label.text())
    return label.text()


def _with_a_markdown_export(qtbot, open_window, folder):
    """The window, shown, with one reply exported as Markdown to ``folder``/chat.md."""
    window = open_window()
    window.show()
    qtbot.waitExposed(window)
    window.options.max_tokens.setValue(8)
    send(qtbot, window, "Say hello.")
    assert window.message_actions.export_to(folder / "chat.md", "md")
    return window


def test_importing_a_markdown_export_or_a_broken_file_says_what_is_wrong_and_that_nothing_changed(
        qtbot, open_window, monkeypatch, tmp_path):
    window = _with_a_markdown_export(qtbot, open_window, tmp_path)
    markdown = (tmp_path / "chat.md").read_bytes()
    titles, current = window.conversations.titles(), window.controller.conversation.id
    stored = len(window.controller.store.list_conversations())

    _import(window, monkeypatch, tmp_path / "chat.md")
    shown = _shown_whole(window)
    assert shown.startswith("chat.md was not imported: This is a Markdown export, which is for reading: only a "
                            "JSON export can be imported"), shown
    assert "Nothing was changed" in shown and "Expecting value" not in shown and "char 0" not in shown
    assert window.conversations.titles() == titles and window.controller.conversation.id == current
    assert len(window.controller.store.list_conversations()) == stored
    assert (tmp_path / "chat.md").read_bytes() == markdown

    broken = tmp_path / "cut.json"
    broken.write_text('{"format": "eagle-chat-conversation",\n "messages": [', encoding="utf-8")
    _import(window, monkeypatch, broken)
    shown = _shown_whole(window)
    assert "cut.json was not imported: The file is not an EagleChat JSON export: it stops being valid JSON at " \
           "line 2, column 15." in shown and "Nothing was changed" in shown, shown
    assert window.conversations.titles() == titles


def test_the_import_notice_is_in_chinese_too(qtbot, qapp, open_window, monkeypatch, tmp_path):
    from eagle_chat.ui.words import i18n

    window = _with_a_markdown_export(qtbot, open_window, tmp_path)
    i18n.apply_language(qapp, "zh_CN")  # the shipped translation; the shared-app fixture puts English back
    _import(window, monkeypatch, tmp_path / "chat.md")
    shown = _shown_whole(window)
    assert shown.startswith("chat.md") and "Markdown" in shown and "JSON" in shown, shown
    assert "not imported" not in shown and "for reading" not in shown and "Nothing was changed" not in shown, shown
