"""Schema versions of the conversation database and the steps between them.

``PRAGMA user_version`` holds the version a file was written with. Opening an older file runs each step
from its version up to :data:`SCHEMA_VERSION`, all in one transaction (the version bump included), after
copying the file to ``<name>.v<old>-backup`` beside it: an interrupted upgrade leaves the old file as it
was, and someone who goes back to an older EagleChat still has their conversations in a file it reads.
New tables or indexes that old files can simply gain (``CREATE … IF NOT EXISTS`` in the store's schema)
need no step here and no version bump.

Versions:
1. conversations + messages, one list per conversation (the first release).
2. branches: ``messages.parent_id`` (the message each follows) and ``conversations.current_id`` (the end
   of the visible path); ``messages.thinking`` (reasoning kept apart from the answer) and
   ``messages.made_with`` (a reply's model and settings, JSON). Version-1 replies whose raw
   ``<think>…</think>`` was saved inside their text get it moved to ``thinking``.
3. agent mode: ``messages.tool_steps`` (an agent reply's tool calls and results, JSON; NULL for others).
4. documents: ``messages.sources`` (the numbered passages a reply was given to answer from, JSON; NULL for
   replies without documents).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from eagle_chat.core.generation.reasoning import OPEN_TAG, split_reasoning

SCHEMA_VERSION = 4


def _to_v2(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE messages ADD COLUMN parent_id INTEGER REFERENCES messages(id) ON DELETE CASCADE")
    db.execute("ALTER TABLE messages ADD COLUMN thinking TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE messages ADD COLUMN made_with TEXT")
    db.execute("ALTER TABLE conversations ADD COLUMN current_id INTEGER")
    # Version 1 kept one list per conversation, in id order: each message follows the one before it.
    db.execute(
        "UPDATE messages SET parent_id = (SELECT max(p.id) FROM messages p "
        "WHERE p.conversation_id = messages.conversation_id AND p.id < messages.id)"
    )
    db.execute(
        "UPDATE conversations SET current_id = (SELECT max(m.id) FROM messages m WHERE m.conversation_id = "
        "conversations.id)"
    )
    rows = db.execute(
        "SELECT id, content FROM messages WHERE role = 'assistant' AND ltrim(content, ' ' || char(9, 10, 13)) "
        "LIKE ? ESCAPE '\\'", (OPEN_TAG + "%",)
    ).fetchall()
    for message_id, content in rows:
        split = split_reasoning(content)
        db.execute("UPDATE messages SET content = ?, thinking = ? WHERE id = ?",
                   (split.answer, split.thinking, message_id))


def _to_v3(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE messages ADD COLUMN tool_steps TEXT")


def _to_v4(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE messages ADD COLUMN sources TEXT")


STEPS: dict[int, Callable[[sqlite3.Connection], None]] = {2: _to_v2, 3: _to_v3, 4: _to_v4}  # version reached -> the step


def upgrade(db: sqlite3.Connection, version: int, path: Path | None = None) -> int:
    """Bring a file at ``version`` (≥ 1) up to :data:`SCHEMA_VERSION`; returns how many steps ran."""
    if version >= SCHEMA_VERSION:
        return 0
    if path is not None:
        backup = sqlite3.connect(Path(path).with_name(f"{Path(path).name}.v{version}-backup"))
        try:
            db.backup(backup)
        finally:
            backup.close()
    db.commit()
    db.execute("BEGIN IMMEDIATE")
    try:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            STEPS[target](db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return SCHEMA_VERSION - version
