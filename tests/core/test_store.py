import sqlite3

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.store import SCHEMA_VERSION, ConversationStore


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
