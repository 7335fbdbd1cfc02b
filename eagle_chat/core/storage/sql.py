"""The store's SQL that is not about keeping data safe: search and its index, rows to objects, schema
checks."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
import time
from pathlib import Path

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.core.storage.pending import MIN_TEXT_SEARCH, stats_json, to_json

log = logging.getLogger(__name__)

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


def migrate(db: sqlite3.Connection, schema: str, without_index: str, version: int) -> bool:
    """Bring the file to ``schema`` at ``version`` (WAL, one transaction, only when something is missing);
    where SQLite has no FTS5 trigram tokenizer, to ``without_index``. True if the search index is there.
    An index created over an existing history is filled later, by an :class:`IndexBuilder`."""
    if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        db.execute("PRAGMA journal_mode=WAL")
    for script in (schema, without_index):
        indexed = script is schema
        if not missing(db, script) and db.execute("PRAGMA user_version").fetchone()[0] == version:
            return indexed
        try:
            db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {version};\nCOMMIT;")
            return indexed
        except sqlite3.OperationalError as error:
            if db.in_transaction:
                db.rollback()
            if not indexed or not ("fts5" in str(error) or "tokenizer" in str(error)):
                raise
            log.warning("no FTS5 trigram search in this SQLite (%s); search scans the text", error)
    return False


def missing(db: sqlite3.Connection, script: str) -> set[str]:
    """Names of the tables, indexes and triggers ``script`` creates that the file does not have."""
    present = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    return set(_OBJECT.findall(script)) - present


def index_incomplete(db: sqlite3.Connection) -> bool:
    """The search index holds fewer messages than there are: a history written before the index existed
    (or a fill cut short by closing). It is then filled once, by :class:`IndexBuilder`."""
    indexed = db.execute("SELECT count(*) FROM messages_fts_docsize").fetchone()[0]
    return indexed < db.execute("SELECT count(*) FROM messages").fetchone()[0]


class IndexBuilder:
    """Fills the search index on a thread with a connection of its own (40,000 messages took 20-30 s here,
    which at open would have frozen the first start after an update). It holds the write lock meanwhile:
    the store queues its writes and search scans the text until it is done. ``stop`` interrupts it (the
    fill is one transaction: nothing half-done remains, and the next start fills again)."""

    def __init__(self, path):
        self.done = False
        self._db = sqlite3.connect(path, timeout=30, check_same_thread=False)
        self._thread = threading.Thread(target=self._fill, name="search-index", daemon=False)
        self._thread.start()

    def running(self) -> bool:
        return self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return self.done

    def stop(self) -> None:
        if self._thread.is_alive():
            self._db.interrupt()
        self._thread.join()
        self._db.close()

    def _fill(self) -> None:
        started = time.perf_counter()
        try:
            with self._db:
                self._db.execute("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')")
        except sqlite3.Error as error:
            log.warning("the search index was not filled (%s); search scans the text meanwhile", error)
            return
        self.done = True
        log.info("search index filled in %.1f s", time.perf_counter() - started)


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
        stats=stats, error=row["error"], thinking=row["thinking"], parent_id=row["parent_id"],
        made_with=_json_or_none(row["made_with"]), tool_steps=_json_or_none(row["tool_steps"]),
        sources=_json_or_none(row["sources"]),
    )


def _json_or_none(text: str | None):
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def insert_whole(db: sqlite3.Connection, conversation: Conversation, messages: list[Message]) -> None:
    """Insert ``conversation`` and its ``messages`` (parents first) under new ids, with its visible path."""
    cur = db.execute("INSERT INTO conversations (title, system_prompt, created, updated) VALUES (?, ?, ?, ?)",
                     (conversation.title, conversation.system_prompt, conversation.created, conversation.updated))
    conversation.id = cur.lastrowid
    new_ids: dict[int | None, int | None] = {None: None}
    for m in messages:
        cur = db.execute(
            "INSERT INTO messages (conversation_id, role, content, status, stats, error, created, parent_id, "
            "thinking, made_with, tool_steps, sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (conversation.id, m.role, m.content, m.status, stats_json(m.stats), m.error, m.created,
             new_ids[m.parent_id], m.thinking, to_json(m.made_with), to_json(m.tool_steps), to_json(m.sources)),
        )
        new_ids[m.id] = cur.lastrowid
    current = conversation.messages[-1].id if conversation.messages else None
    db.execute("UPDATE conversations SET current_id = ? WHERE id = ?", (new_ids.get(current), conversation.id))


class SearchReader:
    """A read-only connection of its own, so a search can run on another thread while the GUI thread
    writes (in WAL mode readers never wait for the writer)."""

    def __init__(self, path):
        # The path as the store opened it, not a resolve()d ``file:`` URI: on Windows, resolving a mapped
        # drive (Z:\…) gives its UNC name (\\server\share\…), which a SQLite URI cannot name.
        # query_only makes the connection read-only all the same.
        self._db = sqlite3.connect(Path(path).absolute(), timeout=0.25, check_same_thread=False)
        self._db.execute("PRAGMA query_only = ON")

    def matching_ids(self, search: str, *, indexed: bool) -> list[int]:
        """Ids of the conversations in the file that match ``search``, newest first."""
        return [row[0] for row in search_rows(self._db, search, indexed=indexed)]

    def close(self) -> None:
        self._db.close()
