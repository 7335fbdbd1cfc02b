"""Writes the database could not take yet, kept in order, and what reads must see meanwhile.

When another program holds the database's write lock, the store does not wait (the GUI thread would
freeze): the write becomes an operation queued here, applied later in one transaction. Each operation holds
the *objects* it writes (a Conversation, a Message) and reads their fields when it is applied, so the last
text of a streaming reply is what lands on disk, and ids handed out meanwhile stay valid. Until then reads
go through :class:`Pending` so the conversation list and an opened conversation show what the user did.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, field

from eagle_chat.core.files import write_json_atomic
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.conversation import Conversation, Message

MIN_TEXT_SEARCH = 3  # message text is searched by trigrams: shorter searches look at titles only


def stats_json(stats: GenerationStats | None) -> str | None:
    return json.dumps(stats.to_dict()) if stats is not None else None


def to_json(value) -> str | None:
    return json.dumps(value) if value is not None else None


class Op:
    """One write. ``apply`` runs inside a transaction; ``show`` records its effect for reads meanwhile."""

    @property
    def inserts(self) -> tuple:
        """Objects this op gives a new row (their ids are reassigned on a clash)."""
        return ()

    def apply(self, db: sqlite3.Connection) -> None:
        raise NotImplementedError

    def show(self, pending: "Pending") -> None:
        pass

    def same_as(self, other: "Op") -> bool:
        return False


@dataclass(eq=False)
class InsertConversation(Op):
    conversation: Conversation

    @property
    def inserts(self):
        return (self.conversation,)

    def apply(self, db):
        c = self.conversation
        cur = db.execute(
            "INSERT INTO conversations (id, title, system_prompt, created, updated) VALUES (?, ?, ?, ?, ?)",
            (c.id, c.title, c.system_prompt, c.created, c.updated),
        )
        c.id = cur.lastrowid

    def show(self, pending):
        pending.conversations[self.conversation.id] = self.conversation


@dataclass(eq=False)
class InsertMessage(Op):
    """A message at the end of the visible path. It holds the *parent* message, not its id: ids handed out
    while the file was locked can change when the queue is written (see ``ConversationStore``)."""

    conversation: Conversation
    message: Message
    parent: Message | None = None

    @property
    def inserts(self):
        return (self.message,)

    def apply(self, db):
        c, m = self.conversation, self.message
        m.parent_id = self.parent.id if self.parent is not None else None
        cur = db.execute(
            "INSERT INTO messages (id, conversation_id, role, content, status, stats, error, created, parent_id, "
            "thinking, made_with, tool_steps, sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (m.id, c.id, m.role, m.content, m.status, stats_json(m.stats), m.error, m.created, m.parent_id,
             m.thinking, to_json(m.made_with), to_json(m.tool_steps), to_json(m.sources)),
        )
        m.id = cur.lastrowid
        db.execute("UPDATE conversations SET updated = ?, title = ?, current_id = ? WHERE id = ?",
                   (c.updated, c.title, m.id, c.id))

    def show(self, pending):
        pending.conversations[self.conversation.id] = self.conversation


@dataclass(eq=False)
class UpdateMessage(Op):
    message: Message

    def apply(self, db):
        m = self.message
        db.execute(
            "UPDATE messages SET content = ?, thinking = ?, status = ?, stats = ?, error = ?, made_with = ?, "
            "tool_steps = ?, sources = ? WHERE id = ?",
            (m.content, m.thinking, m.status, stats_json(m.stats), m.error, to_json(m.made_with),
             to_json(m.tool_steps), to_json(m.sources), m.id),
        )

    def same_as(self, other):
        return isinstance(other, UpdateMessage) and other.message is self.message


@dataclass(eq=False)
class SavePath(Op):
    """Which branch is shown: the end of the visible path, read when written."""

    conversation: Conversation

    def apply(self, db):
        c = self.conversation
        db.execute("UPDATE conversations SET current_id = ? WHERE id = ?",
                   (c.messages[-1].id if c.messages else None, c.id))

    def show(self, pending):
        pending.conversations[self.conversation.id] = self.conversation

    def same_as(self, other):
        return isinstance(other, SavePath) and other.conversation is self.conversation


@dataclass(eq=False)
class DeleteMessages(Op):
    """Messages gone from a conversation (a message and what follows it on its branches), children first."""

    conversation: Conversation
    messages: list[Message]

    def apply(self, db):
        db.executemany("DELETE FROM messages WHERE id = ?", [(m.id,) for m in self.messages[::-1]])

    def show(self, pending):
        pending.conversations[self.conversation.id] = self.conversation


@dataclass(eq=False)
class UpdateConversation(Op):
    conversation: Conversation

    def apply(self, db):
        c = self.conversation
        db.execute(
            "UPDATE conversations SET title = ?, system_prompt = ?, updated = ? WHERE id = ?",
            (c.title, c.system_prompt, c.updated, c.id),
        )

    def show(self, pending):
        pending.conversations[self.conversation.id] = self.conversation

    def same_as(self, other):
        return isinstance(other, UpdateConversation) and other.conversation is self.conversation


@dataclass(eq=False)
class DeleteConversation(Op):
    conversation: Conversation

    def apply(self, db):
        db.execute("DELETE FROM messages WHERE conversation_id = ?", (self.conversation.id,))
        db.execute("DELETE FROM conversations WHERE id = ?", (self.conversation.id,))

    def show(self, pending):
        pending.conversations.pop(self.conversation.id, None)
        pending.deleted.add(self.conversation.id)


@dataclass(eq=False)
class MarkInterrupted(Op):
    """Replies that were streaming when EagleChat last stopped are interrupted, not streaming."""

    def apply(self, db):
        db.execute("UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'")

    def show(self, pending):
        pending.interrupt = True


@dataclass
class Pending:
    """The queued writes, in order, and the read overlay they imply."""

    ops: list[Op] = field(default_factory=list)
    conversations: dict[int, Conversation] = field(default_factory=dict)  # touched: these win over the file
    deleted: set[int] = field(default_factory=set)
    interrupt: bool = False  # "streaming" rows read from the file are really "interrupted"
    migrate: bool = False  # the schema (or search index) still has to be brought up to date

    def __bool__(self) -> bool:
        return bool(self.ops) or self.migrate

    def add(self, op: Op) -> None:
        if not any(op.same_as(queued) for queued in self.ops):
            self.ops.append(op)
        op.show(self)

    def save(self, path, database) -> None:
        """Keep the conversations only held here in a JSON file (when the database never came back)."""
        conversations = [asdict(c) for c in self.conversations.values()]
        write_json_atomic(path, {"database": str(database), "conversations": conversations})

    def inserted_objects(self) -> list:
        return [obj for op in self.ops for obj in op.inserts]

    def clear(self) -> None:
        self.ops.clear()
        self.conversations.clear()
        self.deleted.clear()
        self.interrupt = False

    def merge_list(self, rows: list[Conversation], search: str) -> list[Conversation]:
        """``rows`` from the file, with queued creations, renames and deletions applied, newest first."""
        needle = search.strip().casefold()
        merged = {c.id: c for c in rows if c.id not in self.deleted and c.id not in self.conversations}
        for conversation in self.conversations.values():
            if not needle or _matches(conversation, needle, messages=len(needle) >= MIN_TEXT_SEARCH):
                merged[conversation.id] = conversation
        return sorted(merged.values(), key=lambda c: c.updated, reverse=True)


    def filter_ids(self, ids: list[int], search: str) -> set[int]:
        """Ids matching ``search`` once queued changes count: ``ids`` came from the file."""
        needle = search.strip().casefold()
        found = {i for i in ids if i not in self.deleted and i not in self.conversations}
        messages = len(needle) >= MIN_TEXT_SEARCH
        found |= {i for i, c in self.conversations.items() if not needle or _matches(c, needle, messages=messages)}
        return found


def _matches(conversation: Conversation, needle: str, *, messages: bool) -> bool:
    return needle in conversation.title.casefold() or messages and any(
        needle in m.content.casefold() for m in conversation.messages
    )
