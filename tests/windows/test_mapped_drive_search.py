"""Conversation search on a database whose resolve()d name SQLite cannot open: on Windows, a mapped drive
(Z:\\) resolves to its UNC name (\\\\server\\share\\), which a ``file:`` URI cannot carry."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from eagle_chat.core.storage.store import ConversationStore


def test_search_opens_the_database_by_the_name_it_was_given(tmp_path, monkeypatch):
    store = ConversationStore(tmp_path / "Z盘" / "conversations.sqlite3")
    store.create_conversation("lighthouse keepers")
    real_resolve = Path.resolve
    # what Windows does to a mapped drive: the same file, under a name only the SMB client knows
    monkeypatch.setattr(Path, "resolve", lambda self, strict=False: Path("//nas/share") / real_resolve(self).name)
    reader = store.search_reader()
    try:
        assert len(reader.matching_ids("lighthouse", indexed=False)) == 1
        with pytest.raises(sqlite3.OperationalError):  # still read-only
            reader._db.execute("DELETE FROM conversations")
    finally:
        reader.close()
        store.close()
