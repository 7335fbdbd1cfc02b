"""A grounded reply's document passages are kept: the v3 -> v4 migration (committed v3 fixture), the store,
the history the model is sent (passages with the question they answer, given once), both exports and the
JSON import."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from eagle_chat.core.storage import export
from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.sources import INSTRUCTION, cited
from eagle_chat.core.storage.store import SCHEMA_VERSION, ConversationStore

FIXTURE = Path(__file__).parents[1] / "fixtures" / "conversations-v3.sqlite3"
FIRST = [{"n": 1, "path": "/docs/report.pdf", "page": 3, "text": "The launch code is 4711.", "score": 0.03,
          "repeat": False},
         {"n": 2, "path": "/docs/notes.md", "page": None, "text": "Launches happen at dawn.", "score": 0.02,
          "repeat": False}]
SECOND = [dict(FIRST[0], repeat=True),
          {"n": 3, "path": "/docs/plan.docx", "page": None, "text": "Budget: 12 coins.", "score": 0.01,
           "repeat": False}]


def test_a_version_3_file_upgrades_to_4_keeping_every_message_and_its_tool_steps(tmp_path):
    path = tmp_path / "conversations.sqlite3"
    shutil.copyfile(FIXTURE, path)
    assert sqlite3.connect(FIXTURE).execute("PRAGMA user_version").fetchone()[0] == 3
    store = ConversationStore(path)
    try:
        assert SCHEMA_VERSION == 4
        conversations = [store.load_conversation(s.id) for s in store.list_conversations()]
        messages = [m for c in conversations for m in c.all_messages]
        assert len(messages) == 9 and all(m.sources is None for m in messages)
        agent = next(m for m in messages if m.tool_steps)
        assert [c["name"] for c in agent.tool_steps[0]["calls"]] == ["weather", "add"]
        assert agent.content == "Light rain, 21 degrees." and agent.stats.tokens_per_s == 500.0
    finally:
        store.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 4
    assert (tmp_path / "conversations.sqlite3.v3-backup").exists()


def grounded_conversation(store):
    c = store.create_conversation("Docs")
    store.add_message(c, Message("user", "What is the launch code?"))
    store.add_message(c, Message("assistant", "It is 4711 [1].", sources=FIRST))
    store.add_message(c, Message("user", "And the budget?"))
    reply = store.add_message(c, Message("assistant", "", status="streaming", sources=SECOND))
    reply.content, reply.status = "12 coins [3], for the launch [1].", "complete"
    store.update_message(reply)
    return c


def test_sources_are_stored_sent_once_with_their_question_exported_and_imported(tmp_path):
    store = ConversationStore(tmp_path / "c.sqlite3")
    c = grounded_conversation(store)
    store.close()
    store = ConversationStore(tmp_path / "c.sqlite3")
    try:
        again = store.load_conversation(c.id)
    finally:
        store.close()
    assert [m.sources for m in again.messages] == [None, FIRST, None, SECOND]
    history = again.history()
    first, second = history[0]["content"], history[2]["content"]
    assert "[1] report.pdf, page 3:\nThe launch code is 4711." in first and "[2] notes.md:\nLaunches" in first
    assert first.endswith(INSTRUCTION + "\n\nQuestion: What is the launch code?")
    # given before: named, not sent again; the new one in full
    assert "4711" not in second and "also apply: [1]." in second and "[3] plan.docx:\nBudget: 12 coins." in second
    assert history[1] == {"role": "assistant", "content": "It is 4711 [1]."}
    assert cited(again.messages[-1].content, SECOND) == [3, 1]
    assert cited("see [2] and [9]", SECOND) == []  # only the reply's own passages

    data = export.to_json(again)
    assert [r["sources"] for r in data["messages"]] == [None, FIRST, None, SECOND]
    assert export.from_json(data).messages[-1].sources == SECOND
    markdown = export.to_markdown(again)
    assert "[1] report.pdf, page 3 — `/docs/report.pdf`\n\n> The launch code is 4711." in markdown
    assert "[3] plan.docx — `/docs/plan.docx`" in markdown
    bad = dict(data, messages=[dict(r, sources=[{"n": "one", "path": 3}]) for r in data["messages"]])
    with pytest.raises(export.ConversationFileError, match="document passages of message 1"):
        export.from_json(bad)
