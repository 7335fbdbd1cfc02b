"""SQLite persistence of conversations and per-message stats.

Durability contract: a user message is on disk before generation starts; the reply in flight is written as
a "streaming" row and its text saved every few seconds, so a killed app loses at most the last seconds of
that one reply. On the next start such rows become "interrupted" and keep their partial text.
A damaged database, or one written by a newer EagleChat, is never overwritten: it is moved aside to a
backup and a fresh one started, and ``notice`` says so for the UI to show. An older one is upgraded in
place (:mod:`eagle_chat.core.storage.migrations`, after a backup copy).
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from eagle_chat.core.files import move_aside
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage import branches
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.core.storage.migrations import SCHEMA_VERSION, upgrade

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    system_prompt TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    current_id INTEGER
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'complete',
    stats TEXT,
    error TEXT,
    created REAL NOT NULL,
    parent_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
    thinking TEXT NOT NULL DEFAULT '',
    made_with TEXT
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, id);
CREATE INDEX IF NOT EXISTS messages_by_parent ON messages(parent_id);
"""


class ConversationStore:
    """All conversations of one user, in one SQLite file. Use from one thread (the GUI thread)."""

    def __init__(self, path: Path, *, recover: bool = True):
        """``recover=False`` leaves "streaming" rows alone: for a reader (``eagle-chat conversations``) that
        may run beside the app, whose reply in flight they are."""
        self.path = Path(path)
        self.notice: str | None = None
        self.upgraded_from: int | None = None
        self._db = self._open()
        self.recovered_interrupted = self._mark_interrupted() if recover else 0

    # --- conversations -------------------------------------------------------------------------
    def list_conversations(self, search: str = "") -> list[Conversation]:
        """Newest first, without messages; ``search`` matches titles and message text."""
        if search.strip():
            pattern = f"%{_escape_like(search.strip())}%"
            rows = self._db.execute(
                "SELECT DISTINCT c.* FROM conversations c LEFT JOIN messages m ON m.conversation_id = c.id "
                "WHERE c.title LIKE ? ESCAPE '\\' OR m.content LIKE ? ESCAPE '\\' ORDER BY c.updated DESC",
                (pattern, pattern),
            )
        else:
            rows = self._db.execute("SELECT * FROM conversations ORDER BY updated DESC")
        return [_conversation(row) for row in rows]

    def create_conversation(self, title: str = "New conversation", system_prompt: str = "") -> Conversation:
        now = time.time()
        with self._db:
            cur = self._db.execute(
                "INSERT INTO conversations (title, system_prompt, created, updated) VALUES (?, ?, ?, ?)",
                (title, system_prompt, now, now),
            )
        return Conversation(title=title, system_prompt=system_prompt, id=cur.lastrowid, created=now, updated=now)

    def load_conversation(self, conversation_id: int) -> Conversation | None:
        row = self._db.execute("SELECT * FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
        if row is None:
            return None
        conversation = _conversation(row)
        conversation.all_messages = [
            _message(r)
            for r in self._db.execute(
                "SELECT * FROM messages WHERE conversation_id = ? ORDER BY id", (conversation_id,)
            )
        ]
        ids = {m.id for m in conversation.all_messages}
        current = row["current_id"] if row["current_id"] in ids else max(ids, default=None)
        conversation.messages = branches.path_to(conversation, current)
        return conversation

    def update_conversation(self, conversation: Conversation) -> None:
        conversation.updated = time.time()
        with self._db:
            self._db.execute(
                "UPDATE conversations SET title = ?, system_prompt = ?, updated = ? WHERE id = ?",
                (conversation.title, conversation.system_prompt, conversation.updated, conversation.id),
            )

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        with self._db:
            self._db.execute("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))

    def delete_conversation(self, conversation_id: int) -> None:
        with self._db:
            self._db.execute("DELETE FROM messages WHERE conversation_id = ?", (conversation_id,))
            self._db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

    # --- messages ------------------------------------------------------------------------------
    def add_message(self, conversation: Conversation, message: Message) -> Message:
        """Append ``message`` to the end of the visible path and write it through at once (to start a
        branch, first end the path where it parts: :func:`branches.cut_before`)."""
        if not conversation.all_messages:
            conversation.all_messages = list(conversation.messages)
        message.parent_id = conversation.messages[-1].id if conversation.messages else None
        with self._db:
            cur = self._db.execute(
                "INSERT INTO messages (conversation_id, role, content, status, stats, error, created, parent_id, "
                "thinking, made_with) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    conversation.id,
                    message.role,
                    message.content,
                    message.status,
                    _stats_json(message.stats),
                    message.error,
                    message.created,
                    message.parent_id,
                    message.thinking,
                    _json(message.made_with),
                ),
            )
            conversation.updated = time.time()
            self._db.execute(
                "UPDATE conversations SET updated = ?, title = ?, current_id = ? WHERE id = ?",
                (conversation.updated, conversation.title, cur.lastrowid, conversation.id),
            )
        message.id = cur.lastrowid
        conversation.messages.append(message)
        conversation.all_messages.append(message)
        return message

    def update_message(self, message: Message) -> None:
        """Write a message's current text, thinking, status, stats, error and settings."""
        with self._db:
            self._db.execute(
                "UPDATE messages SET content = ?, thinking = ?, status = ?, stats = ?, error = ?, made_with = ? "
                "WHERE id = ?",
                (message.content, message.thinking, message.status, _stats_json(message.stats), message.error,
                 _json(message.made_with), message.id),
            )

    def save_path(self, conversation: Conversation) -> None:
        """Remember which branch is shown (the end of ``conversation.messages``) for the next opening."""
        current = conversation.messages[-1].id if conversation.messages else None
        with self._db:
            self._db.execute("UPDATE conversations SET current_id = ? WHERE id = ?", (current, conversation.id))

    def delete_messages(self, conversation: Conversation, messages: list[Message]) -> None:
        """Delete ``messages`` (:func:`branches.remove` chose them and moved the path) and save the path."""
        with self._db:
            self._db.executemany("DELETE FROM messages WHERE id = ?", [(m.id,) for m in messages[::-1]])
        self.save_path(conversation)

    def insert_conversation(self, conversation: Conversation) -> Conversation:
        """Store a whole conversation (an import): every branch, stats and times as given, new ids."""
        with self._db:
            cur = self._db.execute(
                "INSERT INTO conversations (title, system_prompt, created, updated) VALUES (?, ?, ?, ?)",
                (conversation.title, conversation.system_prompt, conversation.created, conversation.updated),
            )
            conversation.id = cur.lastrowid
            new_ids: dict[int | None, int | None] = {None: None}
            for message in branches.nodes(conversation):
                cur = self._db.execute(
                    "INSERT INTO messages (conversation_id, role, content, status, stats, error, created, "
                    "parent_id, thinking, made_with) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (conversation.id, message.role, message.content, message.status, _stats_json(message.stats),
                     message.error, message.created, new_ids[message.parent_id], message.thinking,
                     _json(message.made_with)),
                )
                new_ids[message.id] = cur.lastrowid
            current = conversation.messages[-1].id if conversation.messages else None
            self._db.execute("UPDATE conversations SET current_id = ? WHERE id = ?",
                             (new_ids.get(current), conversation.id))
        return self.load_conversation(conversation.id)

    def message_stats(self, conversation_id: int) -> list[tuple[Message, GenerationStats]]:
        """Every assistant message of a conversation that has stats (for export)."""
        conversation = self.load_conversation(conversation_id)
        if conversation is None:
            return []
        return [(m, m.stats) for m in conversation.messages if m.stats is not None]

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- opening and recovery ------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return self._connect_and_migrate()
        except _NewerSchema as newer:
            backup = self._move_aside("newer")
            self.notice = (
                f"Your conversations were saved by a newer EagleChat (database version {newer.version}, this "
                f"one reads {SCHEMA_VERSION}). They were kept unchanged in {backup}; update EagleChat to see "
                "them again. A new, empty history was started."
            )
        except sqlite3.DatabaseError as error:
            backup = self._move_aside("corrupt")
            self.notice = (
                f"The conversation database could not be read ({error}). It was kept in {backup} for "
                "recovery, and a new, empty history was started."
            )
        return self._connect_and_migrate()

    def _connect_and_migrate(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level="DEFERRED")
        try:
            db.row_factory = sqlite3.Row
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise _NewerSchema(version)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            if 0 < version < SCHEMA_VERSION:
                upgrade(db, version, self.path)
                self.upgraded_from = version
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("SELECT count(*) FROM messages").fetchone()
            quick = db.execute("PRAGMA quick_check").fetchone()[0]
            if quick != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {quick}")
            return db
        except BaseException:
            db.close()
            raise

    def _move_aside(self, reason: str) -> Path | None:
        return move_aside(self.path, reason, companions=("-wal", "-shm"))

    def _mark_interrupted(self) -> int:
        with self._db:
            cur = self._db.execute("UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'")
        return cur.rowcount


class _NewerSchema(Exception):
    def __init__(self, version: int):
        super().__init__(version)
        self.version = version


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _stats_json(stats: GenerationStats | None) -> str | None:
    return json.dumps(stats.to_dict()) if stats is not None else None


def _json(value) -> str | None:
    return json.dumps(value) if value is not None else None


def _json_or_none(text: str | None):
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def _conversation(row: sqlite3.Row) -> Conversation:
    return Conversation(
        title=row["title"], system_prompt=row["system_prompt"], id=row["id"], created=row["created"],
        updated=row["updated"],
    )


def _message(row: sqlite3.Row) -> Message:
    stats = None
    if row["stats"]:
        try:
            stats = GenerationStats.from_dict(json.loads(row["stats"]))
        except (ValueError, TypeError):
            stats = None
    return Message(
        role=row["role"], content=row["content"], id=row["id"], created=row["created"], status=row["status"],
        stats=stats, error=row["error"], thinking=row["thinking"], parent_id=row["parent_id"],
        made_with=_json_or_none(row["made_with"]),
    )
