"""What went wrong with the conversation database, and which failures may ever move it aside.

SQLite reports why a call failed as a result code (``sqlite3.DatabaseError.sqlite_errorcode``, Python 3.11+).
Only two codes mean the file itself is damaged — ``SQLITE_CORRUPT`` and ``SQLITE_NOTADB`` — and only those
(and a schema written by a newer EagleChat) justify moving a user's history aside. Every other failure is
about *access*: another program holds a lock (``SQLITE_BUSY`` / ``SQLITE_LOCKED``), the file cannot be
opened or written (permissions, a read-only or full disk, I/O errors). Those touch nothing; the store waits
and tries again.
"""

from __future__ import annotations

import sqlite3
from typing import Literal

from eagle_chat.core.errors import UserError

# Primary result codes (the low byte of an extended code), from sqlite3.h.
SQLITE_PERM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY = 3, 5, 6, 8
SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN = 10, 11, 13, 14
SQLITE_NOLFS, SQLITE_AUTH, SQLITE_NOTADB = 22, 23, 26

DAMAGED = {SQLITE_CORRUPT, SQLITE_NOTADB}
BUSY = {SQLITE_BUSY, SQLITE_LOCKED}
NO_ACCESS = {SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOLFS, SQLITE_AUTH}

# Python 3.10 has no sqlite_errorcode: fall back to SQLite's own (stable, English) messages.
_MESSAGES = {
    "database disk image is malformed": SQLITE_CORRUPT,
    "file is not a database": SQLITE_NOTADB,
    "database is locked": SQLITE_BUSY,
    "database table is locked": SQLITE_LOCKED,
    "unable to open database file": SQLITE_CANTOPEN,
    "attempt to write a readonly database": SQLITE_READONLY,
    "disk i/o error": SQLITE_IOERR,
    "database or disk is full": SQLITE_FULL,
}

Kind = Literal["damaged", "busy", "no-access", "other"]


def result_code(error: BaseException) -> int | None:
    """The primary SQLite result code of ``error``, or None when it carries none."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(error).lower()
    return next((value for message, value in _MESSAGES.items() if message in text), None)


def kind_of(error: BaseException) -> Kind:
    """``damaged`` (may be moved aside), ``busy`` (wait), ``no-access`` (wait, say why) or ``other`` (a bug)."""
    if not isinstance(error, sqlite3.DatabaseError):
        return "other"
    code = result_code(error)
    if code in DAMAGED:
        return "damaged"
    if code in BUSY:
        return "busy"
    if code in NO_ACCESS:
        return "no-access"
    return "other"


def is_transient(error: BaseException) -> bool:
    """A failure that waiting can cure: nothing is wrong with the data, the store retries later."""
    return kind_of(error) in ("busy", "no-access")


class StoreError(UserError):
    """The conversation database cannot be used right now; the sentence says why and what happens next."""


class StoreBusyError(StoreError):
    """Another program holds the database: EagleChat reads it but queues its writes until it is free."""


class StoreUnavailableError(StoreError):
    """The database cannot even be read (locked exclusively, or not openable): an empty view, retried."""


class StoreStuckError(StoreError):
    """The database is damaged but could not be moved aside (on Windows: another program holds it open)."""


def busy(path, reason: str) -> StoreBusyError:
    return StoreBusyError(
        "Another program is using your conversation database ({path}: {reason}), so EagleChat cannot "
        "save right now. What you do meanwhile is kept and written as soon as it is free; nothing was "
        "moved or changed.", path=path, reason=reason,
    )


def unavailable(path, reason: str) -> StoreUnavailableError:
    return StoreUnavailableError(
        "EagleChat cannot open your conversation database {path} ({reason}). It tries again every few "
        "seconds; nothing was moved or changed. Conversations cannot be saved until then.",
        path=path, reason=reason,
    )


def stuck(path, reason: str, move_error: str) -> StoreStuckError:
    return StoreStuckError(
        "Your conversation database {path} is damaged ({reason}) and could not be set aside "
        "({move_error}); it was left exactly as it is. Close any program that uses it and restart "
        "EagleChat.", path=path, reason=reason, move_error=move_error,
    )


def reason_text(error: BaseException) -> str:
    """A short reason for a sentence: SQLite's message and its code name when there is one."""
    name = getattr(error, "sqlite_errorname", None)
    message = str(error) or type(error).__name__
    return f"{message}, {name}" if name and name not in message else message


def moved_notice(tag: str, reason: str, backup, schema_version: int) -> str:
    """What the window says after the file was moved aside at open."""
    if tag == "newer":
        return (
            f"Your conversations were saved by a newer EagleChat ({reason}, this one reads {schema_version}). "
            f"They were kept unchanged in {backup}; update EagleChat to see them again. A new, empty history "
            "was started."
        )
    return (
        f"The conversation database could not be read ({reason}). It was kept in {backup} for recovery, "
        "and a new, empty history was started."
    )
