"""A second process holds the conversation database: the app starts with a message, moves nothing, and
once the lock goes everything — the old history and what was done meanwhile — is in the file."""

from __future__ import annotations

import sqlite3

from eagle_chat import paths
from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.store import ConversationStore
from tests.gui import send


def make_history() -> list[str]:
    store = ConversationStore(paths.database_file())
    titles = []
    for i in range(3):
        conversation = store.create_conversation(f"Earlier topic {i}")
        store.add_message(conversation, Message("user", f"question {i}"))
        store.add_message(conversation, Message("assistant", f"answer {i}"))
        titles.append(conversation.title)
    store.close()
    return titles[::-1]


def rows():
    db = sqlite3.connect(paths.database_file())
    found = db.execute("SELECT c.title, m.role, m.content FROM conversations c JOIN messages m "
                       "ON m.conversation_id = c.id ORDER BY m.id").fetchall()
    db.close()
    return found


def set_aside():
    return sorted(p.name for p in paths.data_dir().glob("conversations.sqlite3.*"))


def test_a_write_lock_held_by_another_process(qtbot, open_window, hold_lock):
    titles = make_history()
    before = rows()
    release = hold_lock(paths.database_file(), "write")
    window = open_window()
    assert "Another program is using your conversation database" in window.notice.text()
    assert "nothing was moved or changed" in window.notice.text()
    assert window.conversations.titles() == titles  # read, though it cannot be written
    window.options.max_tokens.setValue(12)
    message, result = send(qtbot, window, "written while it was locked")
    assert result is not None and message.status == "complete"
    assert window.conversations.titles()[0] == "written while it was locked"
    assert rows() == before and set_aside() == []

    release()
    store = window.controller.store
    qtbot.waitUntil(lambda: not store.unsaved and store.problem is None, timeout=10_000)
    assert "Another program" not in window.notice.text()
    assert window.statusBar().currentMessage() == "Your conversations are saved again."
    after = rows()
    assert after[: len(before)] == before
    assert after[len(before):] == [("written while it was locked", "user", "written while it was locked"),
                                   ("written while it was locked", "assistant", result.text)]
    assert set_aside() == []


def test_an_exclusive_lock_gives_an_empty_view_that_fills_when_it_goes(qtbot, open_window, hold_lock):
    titles = make_history()
    release = hold_lock(paths.database_file(), "exclusive")
    window = open_window()
    assert "cannot open your conversation database" in window.notice.text()
    assert window.conversations.titles() == []
    release()
    qtbot.waitUntil(lambda: window.conversations.titles() == titles, timeout=10_000)
    assert set_aside() == [] and window.controller.store.problem is None


def test_a_truly_corrupt_file_is_kept_aside_with_a_notice(qtbot, open_window):
    paths.database_file().write_bytes(b"SQLite format 3\x00" + b"\xff" * 8000)
    window = open_window()
    assert "could not be read" in window.notice.text() and "kept in" in window.notice.text()
    backups = set_aside()
    assert len(backups) == 1 and backups[0].startswith("conversations.sqlite3.corrupt-")
    window.options.max_tokens.setValue(8)
    send(qtbot, window, "a fresh start")
    assert window.conversations.titles() == ["a fresh start"]
