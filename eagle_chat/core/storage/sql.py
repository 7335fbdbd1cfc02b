"""The store's SQL that is not about keeping data safe: search, rows to objects, schema checks."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.core.storage.pending import MIN_TEXT_SEARCH

_OBJECT = re.compile(r"CREATE (?:VIRTUAL )?(?:TABLE|INDEX|TRIGGER) IF NOT EXISTS (\w+)")


class NewerSchema(Exception):
    """The file was written by a newer EagleChat (its ``user_version`` is above ours)."""

    def __init__(self, version: int):
        super().__init__(version)
        self.version = version


class Damaged(Exception):
    """SQLite opened the file but its own check found damage."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def search_rows(db: sqlite3.Connection, search: str, *, indexed: bool):
    """Conversation rows, newest first, whose title (or, from 3 characters, message text) holds ``search``.

    With the trigram index a quoted phrase is a case-insensitive substring match, what ``LIKE '%x%'`` did
    before at a full scan per keystroke; shorter searches cannot use trigrams and look at titles only.
    """
    text = search.strip()
    if not text:
        return db.execute("SELECT * FROM conversations ORDER BY updated DESC")
    title = f"%{escape_like(text)}%"
    if len(text) < MIN_TEXT_SEARCH:
        return db.execute("SELECT * FROM conversations WHERE title LIKE ? ESCAPE '\\' ORDER BY updated DESC",
                          (title,))
    if indexed:
        phrase = '"' + text.replace('"', '""') + '"'
        return db.execute(
            "SELECT * FROM conversations WHERE title LIKE ? ESCAPE '\\' OR id IN (SELECT m.conversation_id "
            "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH ?) "
            "ORDER BY updated DESC",
            (title, phrase),
        )
    return db.execute(
        "SELECT DISTINCT c.* FROM conversations c LEFT JOIN messages m ON m.conversation_id = c.id "
        "WHERE c.title LIKE ? ESCAPE '\\' OR m.content LIKE ? ESCAPE '\\' ORDER BY c.updated DESC",
        (title, title),
    )


def missing(db: sqlite3.Connection, script: str) -> set[str]:
    """Names of the tables, indexes and triggers ``script`` creates that the file does not have."""
    present = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    return set(_OBJECT.findall(script)) - present


def index_empty(db: sqlite3.Connection) -> bool:
    """The search index exists but holds nothing while there are messages (it is then rebuilt once)."""
    try:
        indexed = db.execute("SELECT 1 FROM messages_fts_docsize LIMIT 1").fetchone()
    except sqlite3.OperationalError:
        return False  # not created yet: the migration creates and fills it
    return indexed is None and db.execute("SELECT 1 FROM messages LIMIT 1").fetchone() is not None


def escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def conversation(row: sqlite3.Row) -> Conversation:
    return Conversation(
        title=row["title"], system_prompt=row["system_prompt"], id=row["id"], created=row["created"],
        updated=row["updated"],
    )


def message(row: sqlite3.Row, *, interrupted: bool = False) -> Message:
    """A message row; ``interrupted``: a "streaming" row is left from a previous run (not yet rewritten)."""
    stats = None
    if row["stats"]:
        try:
            stats = GenerationStats.from_dict(json.loads(row["stats"]))
        except (ValueError, TypeError):
            stats = None
    status = "interrupted" if interrupted and row["status"] == "streaming" else row["status"]
    return Message(
        role=row["role"], content=row["content"], id=row["id"], created=row["created"], status=status,
        stats=stats, error=row["error"],
    )


class SearchReader:
    """A read-only connection of its own, so a search can run on another thread while the GUI thread
    writes (in WAL mode readers never wait for the writer)."""

    def __init__(self, path):
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        self._db = sqlite3.connect(uri, uri=True, timeout=0.25, check_same_thread=False)

    def matching_ids(self, search: str, *, indexed: bool) -> list[int]:
        """Ids of the conversations in the file that match ``search``, newest first."""
        return [row[0] for row in search_rows(self._db, search, indexed=indexed)]

    def close(self) -> None:
        self._db.close()
