"""SQLite persistence of conversations and per-message stats.

Durability contract: a user message is on disk before generation starts; the reply in flight is written as
a "streaming" row and its text saved every few seconds, so a killed app loses at most the last seconds of
that one reply. On the next start such rows become "interrupted" and keep their partial text.

What may move the history aside, and what may not (see :mod:`store_errors`): only a file SQLite calls
damaged (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``, a failed quick check) or one written by a newer EagleChat is
moved to a backup, with ``notice`` saying so. A database another program has locked, or one that cannot be
opened, is never touched: ``problem`` says why, writes are queued (:mod:`pending`) and :meth:`flush` — which
the UI calls on a timer — writes them once the file is free. No call waits more than ``BUSY_TIMEOUT_S`` for
a lock, so the GUI thread never stalls for more than a frame. An older file is upgraded in place
(:mod:`eagle_chat.core.storage.migrations`, after a backup copy).

Search: an FTS5 trigram index kept by triggers (substring matches, like the ``LIKE '%x%'`` it replaces),
read on a connection of its own (:meth:`search_reader`), filled for an older history in the background.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

from eagle_chat.core.files import move_aside
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage import branches, sql, store_errors
from eagle_chat.core.storage import pending as ops
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.core.storage.migrations import SCHEMA_VERSION, upgrade
from eagle_chat.core.storage.pending import Pending
from eagle_chat.core.storage.schema import INDEX_MARK as _INDEX_MARK
from eagle_chat.core.storage.schema import SCHEMA as _SCHEMA
from eagle_chat.core.storage.store_errors import (
    StoreError,
    is_transient,
    kind_of,
    moved_notice,
    reason_text,
)

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 0.004  # the longest one call waits for another program's lock: well under a 60 Hz frame
CLOSE_TIMEOUT_S = 2.0  # on close, how long to wait for a lock before unsaved changes go to a JSON file


class ConversationStore:
    """All conversations of one user, in one SQLite file. Use from one thread (the GUI thread)."""

    def __init__(self, path: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S, recover: bool = True):
        """``recover=False`` leaves "streaming" rows alone: for a reader (``eagle-chat conversations``) that
        may run beside the app, whose reply in flight they are."""
        self.path = Path(path)
        self.notice: str | None = None  # the file was moved aside at open (damaged, or from a newer version)
        self.upgraded_from: int | None = None  # the schema version an older file was upgraded from
        self._recover = recover
        self.problem: StoreError | None = None  # why the file cannot be read or written right now
        self.recovered_interrupted = 0
        self.ids_changed = False  # queued rows got new ids when written (another program took theirs)
        self._timeout = busy_timeout_s
        self._db: sqlite3.Connection | None = None
        self._search_index = False
        self._indexer: sql.IndexBuilder | None = None
        self._pending = Pending()
        self._reserved = {"conversations": 0, "messages": 0}
        self._open()

    @property
    def available(self) -> bool:
        return self._db is not None  # readable; writes may still be queued behind another program's lock

    @property
    def unsaved(self) -> bool:
        return bool(self._pending)  # some changes are only in memory yet; flush() writes them

    # --- conversations and messages ------------------------------------------------------------
    def list_conversations(self, search: str = "") -> list[Conversation]:
        """Newest first, without messages; ``search`` matches titles, and message text from 3 characters."""
        rows = self._read(
            lambda db: [sql.conversation(r) for r in sql.search_rows(db, search, indexed=self.search_indexed)], []
        )
        return self._pending.merge_list(rows, search) if self._pending else rows

    def search_reader(self) -> sql.SearchReader | None:
        """A connection for :meth:`SearchReader.matching_ids` on another thread (None: the file is closed)."""
        return sql.SearchReader(self.path) if self._db is not None else None

    @property
    def search_indexed(self) -> bool:
        """Message text is searched through the trigram index (else by scanning it, e.g. while it fills)."""
        return self._search_index and (self._indexer is None or self._indexer.done)

    def wait_for_index(self, timeout: float | None = None) -> bool:
        """Block until the search index is filled (tests and benchmarks); True once it is usable."""
        if self._indexer is not None:
            self._indexer.wait(timeout)
        return self.search_indexed

    def search_matches(self, search: str, ids: list[int]) -> set[int]:
        return self._pending.filter_ids(ids, search) if self._pending else set(ids)  # ids from the file + queue

    def create_conversation(self, title: str = "New conversation", system_prompt: str = "") -> Conversation:
        now = time.time()
        conversation = Conversation(title=title, system_prompt=system_prompt, created=now, updated=now)
        self._write(ops.InsertConversation(conversation))
        return conversation

    def load_conversation(self, conversation_id: int) -> Conversation | None:
        if conversation_id in self._pending.deleted:
            return None
        if conversation_id in self._pending.conversations:
            return self._pending.conversations[conversation_id]
        return self._read(lambda db: self._load(db, conversation_id), None)

    def update_conversation(self, conversation: Conversation) -> None:
        conversation.updated = time.time()
        self._write(ops.UpdateConversation(conversation))

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        conversation = self.load_conversation(conversation_id)
        if conversation is not None:
            conversation.title = title
            self._write(ops.UpdateConversation(conversation))

    def delete_conversation(self, conversation_id: int) -> None:
        conversation = self._pending.conversations.get(conversation_id) or Conversation(id=conversation_id)
        self._write(ops.DeleteConversation(conversation))

    def add_message(self, conversation: Conversation, message: Message) -> Message:
        """Append ``message`` to the end of the visible path and write it through at once, or queue it (to
        start a branch, first end the path where it parts: :func:`branches.cut_before`)."""
        if not conversation.all_messages:
            conversation.all_messages = list(conversation.messages)
        parent = conversation.messages[-1] if conversation.messages else None
        message.parent_id = parent.id if parent is not None else None
        conversation.updated = time.time()
        self._write(ops.InsertMessage(conversation, message, parent))
        conversation.messages.append(message)
        conversation.all_messages.append(message)
        return message

    def update_message(self, message: Message) -> None:
        """Write a message's current text, thinking, status, stats, error and settings."""
        self._write(ops.UpdateMessage(message))

    def save_path(self, conversation: Conversation) -> None:
        """Remember which branch is shown (the end of ``conversation.messages``) for the next opening."""
        self._write(ops.SavePath(conversation))

    def delete_messages(self, conversation: Conversation, messages: list[Message]) -> None:
        """Delete ``messages`` (:func:`branches.remove` chose them and moved the path) and save the path."""
        self._write(ops.DeleteMessages(conversation, list(messages)))
        self.save_path(conversation)

    def insert_conversation(self, conversation: Conversation) -> Conversation:
        """Store a whole conversation (an import): every branch, stats and times as given, new ids. Needs the
        file: raises the store's problem (a UserError) while another program holds it."""
        if not self.flush():  # queued writes first: the import must come after what the user did
            raise self.problem or store_errors.busy(self.path, "the database is busy")
        db = self._db
        assert db is not None  # a flush that succeeds has the file open
        with db:
            sql.insert_whole(db, conversation, branches.nodes(conversation))
        loaded = self.load_conversation(conversation.id) if conversation.id is not None else None
        if loaded is None:  # stored (insert_whole gave it an id) but a lock kept it from being read back
            raise self.problem or store_errors.busy(self.path, "the database is busy")
        return loaded

    def message_stats(self, conversation_id: int) -> list[tuple[Message, GenerationStats]]:
        """Every assistant message of a conversation that has stats (for export)."""
        conversation = self.load_conversation(conversation_id)
        if conversation is None:
            return []
        return [(m, m.stats) for m in conversation.messages if m.stats is not None]

    # --- waiting for the file ------------------------------------------------------------------
    def flush(self, timeout_s: float | None = None) -> bool:
        """Open the file if it could not be opened, write queued changes; True when nothing is unsaved.

        Waits at most ``timeout_s`` (default ``BUSY_TIMEOUT_S``) for a lock; call again later on False."""
        if self._db is None and not self._reopen():
            return False
        if not self._pending:
            return self._can_write()
        db = self._db
        assert db is not None  # opened just above
        if timeout_s is not None:
            db.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
        try:
            if migrated := self._pending.migrate:
                self._search_index = self._migrate(db)
                self._pending.migrate = False
            try:
                self._apply_queued(db)  # before the index fill starts: its batches would hold the lock against these
            finally:
                if migrated:
                    self._fill_index_if_needed(db)
        except sqlite3.DatabaseError as error:
            if kind_of(error) == "other":
                raise
            self._note(error)
            return False
        finally:
            if timeout_s is not None:
                db.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
        log.info("wrote %d queued change(s) to %s", len(self._pending.ops), self.path)
        self._pending.clear()
        self.problem = None
        return True

    def close(self) -> None:
        """Close the file; changes still unsaved after ``CLOSE_TIMEOUT_S`` are kept in a JSON file beside it."""
        if self._indexer is not None:
            self._indexer.stop()  # a fill cut short is rolled back and done again at the next start
        if self._pending and not self.flush(CLOSE_TIMEOUT_S):
            kept = self.path.with_name(f"{self.path.name}.unsaved-{time.strftime('%Y%m%d-%H%M%S')}.json")
            try:
                self._pending.save(kept, self.path)
                log.error("database still unavailable on close; unsaved conversations are in %s", kept)
            except OSError:
                log.exception("database unavailable on close and %s could not be written", kept)
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- reading and writing -------------------------------------------------------------------
    def _read(self, read, fallback):
        if self._db is None:
            return fallback
        try:
            return read(self._db)
        except sqlite3.DatabaseError as error:
            if kind_of(error) == "other":
                raise
            self._note(error)
            return fallback

    def _write(self, op: ops.Op) -> None:
        if self._db is not None and not self._pending:
            try:
                with self._db:
                    op.apply(self._db)
                self.problem = None
                return
            except sqlite3.DatabaseError as error:
                if kind_of(error) == "other":
                    raise
                for obj in op.inserts:
                    obj.id = None
                self._note(error)
        for obj in op.inserts:
            if obj.id is None:
                obj.id = self._next_id("conversations" if isinstance(obj, Conversation) else "messages")
        self._pending.add(op)

    def _apply_queued(self, db: sqlite3.Connection) -> None:
        try:
            with db:
                for op in self._pending.ops:
                    op.apply(db)
        except sqlite3.IntegrityError:
            # Another program added rows under the ids handed out meanwhile: let SQLite choose new ones.
            for obj in self._pending.inserted_objects():
                obj.id = None
            self.ids_changed = True
            with db:
                for op in self._pending.ops:
                    op.apply(db)

    def _fill_index_if_needed(self, db: sqlite3.Connection) -> None:
        if self._search_index and self._indexer is None and sql.index_incomplete(db):
            self._indexer = sql.IndexBuilder(self.path)

    def _can_write(self) -> bool:
        """Take and drop the write lock (at most ``BUSY_TIMEOUT_S``): clears or sets ``problem``."""
        assert self._db is not None  # only flush() calls it, with the file open
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.rollback()
        except sqlite3.DatabaseError as error:
            if kind_of(error) == "other":
                raise
            self._note(error)
            return False
        self.problem = None
        return True

    def _next_id(self, table: str) -> int:
        """An id for a row written later: above every id in the file and every id handed out."""
        newest = self._read(lambda db: db.execute(f"SELECT max(id) FROM {table}").fetchone()[0], None)
        if newest is None and self._db is None:
            newest = int(time.time() * 1000)  # the file is unreadable: clear of any id it can hold
        self._reserved[table] = max(self._reserved[table], newest or 0) + 1
        return self._reserved[table]

    def _note(self, error: BaseException) -> None:
        if self._indexer is not None and self._indexer.running() and kind_of(error) == "busy":
            return  # our own index fill holds the lock: writes wait in the queue, nothing to tell
        if self.problem is None:
            log.warning("conversation database %s: %s", self.path, reason_text(error))
        if self._db is None:
            self.problem = store_errors.unavailable(self.path, reason_text(error))
        else:
            self.problem = store_errors.busy(self.path, reason_text(error))

    def _load(self, db: sqlite3.Connection, conversation_id: int) -> Conversation | None:
        row = db.execute("SELECT * FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
        if row is None:
            return None
        conversation = sql.conversation(row)
        rows = db.execute("SELECT * FROM messages WHERE conversation_id = ? ORDER BY id", (conversation_id,))
        conversation.all_messages = [sql.message(r, interrupted=self._pending.interrupt) for r in rows]
        ids = {m.id for m in conversation.all_messages if m.id is not None}
        current = row["current_id"] if row["current_id"] in ids else max(ids, default=None)
        conversation.messages = branches.path_to(conversation, current)
        return conversation

    # --- opening and recovery ------------------------------------------------------------------
    def _open(self) -> None:
        """Open the file; on failure set ``problem`` (and move the file aside only if it is damaged)."""
        try:
            self._db = self._connect()
            return
        except sql.NewerSchema as newer:
            tag, reason = "newer", f"database version {newer.version}"
        except sql.Damaged as damaged:
            tag, reason = "corrupt", damaged.reason
        except (sqlite3.DatabaseError, OSError) as error:
            if isinstance(error, sqlite3.DatabaseError) and kind_of(error) == "damaged":
                tag, reason = "corrupt", reason_text(error)
            elif isinstance(error, OSError) or is_transient(error):
                self._note(error)  # locked or unopenable: touch nothing, try again later
                return
            else:
                raise
        backup = move_aside(self.path, tag, companions=("-wal", "-shm"))
        if backup is None:  # e.g. Windows: another program holds the file open
            log.error("conversation database %s is %s but could not be moved aside", self.path, reason)
            self.problem = store_errors.stuck(self.path, reason, "it is in use or the folder is read-only")
            return
        log.warning("conversation database %s moved aside to %s (%s)", self.path, backup, reason)
        self.notice = moved_notice(tag, reason, backup, SCHEMA_VERSION)
        try:
            self._db = self._connect()
        except (sqlite3.DatabaseError, OSError, sql.Damaged, sql.NewerSchema) as error:
            self._note(error)

    def _reopen(self) -> bool:
        queued = self._pending
        self._pending = Pending()
        self._open()
        if self._db is None:
            self._pending = queued
            return False
        for op in queued.ops:  # after the file's own recovery (interrupted rows), in their order
            self._pending.add(op)
        return True

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=self._timeout, isolation_level="DEFERRED")
        try:
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA foreign_keys=ON")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise sql.NewerSchema(version)
            quick = db.execute("PRAGMA quick_check").fetchone()[0]
            if quick != "ok":
                raise sql.Damaged(f"integrity check failed: {quick}")
            if 0 < version < SCHEMA_VERSION:  # needs the write lock: while locked, the file is not read yet
                upgrade(db, version, self.path)
                self.upgraded_from = version
            self._db = db  # readable: from here on a lock only queues writes
            try:
                self._search_index = self._migrate(db)
            except sqlite3.DatabaseError as error:
                if not is_transient(error) or sql.missing(db, _SCHEMA.split(_INDEX_MARK)[0]):
                    raise
                self._note(error)  # the tables are there: read them now, finish the migration later
                self._pending.migrate, self._search_index = True, False
            db.execute("PRAGMA synchronous=NORMAL")
            self._fill_index_if_needed(db)
            streaming = db.execute("SELECT count(*) FROM messages WHERE status = 'streaming'").fetchone()[0]
            self.recovered_interrupted = streaming if self._recover else 0
            if streaming and self._recover:
                self._write(ops.MarkInterrupted())
            elif not self._pending:
                self._can_write()  # say so at once when another program holds the write lock
            return db
        except BaseException:
            self._db = None
            db.close()
            raise

    def _migrate(self, db: sqlite3.Connection) -> bool:
        """Bring the schema up to date; True if the search index is there (FTS5 with trigrams)."""
        return sql.migrate(db, _SCHEMA, _SCHEMA.split(_INDEX_MARK)[0], SCHEMA_VERSION)
