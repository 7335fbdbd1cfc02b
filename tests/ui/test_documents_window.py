"""Documents in the window, on the real engine and the tiny embedder: files attached with the button, dropped
on the chat or pasted as paths are indexed in a child process (progress, Stop, a clear word per bad file);
the reply is given the planted passage, shows it under Sources, and a click previews it; whole documents go
to the model once; the passages are kept on reload and in the export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QGuiApplication
from PySide6.QtWidgets import QApplication, QFileDialog

from eagle_chat.core.storage import export
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.chat.chat_view import ChatView
from eagle_chat.ui.chat.source_preview import SourcePreview
from tests.documents.test_index import FACT, QUESTION, filler, library
from tests.gui import send
from tests.ui.test_every_action import chat_links, link_hrefs

INDEX_TIMEOUT_MS = 120_000


def indexed(qtbot, window, start) -> tuple[bool, str]:
    """Run ``start()`` (an attach) and wait until its indexing run ends; (complete, sentence)."""
    with qtbot.waitSignal(window.documents.runner.sig_finished, timeout=INDEX_TIMEOUT_MS) as done:
        start()
    return tuple(done.args)


def names(window) -> list[str]:
    return [Path(p).name for p in window.documents.bar.chip_paths()]


def test_attached_files_are_indexed_and_the_reply_shows_and_previews_the_planted_passage(
        qtbot, open_window, tmp_path, monkeypatch):
    window = open_window()
    window.options.max_tokens.setValue(16)
    folder = library(tmp_path / "lib")
    (folder / "binary.txt").write_bytes(b"\x00\x01\x02 not text")
    chosen = sorted(str(p) for p in folder.iterdir())
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(lambda *a, **k: (chosen, "")))
    bar = window.documents.bar
    complete, sentence = indexed(qtbot, window, lambda: qtbot.mouseClick(bar.attach_button, Qt.MouseButton.LeftButton))
    assert not complete and sentence == ""  # one file failed; the run itself went through
    assert "1 file(s) could not be indexed" in window.notice.text() and "binary" in window.notice.text()
    assert names(window) == ["minutes.docx", "notes.txt", "page.html", "readme.md", "report.pdf", "tool.py"]

    reply, result = send(qtbot, window, QUESTION)
    top = reply.sources[0]
    assert (top["n"], Path(top["path"]).name, top["page"]) == (1, "report.pdf", 2) and FACT in top["text"]
    assert window.documents.grounding.last_mode == "passages"
    assert result.stats.input_tokens > 250  # the passages went to the model with the question
    sent = window.controller.conversation.history()[-2]["content"]
    assert "[1] report.pdf, page 2:\n" + FACT in sent and sent.endswith("Question: " + QUESTION)

    link = f"source:{reply.id}:1"
    assert link in chat_links(window)
    assert "Sources: [1] report.pdf, page 2" in window.chat.toPlainText()
    window.chat.anchorClicked.emit(QUrl(link))  # what a click on the link does
    preview = window.chat.findChild(SourcePreview)
    assert preview.isVisible() and preview.windowTitle() == "[1] report.pdf, page 2"
    assert FACT in preview.passage.toPlainText() and preview.path.text() == str(folder / "report.pdf")
    assert preview.highlighted == FACT  # the sentence that answers the question before the reply is marked
    preview.close()

    # Kept: another conversation and back, and in the Markdown export.
    conversation_id = window.controller.conversation.id
    window.new_conversation()
    assert window.documents.bar.chip_paths() == []
    window.controller.conversations.open_conversation(conversation_id)
    assert names(window)[-2:] == ["report.pdf", "tool.py"]
    assert window.controller.conversation.messages[-1].sources == reply.sources
    assert f"source:{reply.id}:1" in chat_links(window)
    assert "[1] report.pdf, page 2 — `" in export.to_markdown(window.controller.conversation)


def drop(widget, files: list[Path]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f)) for f in files])
    centre = QPointF(widget.rect().center())
    for kind in (QDropEvent.Type.DragEnter, QDropEvent.Type.Drop):
        event = (QDropEvent(centre, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier, kind))
        QApplication.sendEvent(widget, event)
        assert event.isAccepted()


def test_dropped_and_pasted_files_go_whole_to_the_model_once_and_a_chip_detaches_one(qtbot, open_window, tmp_path):
    window = open_window()
    window.options.max_tokens.setValue(8)
    fact, other = tmp_path / "fact.md", tmp_path / "other.txt"
    fact.write_text("# Keeper\n\n" + FACT, encoding="utf-8")
    other.write_text(filler("garden", 2), encoding="utf-8")
    indexed(qtbot, window, lambda: drop(window.chat.viewport(), [fact]))
    QGuiApplication.clipboard().setText(f'"{other}"\n')
    window.prompt.setFocus()
    indexed(qtbot, window, lambda: qtbot.keyClick(window.prompt, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier))
    assert window.prompt.toPlainText() == "" and names(window) == ["fact.md", "other.txt"]
    QGuiApplication.clipboard().setText("not a path at all")  # plain words are pasted as words
    qtbot.keyClick(window.prompt, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert window.prompt.toPlainText() == "not a path at all"
    window.prompt.clear()

    first, _ = send(qtbot, window, "Who feeds the puffins?")
    assert window.documents.grounding.last_mode == "whole"
    assert [(Path(s["path"]).name, s["repeat"]) for s in first.sources] == [("fact.md", False), ("other.txt", False)]
    second, _ = send(qtbot, window, "How many?")
    assert [(s["n"], s["repeat"]) for s in second.sources] == [(1, True), (2, True)]
    history = window.controller.conversation.history()
    assert FACT in history[0]["content"] and FACT not in history[2]["content"]  # sent once, named after
    assert "also apply: [1], [2]." in history[2]["content"]

    chip = next(c for c in window.documents.bar.chips_box.children() if getattr(c, "property", None)
                and c.property("path") == str(other))
    qtbot.mouseClick(chip, Qt.MouseButton.LeftButton)
    assert names(window) == ["fact.md"]


def test_stop_ends_indexing_keeping_what_was_indexed_and_attaching_again_completes(qtbot, open_window, tmp_path):
    window = open_window()
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(40):
        (folder / f"note{i:02}.txt").write_text(filler(f"topic{i}", 20), encoding="utf-8")
    bar = window.documents.bar

    def stop_after_two(path, outcome, done, message):
        if done == 2:
            qtbot.mouseClick(bar.stop_button, Qt.MouseButton.LeftButton)

    window.documents.runner.sig_file.connect(stop_after_two)
    complete, sentence = indexed(qtbot, window, lambda: window.documents.attach([folder]))
    window.documents.runner.sig_file.disconnect(stop_after_two)
    assert not complete and sentence.startswith("Indexing stopped")
    assert bar.progress.text() == sentence and not bar.stop_button.isVisible()
    kept = len(names(window))
    assert 2 <= kept < 40
    assert indexed(qtbot, window, lambda: window.documents.attach([folder])) == (True, "")
    assert len(names(window)) == 40


def test_the_models_citations_link_to_their_passages_and_nowhere_else(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    sources = [{"n": 1, "path": "/d/report.pdf", "page": 2, "text": FACT, "score": 0.1, "repeat": False}]
    reply = Message("assistant", "Seventeen [1], see [7].\n\n```\nx = a[1]\n```", id=5, sources=sources)
    view.show_conversation(Conversation(messages=[Message("user", "How many?", id=4), reply]))
    links = link_hrefs(view)
    assert links.count("source:5:1") == 2  # the citation in the text and the Sources line; not [7], not code
    assert "x = a[1]" in view.toPlainText()
    view.anchorClicked.emit(QUrl("source:5:1"))
    assert view.findChild(SourcePreview).isVisible()



def test_the_library_is_indexed_in_the_background_and_a_conversation_answers_from_it_when_ticked(
        qtbot, open_window, tmp_path, monkeypatch):
    window = open_window()
    window.show()  # clicks land where the box is drawn
    qtbot.waitExposed(window)
    window.options.max_tokens.setValue(8)
    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "keeper.md").write_text("# Keeper\n\n" + FACT, encoding="utf-8")
    (folder / "garden.txt").write_text(filler("garden", 5), encoding="utf-8")
    bar, library = window.documents.bar, window.documents.library
    assert not bar.library_check.isVisibleTo(window)  # no library yet
    qtbot.mouseClick(bar.library_button, Qt.MouseButton.LeftButton)
    dialog = library.dialog
    assert dialog.isVisible() and dialog.folders.count() == 0 and not dialog.update_button.isEnabled()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(folder)))
    with qtbot.waitSignal(library.runner.sig_finished, timeout=INDEX_TIMEOUT_MS):
        qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert dialog.folders.item(0).text() == f"{folder} — 2 files"
    assert dialog.progress.text() == "The library is up to date." and not dialog.stop_button.isVisible()
    dialog.close()

    assert bar.library_check.isVisibleTo(window) and not bar.library_check.isChecked()
    plain, _ = send(qtbot, window, QUESTION)
    assert plain.sources is None  # not ticked: the library is not asked
    qtbot.mouseClick(bar.library_check, Qt.MouseButton.LeftButton)
    grounded, _ = send(qtbot, window, QUESTION)
    assert Path(grounded.sources[0]["path"]).name == "keeper.md" and FACT in grounded.sources[0]["text"]
    window.new_conversation()  # the box is per conversation
    assert bar.library_check.isVisibleTo(window) and not bar.library_check.isChecked()

    (folder / "tides.txt").write_text(filler("tides", 3), encoding="utf-8")
    (folder / "garden.txt").unlink()
    dialog = library.open_dialog()
    with qtbot.waitSignal(library.runner.sig_finished, timeout=INDEX_TIMEOUT_MS):
        qtbot.mouseClick(dialog.update_button, Qt.MouseButton.LeftButton)
    assert dialog.folders.item(0).text() == f"{folder} — 2 files"
    assert sorted(Path(r.path).name for r in window.documents.grounding.store.files("library")) == [
        "keeper.md", "tides.txt"]
    dialog.folders.setCurrentRow(0)
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    assert dialog.folders.count() == 0 and window.documents.grounding.store.files("library") == []
    assert not bar.library_check.isVisibleTo(window)


def test_a_chinese_question_finds_its_passage_among_attached_files_with_no_embedder(
        qtbot, open_window, tmp_path, monkeypatch):
    from tests.documents.chinese_library import ZH_FACT, ZH_QUESTION, chinese_library

    monkeypatch.delenv("EAGLE_CHAT_EMBEDDER")  # what a new user has: no embedder pulled
    window = open_window()
    window.options.max_tokens.setValue(8)
    folder = chinese_library(tmp_path / "库")
    complete, _ = indexed(qtbot, window, lambda: window.documents.attach(sorted(folder.iterdir())))
    assert complete and window.documents.grounding.keyword_only
    assert "by their words only" in window.notice.text() and "(0.6 GB)" in window.notice.text()
    window.prompt.setFocus()
    window.prompt.setPlainText(ZH_QUESTION)  # as an input method commits it (QTest types ASCII keys only)
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=120_000) as finished:
        qtbot.keyClick(window.prompt, Qt.Key.Key_Return)
    reply = finished.args[0]
    assert window.documents.grounding.last_mode == "passages"
    top = reply.sources[0]
    assert (Path(top["path"]).name, top["page"]) == ("记录.docx", 2) and ZH_FACT in top["text"]


def test_a_file_that_cannot_be_indexed_is_explained_in_the_windows_language(qtbot, qapp, open_window, tmp_path):
    from eagle_chat.ui.words import i18n

    window = open_window()
    i18n.apply_language(qapp, "zh_CN")  # as View → Language does; the shared-app fixture puts English back
    broken = tmp_path / "报告.pdf"
    broken.write_bytes(b"%PDF-1.7\nnot really a PDF at all\n")
    good = tmp_path / "笔记.txt"
    good.write_text(filler("灯塔", 3), encoding="utf-8")
    complete, _ = indexed(qtbot, window, lambda: window.documents.attach([broken, good]))
    assert not complete
    notice = window.notice.text()
    # The indexing process sends the reason's template and values; the window fills in its own translation.
    assert f"{broken} 不是可读取的 PDF（已损坏或根本不是 PDF）。" in notice, notice
    assert "is not a readable PDF" not in notice
    assert "笔记.txt" in names(window)  # the good file is attached and indexed all the same


def test_an_embedder_pulled_while_the_window_is_open_gives_the_next_attach_search_by_meaning(
        qtbot, open_window, tmp_path, monkeypatch):
    from dataclasses import replace

    from eagle_chat.core.models.document_models import DocumentModelRegistry, bundled

    monkeypatch.delenv("EAGLE_CHAT_EMBEDDER")  # a new user: no embedder yet
    window = open_window()
    folder = library(tmp_path / "lib")
    complete, _ = indexed(qtbot, window, lambda: window.documents.attach([folder / "notes.txt"]))
    assert complete and window.documents.grounding.keyword_only and window.documents.grounding.store.keyword_only()
    # `eagle-chat models pull …` in a terminal meanwhile: the registry gains an embedder.
    DocumentModelRegistry().add(replace(bundled("embedding"), name="pulled-embedder", source="hf:test/embedder"))
    complete, _ = indexed(qtbot, window, lambda: window.documents.attach([folder / "readme.md"]))
    index = window.documents.grounding
    assert complete and not index.store.keyword_only() and not index.keyword_only
    assert index.store.meta("embedder").endswith(":64")  # the tiny embedder's vectors, every chunk
    rows = index.store._db.execute("SELECT length(vector) FROM chunks").fetchall()
    assert rows and all(n == 64 * 4 for (n,) in rows)
    assert index._query_vector("What does the garden note say?") is not None  # questions now have a vector


def test_the_words_only_notice_gets_the_embedder_in_one_click_and_the_attached_files_are_then_searched_by_meaning(
        qtbot, open_window, tmp_path, monkeypatch, fake_hub):
    from eagle_chat import paths
    from eagle_chat.core.documents import retrieval
    from eagle_chat.core.models.catalog import load_catalog
    from eagle_chat.core.models.document_models import DocumentModelRegistry

    monkeypatch.delenv("EAGLE_CHAT_EMBEDDER")  # a new user: no embedder yet
    entry = load_catalog().document_model(retrieval.SUGGESTED_EMBEDDER, "embedding")
    fake_hub.add_repo(entry.model.repo_id("hf"), paths.tiny_models_dir() / "tiny-embedder")  # its files, tiny
    window = open_window()
    window.show()
    qtbot.waitExposed(window)
    window.settings.download_source, window.settings.hf_endpoint = "hf", fake_hub.url  # as Get models remembers
    folder = library(tmp_path / "lib")
    complete, _ = indexed(qtbot, window, lambda: window.documents.attach([folder / "notes.txt", folder / "report.pdf"]))
    assert complete and window.documents.grounding.store.keyword_only()
    button = window.notice.action_button
    assert "by their words only" in window.notice.text() and button.isVisible()
    assert button.text() == f"Get {retrieval.SUGGESTED_EMBEDDER} (0.6 GB)"
    assert button.fontMetrics().horizontalAdvance(button.text()) <= button.contentsRect().width()  # painted whole
    with qtbot.waitSignal(window.documents.runner.sig_finished, timeout=INDEX_TIMEOUT_MS) as reindexed:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: window.documents.embedder_pull.running or reindexed.signal_triggered, timeout=5000)
    assert reindexed.args[0] is True  # the same files, nothing changed in them: one run gives them vectors
    assert DocumentModelRegistry().get(retrieval.SUGGESTED_EMBEDDER, "embedding") is not None
    index = window.documents.grounding
    assert not index.store.keyword_only() and not index.keyword_only
    assert {n for (n,) in index.store._db.execute("SELECT length(vector) FROM chunks")} == {64 * 4}
    assert not window.notice.isVisible() or "could not" not in window.notice.text()
    window.options.max_tokens.setValue(8)
    reply, _ = send(qtbot, window, QUESTION)
    assert any(FACT in source["text"] for source in reply.sources)  # the files still answer
    assert index._query_vector(QUESTION) is not None  # and a question is searched by meaning from now on


def test_whole_documents_in_the_window_are_measured_with_the_loaded_models_tokenizer(qtbot, open_window, tmp_path):
    from eagle_chat.core.documents.embedder import estimate_tokens

    window = open_window()
    window.options.max_tokens.setValue(8)
    budget = window.controller.loaded.context_length // 2  # what whole documents may take
    counter = window.documents.model_tokens.counter(window.controller.loaded.spec.target_dir)
    line = "灯塔看守人的船名叫海燕九号。"
    text = line * (budget * 9 // 10 // estimate_tokens(line))  # fits by the estimate, not in the tiny model's tokens
    assert estimate_tokens(text) <= budget < counter(text)
    (tmp_path / "记录.txt").write_text(text, encoding="utf-8")
    complete, _ = indexed(qtbot, window, lambda: window.documents.attach([tmp_path / "记录.txt"]))
    assert complete
    window.prompt.setFocus()
    window.prompt.setPlainText("船叫什么名字？")  # as an input method commits it (QTest types ASCII keys only)
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=120_000):
        qtbot.keyClick(window.prompt, Qt.Key.Key_Return)
    assert window.documents.grounding.last_mode == "passages"  # the whole file would not have fitted
