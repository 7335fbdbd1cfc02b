"""Smaller findings of the walk, each driven as the user did it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.helpers.window import send


def test_required_tool_use_is_not_carried_into_a_new_conversation(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(8)
    send(qtbot, window, "hello")
    first = window.controller.conversation.id
    combo = window.agent.combo
    index = combo.findData("required")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)  # as a user's pick
    assert window.agent.mode() == "required"
    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    assert window.controller.conversation.id != first
    assert window.agent.mode() != "required" and combo.currentText() != combo.itemText(index)
    window.controller.open_conversation(first)  # its own choice comes back with it
    assert window.agent.mode() == "required"


def test_open_the_file_says_so_where_no_program_can_open_it(qtbot, tmp_path, monkeypatch):
    """Where the system has no viewer for a cited file, "Open the file" failed silently."""
    from PySide6.QtGui import QDesktopServices

    from eagle_chat.ui.chat.source_preview import SourcePreview

    cited = tmp_path / "notes.docx"
    cited.write_bytes(b"x")
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda _url: False))
    preview = SourcePreview()
    qtbot.addWidget(preview)
    preview.show_source({"n": 1, "path": str(cited), "text": "a passage", "file": cited.name})
    assert not preview.status.isVisible()
    qtbot.mouseClick(preview.open_button, Qt.MouseButton.LeftButton)
    assert preview.status.isVisible() and str(tmp_path) in preview.status.text()


def test_file_dialogs_open_in_the_documents_folder_not_the_working_directory(qtbot, open_window, monkeypatch,
                                                                            tmp_path):
    """They opened in the process's working directory: the installer's folder, a shortcut's, the repository."""
    from PySide6.QtWidgets import QFileDialog

    from eagle_chat import paths

    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda _parent, _title, folder, _filters="": asked.append(folder) or ("", "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda _parent, _title, folder, _filters="": asked.append(folder) or ([], "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda _parent, _title, folder="": asked.append(folder) or ""))
    monkeypatch.chdir(tmp_path)
    window = open_window()
    window.message_actions.import_clicked()
    window.documents.choose_files()
    window.models_menu.choose_folders()
    assert asked and all(folder == paths.start_folder() for folder in asked), asked
    assert paths.start_folder() != str(tmp_path)
