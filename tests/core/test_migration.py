"""A database written by the release before branches (schema v1, tests/fixtures) opens with every message."""

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from eagle_chat.core.storage import migrations
from eagle_chat.core.storage.store import SCHEMA_VERSION, ConversationStore

FIXTURE = Path(__file__).parents[1] / "fixtures" / "conversations-v1.sqlite3"


@pytest.fixture
def v1_copy(tmp_path) -> Path:
    path = tmp_path / "conversations.sqlite3"
    shutil.copyfile(FIXTURE, path)
    return path


def v1_rows(path: Path) -> list[dict]:
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    try:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        return [dict(r) for r in db.execute("SELECT * FROM messages ORDER BY id")]
    finally:
        db.close()


def test_the_fixture_is_a_version_1_file():
    rows = v1_rows(FIXTURE)
    assert len(rows) == 16 and {r["status"] for r in rows} == {"complete", "stopped", "failed", "streaming"}
    assert any(r["content"].startswith("<think>") for r in rows)


def test_every_message_survives_the_upgrade(v1_copy):
    before = v1_rows(v1_copy)
    store = ConversationStore(v1_copy)
    assert store.upgraded_from == 1 and store.notice is None
    assert store.recovered_interrupted == 1  # the killed app's reply, as version 1 would have said
    conversations = store.list_conversations()
    assert sorted(c.title for c in conversations) == sorted([
        "Say hello.", "Write a Python function that reverses a string.", "Explain context managers.",
        "Renamed: lists & failures", "New conversation"])
    after = {m.id: (c, m) for c in conversations for m in store.load_conversation(c.id).messages}
    assert sorted(after) == [r["id"] for r in before]  # all 16, each on its conversation's visible path
    for row in before:
        conversation, message = after[row["id"]]
        assert conversation.id == row["conversation_id"] and message.role == row["role"]
        assert message.created == row["created"] and message.error == row["error"]
        assert message.status == ("interrupted" if row["status"] == "streaming" else row["status"])
        assert (message.stats.to_dict() if message.stats else None) == (
            {**json.loads(row["stats"]), "thinking_tokens": None, "thinking_ms": None, "runs": 1, "steps": None,
             "step_chars": None, "history_tokens": None, "history_dropped": 0, "draft_skipped": None,
             "drafting_off_by_grammar": False,
             "prefilled_tokens": None, "cached_tokens": 0, "method": "", "method_kind": None, "method_basis": None}
            if row["stats"] else None)
        if row["content"].startswith("<think>"):  # the raw thinking saved inside the reply moved out
            assert message.thinking and "<think>" not in message.content and "</think>" not in message.content
            assert row["content"] == f"<think>\n{message.thinking}\n</think>\n\n{message.content}"
        else:
            assert (message.content, message.thinking) == (row["content"], "")
    failures = store.load_conversation(4)
    assert failures.system_prompt == "You are a concise Python expert."
    assert [m.parent_id for m in failures.messages] == [None, 11, 12, 13]
    store.close()


def test_the_upgrade_runs_once_and_keeps_a_version_1_copy(v1_copy):
    ConversationStore(v1_copy).close()
    backup = v1_copy.with_name("conversations.sqlite3.v1-backup")
    assert v1_rows(backup) == v1_rows(FIXTURE)  # still readable by the old release, untouched
    db = sqlite3.connect(v1_copy)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    db.close()
    again = ConversationStore(v1_copy)
    assert again.upgraded_from is None and again.recovered_interrupted == 0
    assert len(again.load_conversation(2).messages) == 4
    again.close()


def test_a_failed_upgrade_leaves_the_file_at_version_1(v1_copy, monkeypatch):
    def half_done(db):
        db.execute("ALTER TABLE messages ADD COLUMN parent_id INTEGER")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setitem(migrations.STEPS, 2, half_done)
    db = sqlite3.connect(v1_copy)
    with pytest.raises(sqlite3.OperationalError):
        migrations.upgrade(db, 1)
    db.close()
    rows = v1_rows(v1_copy)
    assert rows == v1_rows(FIXTURE) and "parent_id" not in rows[0]


def test_a_version_1_file_locked_by_another_program_is_upgraded_once_the_lock_goes(v1_copy, hold_lock):
    """The first start after the update while the old app still writes: the upgrade needs the write lock.
    A lock is not damage — nothing is moved aside, and the upgrade happens when the file is free."""
    before = v1_rows(v1_copy)
    release = hold_lock(v1_copy, "write")
    store = ConversationStore(v1_copy)
    assert store.problem is not None and store.notice is None and store.upgraded_from is None
    assert sorted(p.name for p in v1_copy.parent.iterdir() if ".corrupt-" in p.name or ".newer-" in p.name) == []
    release()
    assert store.flush()
    assert store.upgraded_from == 1 and store.problem is None
    conversations = store.list_conversations()
    messages = [m for c in conversations for m in store.load_conversation(c.id).all_messages]
    assert sorted(m.id for m in messages) == sorted(r["id"] for r in before)
    store.close()
