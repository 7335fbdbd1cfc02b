"""The conversation database's tables, indexes and search index at the current schema version.

Everything is ``CREATE … IF NOT EXISTS``: a file gains what it lacks when opened. Columns an older file
lacks are added by :mod:`eagle_chat.core.storage.migrations` (a version step). The search index comes after
``INDEX_MARK``: where SQLite has no FTS5 trigram tokenizer, the part before it is used alone.
"""

INDEX_MARK = "-- search index"
SCHEMA = """
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
    made_with TEXT,
    tool_steps TEXT,
    sources TEXT
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, id);
CREATE INDEX IF NOT EXISTS messages_by_parent ON messages(parent_id);
-- search index: message text by trigrams (needs SQLite >= 3.34 with FTS5; without it search uses LIKE)
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
    content, content='messages', content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
END;
"""
