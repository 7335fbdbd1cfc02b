"""An agent reply's tool steps are kept: the v2 -> v3 migration (committed v2 fixture), the store, both
exports and the JSON import."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from eagle_chat.core.storage import export
from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.store import SCHEMA_VERSION, ConversationStore

FIXTURE = Path(__file__).parents[1] / "fixtures" / "conversations-v2.sqlite3"
STEPS = [{"content": "Let me look.", "calls": [
    {"id": "call_1", "name": "weather", "server": "local", "tool": "weather", "arguments": '{"city": "Oslo"}',
     "status": "done", "result": "Rain ``` and <b>bold</b>", "is_error": False, "seconds": 0.25},
    {"id": "call_2", "name": "add", "server": "local", "tool": "add", "arguments": '{"a": 1}',
     "status": "denied", "result": "The user did not allow this tool call.", "is_error": True, "seconds": 0.0}]}]


def rows(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT id, role, content, status, parent_id, thinking, made_with FROM messages "
                          "ORDER BY id").fetchall()
    finally:
        db.close()


def test_a_version_2_file_upgrades_to_3_with_every_message_and_a_backup(tmp_path):
    path = tmp_path / "conversations.sqlite3"
    shutil.copyfile(FIXTURE, path)
    before = rows(path)
    assert sqlite3.connect(FIXTURE).execute("PRAGMA user_version").fetchone()[0] == 2
    store = ConversationStore(path)
    try:
        assert SCHEMA_VERSION >= 3
        conversations = [store.load_conversation(s.id) for s in store.list_conversations()]
        assert sum(len(c.all_messages) for c in conversations) == len(before) == 9
        assert all(m.tool_steps is None for c in conversations for m in c.all_messages)
        weather = next(c for c in conversations if c.title == "Weather talk")
        assert weather.system_prompt == "Be brief." and len(weather.all_messages) == 5
    finally:
        store.close()
    # what a killed app left "streaming" is marked interrupted on open (the store's recovery, not the upgrade)
    assert rows(path) == [r if r[3] != "streaming" else (*r[:3], "interrupted", *r[4:]) for r in before]
    assert (tmp_path / "conversations.sqlite3.v2-backup").exists()


def test_tool_steps_are_stored_updated_reloaded_exported_and_imported(tmp_path):
    store = ConversationStore(tmp_path / "c.sqlite3")
    try:
        c = store.create_conversation("Agent")
        store.add_message(c, Message("user", "Weather?"))
        reply = store.add_message(c, Message("assistant", "", status="streaming", tool_steps=[]))
        reply.tool_steps = STEPS
        reply.content, reply.status = "It rains in Oslo.", "complete"
        store.update_message(reply)
        store.close()
        store = ConversationStore(tmp_path / "c.sqlite3")
        again = store.load_conversation(c.id)
        assert again.messages[-1].tool_steps == STEPS
        history = again.history()
        assert history[1]["tool_calls"][0]["function"] == {"name": "weather", "arguments": '{"city": "Oslo"}'}
        assert history[2] == {"role": "tool", "tool_call_id": "call_1", "content": "Rain ``` and <b>bold</b>"}
        assert history[-1] == {"role": "assistant", "content": "It rains in Oslo."}
        data = export.to_json(again)
        assert data["messages"][-1]["tool_steps"] == STEPS
        assert export.from_json(data).all_messages[-1].tool_steps == STEPS
        markdown = export.to_markdown(again)
        assert "<summary>Tool call: weather · done · 0.25 s</summary>" in markdown
        assert "````text\nRain ``` and <b>bold</b>\n````" in markdown  # fenced longer than its backticks
        assert "Tool call: add · denied" in markdown
        bad = dict(data, messages=[dict(r, tool_steps=[{"calls": [{"id": 1}]}]) for r in data["messages"]])
        try:
            export.from_json(bad)
        except export.ConversationFileError:
            pass
        else:
            raise AssertionError("malformed tool steps must be refused")
    finally:
        store.close()
