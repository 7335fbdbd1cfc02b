import sqlite3

import pytest

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage import store_errors
from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.store import SCHEMA_VERSION, ConversationStore
from eagle_chat.core.storage.store_errors import StoreBusyError, StoreStuckError, StoreUnavailableError


def stats():
    return GenerationStats(mode="speculative", num_assistant_tokens=5, generated_tokens=40, input_tokens=12,
                           ttft_ms=3.0, tpot_ms=1.5, tokens_per_s=660.0, duration_ms=70.0, accepted_tokens=20,
                           draft_tokens=30, acceptance=2 / 3, tokens_per_step=2.2)


def test_round_trip_with_stats(tmp_path):
    store = ConversationStore(tmp_path / "c.sqlite3")
    conversation = store.create_conversation(system_prompt="Be brief.")
    store.add_message(conversation, Message("user", "hi"))
    reply = store.add_message(conversation, Message("assistant", "hello", stats=stats()))
    store.close()
    again = ConversationStore(tmp_path / "c.sqlite3").load_conversation(conversation.id)
    assert [m.content for m in again.messages] == ["hi", "hello"]
    assert again.messages[1].stats == reply.stats
    assert again.system_prompt == "Be brief."


def test_streaming_rows_become_interrupted_on_reopen(tmp_path):
    store = ConversationStore(tmp_path / "c.sqlite3")
    conversation = store.create_conversation()
    store.add_message(conversation, Message("user", "tell me"))
    store.add_message(conversation, Message("assistant", "partial te", status="streaming"))
    # no close: as if killed
    reopened = ConversationStore(tmp_path / "c.sqlite3")
    assert reopened.recovered_interrupted == 1
    messages = reopened.load_conversation(conversation.id).messages
    assert [(m.content, m.status) for m in messages] == [("tell me", "complete"), ("partial te", "interrupted")]


def test_search_rename_delete(tmp_path):
    store = ConversationStore(tmp_path / "c.sqlite3")
    a = store.create_conversation("Quicksort")
    b = store.create_conversation("Other")
    store.add_message(b, Message("user", "what is 100% of x_y?"))
    assert [c.id for c in store.list_conversations("quick")] == [a.id]
    assert [c.id for c in store.list_conversations("100%")] == [b.id]
    assert store.list_conversations("x_y")[0].id == b.id
    store.rename_conversation(a.id, "Sorting")
    assert store.load_conversation(a.id).title == "Sorting"
    store.delete_conversation(b.id)
    assert [c.id for c in store.list_conversations()] == [a.id]


def test_corrupt_database_is_kept_aside_with_a_notice(tmp_path):
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    store = ConversationStore(path)
    assert store.notice and "could not be read" in store.notice
    backups = list(tmp_path.glob("c.sqlite3.corrupt-*"))
    assert len(backups) == 1 and backups[0].read_bytes().startswith(b"this is not")
    assert store.list_conversations() == []


def test_newer_database_is_never_overwritten(tmp_path):
    path = tmp_path / "c.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE future (x)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    store = ConversationStore(path)
    assert "newer EagleChat" in store.notice
    backup = next(tmp_path.glob("c.sqlite3.newer-*"))
    old = sqlite3.connect(backup)
    assert old.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    old.close()


# --- what may move a database aside, and what may not -------------------------------------------------

def history(path, conversations=3, messages=4):
    store = ConversationStore(path)
    ids = []
    for i in range(conversations):
        conversation = store.create_conversation(f"Topic {i}")
        for j in range(messages):
            store.add_message(conversation, Message("user" if j % 2 == 0 else "assistant", f"text {i}.{j}"))
        ids.append(conversation.id)
    store.close()
    return ids


def on_disk(path):
    """What is really in the file, read with a connection of its own."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT c.title, m.content FROM conversations c JOIN messages m ON m.conversation_id = c.id "
                      "ORDER BY c.id, m.id").fetchall()
    db.close()
    return rows


def siblings(path):
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name) and p != path
                  and not p.name.endswith(("-wal", "-shm")))


def test_a_write_lock_held_by_another_process_queues_writes_and_moves_nothing(tmp_path, hold_lock):
    import time

    path = tmp_path / "c.sqlite3"
    ids = history(path)
    before = on_disk(path)
    release = hold_lock(path, "write")
    started = time.perf_counter()
    store = ConversationStore(path)
    assert time.perf_counter() - started < 2  # was a 5 s freeze, then the history moved to .corrupt-*
    assert store.available and store.notice is None
    assert isinstance(store.problem, StoreBusyError) and "nothing was moved" in str(store.problem)
    assert [c.id for c in store.list_conversations()] == ids[::-1]  # still readable
    assert [m.content for m in store.load_conversation(ids[0]).messages][:2] == ["text 0.0", "text 0.1"]

    worst = 0.0
    new = store.create_conversation("Written while locked")
    for text in ("question", "answer"):
        t = time.perf_counter()
        store.add_message(new, Message("user", text))
        worst = max(worst, time.perf_counter() - t)
    store.rename_conversation(ids[1], "Renamed while locked")
    assert worst < 0.5  # never SQLite's 5 s busy wait
    assert store.unsaved and store.list_conversations()[0].title == "Written while locked"
    assert store.load_conversation(new.id).messages[1].content == "answer"
    assert store.list_conversations("answ")[0].id == new.id
    assert not store.flush()  # still locked
    assert on_disk(path) == before and siblings(path) == []

    release()
    assert store.flush() and not store.unsaved and store.problem is None
    store.close()
    after = on_disk(path)
    assert after[: len(before)] == [("Renamed while locked" if t == "Topic 1" else t, c) for t, c in before]
    assert after[len(before):] == [("Written while locked", "question"), ("Written while locked", "answer")]
    assert siblings(path) == []


def test_an_old_history_opened_while_locked_is_migrated_once_the_lock_goes(tmp_path, hold_lock):
    """The first start after an update (the search index is new) while another process writes: the
    migration must wait too — a lock is not damage, even when the schema needs writing."""
    path = tmp_path / "c.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(store_module_schema_without_index())
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("INSERT INTO conversations (id, title, system_prompt, created, updated) VALUES (1, 'Before the update', '', 0, 0)")
    db.execute("INSERT INTO messages (conversation_id, role, content, status, created) "
               "VALUES (1, 'assistant', 'a reply cut off by a crash', 'streaming', 0)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.commit()
    db.close()
    release = hold_lock(path, "write")
    store = ConversationStore(path)
    assert isinstance(store.problem, StoreBusyError) and store.notice is None and siblings(path) == []
    assert store.recovered_interrupted == 1
    assert store.load_conversation(1).messages[0].status == "interrupted"  # as it will be written
    assert [c.title for c in store.list_conversations("cut off")] == ["Before the update"]  # no index yet
    release()
    assert store.flush() and not store.unsaved
    assert store.wait_for_index(60) and [c.id for c in store.list_conversations("cut off")] == [1]
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT status FROM messages").fetchone()[0] == "interrupted"
    assert db.execute("SELECT count(*) FROM messages_fts_docsize").fetchone()[0] == 1
    db.close()
    assert siblings(path) == []


def test_an_exclusive_lock_gives_an_empty_view_that_fills_when_it_goes(tmp_path, hold_lock):
    path = tmp_path / "c.sqlite3"
    ids = history(path)
    release = hold_lock(path, "exclusive")
    store = ConversationStore(path)
    assert not store.available and isinstance(store.problem, StoreUnavailableError)
    assert store.list_conversations() == [] and store.notice is None
    note = store.create_conversation("Kept in memory")
    store.add_message(note, Message("user", "while it was locked"))
    assert [c.title for c in store.list_conversations()] == ["Kept in memory"]
    assert not store.flush()
    release()
    assert store.flush() and store.available and store.problem is None
    assert [c.id for c in store.list_conversations()] == [note.id, *ids[::-1]]
    store.close()
    assert ("Kept in memory", "while it was locked") in on_disk(path) and siblings(path) == []


def test_an_unopenable_database_is_reported_and_left_alone(tmp_path):
    path = tmp_path / "c.sqlite3"
    path.mkdir()  # SQLite: unable to open database file
    (path / "keep").write_text("mine", encoding="utf-8")
    store = ConversationStore(path)
    assert not store.available and isinstance(store.problem, StoreUnavailableError)
    assert "cannot open" in str(store.problem)
    assert store.list_conversations() == []
    assert (path / "keep").read_text(encoding="utf-8") == "mine" and siblings(path) == []


def test_a_damaged_database_that_cannot_be_moved_does_not_crash(tmp_path, monkeypatch):
    import eagle_chat.core.files as files

    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"not a database" * 100)

    def refuse(src, dst):
        raise PermissionError(32, "The process cannot access the file because it is being used", str(src))

    monkeypatch.setattr(files.os, "replace", refuse)
    store = ConversationStore(path)
    assert isinstance(store.problem, StoreStuckError) and "left exactly as it is" in str(store.problem)
    assert path.read_bytes() == b"not a database" * 100 and siblings(path) == []
    assert store.list_conversations() == []


def test_only_corrupt_and_notadb_count_as_damage(tmp_path):
    garbage = tmp_path / "g.sqlite3"
    garbage.write_bytes(b"\x00garbage" * 500)
    with pytest.raises(sqlite3.DatabaseError) as notadb:
        sqlite3.connect(garbage).execute("PRAGMA user_version").fetchone()
    assert store_errors.kind_of(notadb.value) == "damaged"
    with pytest.raises(sqlite3.OperationalError) as cantopen:
        sqlite3.connect(tmp_path / "missing" / "x.sqlite3")
    assert store_errors.kind_of(cantopen.value) == "no-access"
    path = tmp_path / "c.sqlite3"
    history(path, 1, 1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError) as busy:
        sqlite3.connect(path, timeout=0).execute("INSERT INTO conversations (title, created, updated) "
                                                 "VALUES ('x', 0, 0)")
    holder.execute("ROLLBACK")
    holder.close()
    assert store_errors.kind_of(busy.value) == "busy"
    assert store_errors.kind_of(sqlite3.OperationalError("no such table: x")) == "other"


def test_changes_still_unsaved_on_close_are_kept_in_a_file(tmp_path, hold_lock, monkeypatch):
    import json

    from eagle_chat.core.storage import store as store_module

    monkeypatch.setattr(store_module, "CLOSE_TIMEOUT_S", 0.05)
    path = tmp_path / "c.sqlite3"
    history(path, 1, 1)
    release = hold_lock(path, "write")
    store = ConversationStore(path)
    conversation = store.create_conversation("Unsaved")
    store.add_message(conversation, Message("user", "do not lose me"))
    store.close()
    release()
    kept = list(tmp_path.glob("c.sqlite3.unsaved-*.json"))
    assert len(kept) == 1
    data = json.loads(kept[0].read_text(encoding="utf-8"))
    assert data["conversations"][0]["messages"][0]["content"] == "do not lose me"


# --- search -------------------------------------------------------------------------------------------

def test_search_uses_the_index_and_matches_substrings_anywhere(tmp_path):
    store = ConversationStore(tmp_path / "c.sqlite3")
    a = store.create_conversation("Sorting")
    b = store.create_conversation("Other")
    store.add_message(a, Message("user", "Write QuickSort in Python"))
    reply = store.add_message(b, Message("assistant", "a context manager says \"with\""))
    assert [c.id for c in store.list_conversations("quicks")] == [a.id]  # inside a word, any case
    assert [c.id for c in store.list_conversations('says "with"')] == [b.id]  # quotes are text
    assert store.list_conversations("ort")[0].id == a.id  # title "Sorting" and "QuickSort"
    assert [c.id for c in store.list_conversations("Ot")] == [b.id]  # short: titles only
    reply.content = "rewritten entirely"
    store.update_message(reply)
    assert store.list_conversations('says "with"') == [] and store.list_conversations("entirely")[0].id == b.id
    store.delete_conversation(b.id)
    assert store.list_conversations("entirely") == []
    plan = " ".join(str(r[-1]) for r in store._db.execute(
        "EXPLAIN QUERY PLAN SELECT rowid FROM messages_fts WHERE messages_fts MATCH '\"quick\"'"))
    assert "VIRTUAL TABLE INDEX" in plan


def test_an_empty_index_is_rebuilt_once_for_an_existing_history(tmp_path):
    path = tmp_path / "c.sqlite3"
    db = sqlite3.connect(path)  # a history written before the index existed
    db.executescript(store_module_schema_without_index())
    db.execute("INSERT INTO conversations (id, title, system_prompt, created, updated) VALUES (1, 'Old', '', 0, 0)")
    db.executemany("INSERT INTO messages (conversation_id, role, content, created) VALUES (1, 'user', ?, 0)",
                   [(f"message number {i}",) for i in range(50)])
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.commit()
    db.close()
    store = ConversationStore(path)
    assert [c.title for c in store.list_conversations("number 42")] == ["Old"]  # by scanning, or the index
    late = store.add_message(store.load_conversation(1), Message("user", "written while it fills"))
    assert store.wait_for_index(60) and store.problem is None  # filled on its own thread; no notice
    assert store.flush() and not store.unsaved
    assert [c.title for c in store.list_conversations("number 42")] == ["Old"]
    assert [c.title for c in store.list_conversations("while it fills")] == ["Old"]
    assert store._db.execute("SELECT count(*) FROM messages_fts_docsize").fetchone()[0] == 51
    store.close()
    assert late.id is not None
    again = ConversationStore(path)
    assert again._indexer is None  # once only
    again.close()


def store_module_schema_without_index():
    from eagle_chat.core.storage import store as store_module

    return store_module._SCHEMA.split(store_module._INDEX_MARK)[0]


def test_without_the_trigram_tokenizer_search_scans_the_text(tmp_path, monkeypatch):
    from eagle_chat.core.storage import store as store_module

    monkeypatch.setattr(store_module, "_SCHEMA", store_module._SCHEMA.replace("'trigram'", "'no_such_tokenizer'"))
    store = ConversationStore(tmp_path / "c.sqlite3")  # e.g. an SQLite built without FTS5
    assert store.available and not store.search_indexed
    conversation = store.create_conversation("Plain")
    store.add_message(conversation, Message("user", "find me by scanning"))
    assert [c.title for c in store.list_conversations("by scann")] == ["Plain"]
    store.close()


def test_an_import_while_another_program_writes_says_why_and_works_once_it_is_free(tmp_path, hold_lock):
    from eagle_chat.core.storage.conversation import Conversation

    path = tmp_path / "c.sqlite3"
    history(path, conversations=1, messages=2)
    release = hold_lock(path, "write")
    store = ConversationStore(path)
    queued = store.create_conversation("Written while locked")  # queued behind the lock
    imported = Conversation(title="Imported")
    imported.messages = imported.all_messages = [Message("user", "from a file", id=1)]
    with pytest.raises(StoreBusyError):
        store.insert_conversation(imported)
    release()
    again = store.insert_conversation(imported)
    assert [m.content for m in again.messages] == ["from a file"]
    titles = [t for t, _ in on_disk(path)]
    assert "Imported" in titles and queued.id is not None
    assert [c.title for c in store.list_conversations()][:2] == ["Imported", "Written while locked"]
    store.close()
