"""Smaller findings of the walk, each driven as the user did it."""

from __future__ import annotations

import os

import pytest
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
    window.controller.conversations.open_conversation(first)  # its own choice comes back with it
    assert window.agent.mode() == "required"


@pytest.mark.posix_only
@pytest.mark.parametrize("exit_code", [3, 0])
def test_open_the_file_says_so_where_no_program_can_open_it(qtbot, tmp_path, monkeypatch, exit_code):
    """Where the system has no viewer for a cited file, "Open the file" failed silently: Qt's openUrl reports
    success once xdg-open starts, and xdg-open's "no method available" went to a terminal. Here a stand-in
    xdg-open on PATH records what it was asked and ends as the real one does (3: no program for it)."""
    from eagle_chat.ui.chat.source_preview import SourcePreview

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    asked = tmp_path / "asked.txt"
    script = bin_dir / "xdg-open"
    script.write_text(f'#!/bin/sh\nprintf "%s" "$1" > "{asked}"\nexit {exit_code}\n', encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    cited = tmp_path / "notes.docx"
    cited.write_bytes(b"x")
    preview = SourcePreview()
    qtbot.addWidget(preview)
    preview.show_source({"n": 1, "path": str(cited), "text": "a passage", "file": cited.name})
    qtbot.waitExposed(preview)
    assert not preview.status.isVisible()
    qtbot.mouseClick(preview.open_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: asked.exists(), timeout=5000)
    assert asked.read_text(encoding="utf-8") == str(cited)
    if exit_code:
        qtbot.waitUntil(preview.status.isVisible, timeout=5000)
        assert str(tmp_path) in preview.status.text()
        status = preview.status  # painted whole: its wrapped lines fit the height it was given
        assert status.heightForWidth(status.width()) <= status.height()
    else:
        qtbot.wait(300)
        assert not preview.status.isVisible()


def test_the_preview_marks_and_scrolls_to_the_sentence_that_answers_the_question(qtbot):
    from PySide6.QtGui import QPalette

    from eagle_chat.ui.chat.source_preview import SourcePreview

    filler = " ".join(f"Note {i}: the committee reviewed the schedule." for i in range(60))
    fact = "灯塔看守人的船名叫海燕九号。"
    preview = SourcePreview()
    qtbot.addWidget(preview)
    preview.show_source({"n": 1, "path": "/nowhere/记录.docx", "text": filler + "\n" + fact + "\n" + filler},
                        "灯塔看守人的船叫什么名字？")
    qtbot.waitExposed(preview)
    qtbot.wait(20)
    assert preview.highlighted == fact
    view = preview.passage
    cursor = view.textCursor()
    assert view.viewport().rect().contains(view.cursorRect(cursor))  # scrolled to it, deep in the passage
    # Painted: the selection colour fills the marked sentence's line.
    qtbot.wait(50)
    image = view.viewport().grab().toImage()
    row = view.cursorRect(cursor).center().y()
    colour = preview.palette().color(QPalette.ColorRole.Highlight).rgb()
    marked = sum(image.pixelColor(x, row).rgb() == colour for x in range(0, image.width(), 2))
    assert marked > 20, marked
    preview.show_source({"n": 2, "path": "/nowhere/a.txt", "text": filler}, "Who owns the boat?")
    assert preview.highlighted == "" and not view.extraSelections()  # no sentence holds its words


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
