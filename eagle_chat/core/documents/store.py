"""The documents index in SQLite: files, chunks with their vectors (float32 BLOBs) and an FTS5 index over the
chunk text, in a file of its own beside the conversations (``paths.documents_database_file()``).

Every file's chunks are written in one transaction that also records the file (size, mtime, SHA-256): a
process killed mid-index leaves each file either fully indexed or as it was, never half of one. Search is
hybrid: exact cosine over the vectors (numpy, kept in memory between searches) and FTS5's BM25 (unicode61
words, each CJK character a word; a question's terms are built by :mod:`.terms`), fused by reciprocal rank
(RRF, k = 60) — the vectors' half only when their cosines separate the chunks (:func:`separates`). The FTS table is contentless (the text is in ``chunks`` once) and written by this class in the same
transaction as the chunks: other programs may read the file but must not delete chunks.
"""

from __future__ import annotations

import math
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from eagle_chat.core.documents.terms import fts_query, fts_text, matched, query_phrases
from eagle_chat.core.errors import UserError

SCHEMA_VERSION = 1
RRF_K = 60
# BM25 leaves out a query phrase found in more than this share of the chunks: it says little about which
# chunk answers (its IDF is near 0) and costs the most, since BM25 scores every chunk it matches (at 100k
# chunks a query with such words took p50 188 ms instead of 10).
COMMON_SHARE = 0.05
KEYWORD_ONLY_STAMP = "keyword-only:0"  # the meta 'embedder' of an index built with no embedding model
# The vector half of a search votes only when its candidates' cosines spread this far (see :func:`separates`).
MIN_SEPARATION = 0.08
FTS_BUDGET_S = 0.15  # past this, the BM25 part of a search is dropped (the vectors still answer)
FTS_CHECK_EVERY = 20_000  # SQLite virtual-machine steps between two looks at the clock
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY, collection TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, sha256 TEXT NOT NULL, chunks INTEGER NOT NULL, indexed_at REAL NOT NULL,
    UNIQUE(collection, path));
CREATE TABLE IF NOT EXISTS chunks(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id), ordinal INTEGER NOT NULL,
    page INTEGER, text TEXT NOT NULL, vector BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, content='',
    tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, 'row');
"""


def separates(scores: np.ndarray) -> bool:
    """Whether the query's cosines over the candidate chunks (the best ``candidates`` of them) say anything
    about which one answers: they must spread over at least :data:`MIN_SEPARATION`. An embedder with random
    weights (the bundled test one) gives them nearly the same cosine (0.90-0.97 over a small English library,
    0.97-0.997 over Chinese text), and reciprocal rank fusion would count the order of that noise as much as
    the keyword rank; a trained embedder puts the passages about the question well above the others."""
    finite = scores[np.isfinite(scores)]
    if len(finite) < 2:
        return len(finite) == 1
    return float(finite.max() - finite.min()) >= MIN_SEPARATION


class DocumentIndexError(UserError):
    """The documents index cannot be used as asked (another embedder, a newer file)."""


@dataclass(frozen=True)
class FileRow:
    id: int
    collection: str
    path: str
    size: int
    mtime_ns: int
    sha256: str
    chunks: int
    indexed_at: float


@dataclass(frozen=True)
class Hit:
    path: str
    page: int | None
    text: str
    score: float
    cosine: float
    bm25_rank: int | None
    collection: str
    chunk_id: int
    rerank_score: float | None = None  # the reranker's score, when the hits were reranked (``score`` stays hybrid)

    def as_json(self) -> dict:
        return {"file": self.path, "page": self.page, "score": round(self.score, 6), "cosine": round(self.cosine, 6),
                "bm25_rank": self.bm25_rank,
                "rerank_score": None if self.rerank_score is None else round(self.rerank_score, 6),
                "collection": self.collection, "text": self.text}


class DocumentStore:
    def __init__(self, path: Path, *, timeout_s: float = 10.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=timeout_s, isolation_level=None, check_same_thread=False)
        self._lock = threading.RLock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise DocumentIndexError("The documents index {path} was written by a newer EagleChat.",
                                     path=str(self.path))
        self._db.executescript(SCHEMA)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._vectors: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # ids, collections, matrix
        self.last_vectors_voted = False  # whether the last search's vectors were counted (see separates)
        self._doc_counts: dict[str, int] = {}  # token -> chunks holding it; fts5vocab counts by reading them

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- meta -------------------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def check_embedder(self, name: str, dimensions: int) -> None:
        """Record the embedder on first use; refuse another one later (its vectors would not compare)."""
        stamp = f"{name}:{dimensions}"
        with self._lock:
            known = self.meta("embedder")
            if known is None or not self.chunk_count():
                self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('embedder', ?)", (stamp,))
            elif known != stamp:
                raise DocumentIndexError(
                    "The documents index was built with the embedding model {known}, not {wanted}; use that "
                    "one (--embedder DIR), or remove the documents (`eagle-chat docs remove --all`) to index "
                    "them again with the new one.", known=known, wanted=stamp)

    def keyword_only(self) -> bool:
        """Chunks indexed with no embedding model: they have no vectors, and are searched by their words."""
        return self.meta("embedder") == KEYWORD_ONLY_STAMP and self.chunk_count() > 0

    def add_vectors(self, name: str, dimensions: int, embed, *, batch: int = 64) -> int:
        """A keyword-only index gets the vectors of an embedder pulled since (``embed``: texts → rows), with its
        stamp, in one transaction (a kill leaves it keyword-only). Chunks stay as cut: estimated tokens over-count."""
        with self._lock:
            rows = self._db.execute("SELECT id, text FROM chunks ORDER BY id").fetchall()
            vectors = []
            for start in range(0, len(rows), batch):
                part = np.asarray(embed([text for _, text in rows[start:start + batch]]), dtype=np.float32)
                if part.shape != (len(rows[start:start + batch]), dimensions):
                    raise ValueError(f"the embedder gave vectors of shape {part.shape}, not (n, {dimensions})")
                vectors.append(part)
            with self._transaction():
                for (chunk_id, _), vector in zip(rows, (v for part in vectors for v in part)):
                    self._db.execute("UPDATE chunks SET vector = ? WHERE id = ?",
                                     (np.ascontiguousarray(vector).tobytes(), chunk_id))
                self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('embedder', ?)",
                                 (f"{name}:{dimensions}",))
            self._vectors = None
        return len(rows)

    # --- files ------------------------------------------------------------------------------------------
    def file(self, collection: str, path: str) -> FileRow | None:
        row = self._db.execute("SELECT * FROM files WHERE collection = ? AND path = ?", (collection, path)).fetchone()
        return FileRow(*row) if row else None

    def files(self, collection: str | None = None) -> list[FileRow]:
        if collection is None:
            rows = self._db.execute("SELECT * FROM files ORDER BY collection, path")
        else:
            rows = self._db.execute("SELECT * FROM files WHERE collection = ? ORDER BY path", (collection,))
        return [FileRow(*row) for row in rows]

    def file_count(self, collection: str) -> int:
        return self._db.execute("SELECT COUNT(*) FROM files WHERE collection = ?", (collection,)).fetchone()[0]

    def collections(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT DISTINCT collection FROM files ORDER BY collection")]

    def chunk_count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def put_file(self, collection: str, path: str, size: int, mtime_ns: int, sha256: str,
                 chunks: list[tuple[int | None, str]], vectors: np.ndarray) -> None:
        """Replace the file's chunks and record it, all in one transaction."""
        if len(chunks) != len(vectors):
            raise ValueError("one vector per chunk")
        blobs = [np.ascontiguousarray(v, dtype=np.float32).tobytes() for v in vectors]
        with self._lock, self._transaction():
            old = self._db.execute("SELECT id FROM files WHERE collection = ? AND path = ?",
                                   (collection, path)).fetchone()
            if old:
                self._delete_chunks(old[0])
                self._db.execute("DELETE FROM files WHERE id = ?", (old[0],))
            file_id = self._db.execute(
                "INSERT INTO files(collection, path, size, mtime_ns, sha256, chunks, indexed_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (collection, path, size, mtime_ns, sha256, len(chunks), time.time())).lastrowid
            assert file_id is not None  # an INSERT sets it
            self._insert_chunks(file_id, chunks, blobs)
            self._vectors = None
            self._doc_counts.clear()

    def _insert_chunks(self, file_id: int, chunks, blobs) -> None:
        for n, ((page, text), blob) in enumerate(zip(chunks, blobs)):
            chunk_id = self._db.execute(
                "INSERT INTO chunks(file_id, ordinal, page, text, vector) VALUES (?, ?, ?, ?, ?)",
                (file_id, n, page, text, blob)).lastrowid
            self._db.execute("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)", (chunk_id, fts_text(text)))

    def _delete_chunks(self, file_id: int) -> None:
        """A contentless FTS5 table forgets a row only when given the text it indexed (SQLite 3.40 here: no
        contentless_delete), so the chunks' text is read back first."""
        self._db.executemany("INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', ?, ?)",
                             [(chunk_id, fts_text(text)) for chunk_id, text in
                              self._db.execute("SELECT id, text FROM chunks WHERE file_id = ?", (file_id,))])
        self._db.execute("DELETE FROM chunks WHERE file_id = ?", (file_id,))

    def touch_file(self, file_id: int, size: int, mtime_ns: int) -> None:
        """Same content, new stat (a copy or a `touch`): remember the stat so the next run skips the hash."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE id = ?", (size, mtime_ns, file_id))

    def remove_files(self, ids: list[int]) -> int:
        with self._lock, self._transaction():
            for file_id in ids:
                self._delete_chunks(file_id)
                self._db.execute("DELETE FROM files WHERE id = ?", (file_id,))
            self._vectors = None
            self._doc_counts.clear()
        return len(ids)

    def _transaction(self):
        db = self._db

        class _Tx:
            def __enter__(self_):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self_, kind, value, tb):
                db.execute("COMMIT" if kind is None else "ROLLBACK")
                return False

        return _Tx()

    # --- search -----------------------------------------------------------------------------------------
    def _load_vectors(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every chunk's id, collection and vector, read once (in one read transaction, so the count holds)
        straight into preallocated arrays: the peak is the matrix itself, not the rows and a joined copy."""
        if self._vectors is None:
            self._db.execute("BEGIN")
            try:
                count = self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
                ids = np.empty(count, dtype=np.int64)
                collections = np.empty(count, dtype=object)
                matrix = np.zeros((count, 0), dtype=np.float32)
                names: dict[str, str] = {}
                rows = self._db.execute(
                    "SELECT c.id, f.collection, c.vector FROM chunks c JOIN files f ON f.id = c.file_id")
                for n, (chunk_id, collection, blob) in enumerate(rows):
                    if n == 0:
                        matrix = np.empty((count, len(blob) // 4), dtype=np.float32)
                    ids[n] = chunk_id
                    collections[n] = names.setdefault(collection, collection)
                    matrix[n] = np.frombuffer(blob, dtype=np.float32)
            finally:
                self._db.execute("COMMIT")
            self._vectors = (ids, collections, matrix)
        return self._vectors

    def _informative(self, phrases: list[list[str]]) -> list[list[str]]:
        """The phrases in at most COMMON_SHARE of the chunks (a small index keeps all). A two-character phrase
        whose characters are both common is counted itself: 的船 is rare where 的 and 船 are not."""
        total = len(self._vectors[0]) if self._vectors is not None else self.chunk_count()
        limit = max(COMMON_SHARE * total, 50)
        kept = []
        for phrase in phrases:
            counts = [self._doc_count(token) for token in phrase]
            if min(counts, default=0) <= limit or (len(phrase) > 1 and self._phrase_count(phrase) <= limit):
                kept.append(phrase)
        return kept

    def _doc_count(self, token: str) -> int:
        """Chunks holding ``token``, remembered until the index changes: fts5vocab reads the token's whole
        posting list to count it (12 ms for a word in all of 100k chunks, 0.2 ms for a rare one)."""
        count = self._doc_counts.get(token)
        if count is None:
            if len(self._doc_counts) > 100_000:
                self._doc_counts.clear()
            row = self._db.execute("SELECT doc FROM chunks_vocab WHERE term = ?", (token,)).fetchone()
            count = self._doc_counts[token] = row[0] if row else 0
        return count

    def _bounded(self, sql: str, params) -> list[int]:
        """The query's chunk ids, or none if it runs past FTS_BUDGET_S (SQLite interrupts it)."""
        deadline = time.perf_counter() + FTS_BUDGET_S
        self._db.set_progress_handler(lambda: time.perf_counter() > deadline, FTS_CHECK_EVERY)
        try:
            return [row[0] for row in self._db.execute(sql, params)]
        except sqlite3.OperationalError as error:
            if "interrupt" not in str(error):
                raise
            return []
        finally:
            self._db.set_progress_handler(None, 0)

    def _covering(self, phrases: list[list[str]], found: list[int]) -> list[int]:
        """BM25's candidates reordered by the rarity of the question's terms each holds, every term counted
        once whatever the chunk's length (BM25 with k1 = 0 and b = 0: the sum of the matched terms' IDF);
        FTS5's own BM25 order breaks ties. FTS5's length normalisation otherwise puts a short chunk that
        repeats the question's common words (a FAQ) above the long one that holds its rare ones and the answer."""
        if len(found) < 2 or len(phrases) < 2:
            return found
        texts = dict(self._db.execute(f"SELECT id, text FROM chunks WHERE id IN ({','.join('?' * len(found))})",
                                      found))
        total = max(self.chunk_count(), 1)
        idf = [math.log(1 + (total - n + 0.5) / (n + 0.5)) for n in (self._phrase_count(p) for p in phrases)]
        weight = {i: sum(w for w, hit in zip(idf, matched(phrases, texts.get(i, ""))) if hit) for i in found}
        order = {i: n for n, i in enumerate(found)}
        return sorted(found, key=lambda i: (-round(weight[i], 9), order[i]))

    def _phrase_count(self, phrase: list[str]) -> int:
        """Chunks holding ``phrase`` (a word, or two CJK characters side by side), remembered like _doc_count."""
        if len(phrase) == 1:
            return self._doc_count(phrase[0])
        key = " ".join(phrase)
        count = self._doc_counts.get(key)
        if count is None:
            count = self._doc_counts[key] = self._db.execute(
                "SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (fts_query([phrase]),)).fetchone()[0]
        return count

    def search(self, query: str, query_vector: np.ndarray | None, *, k: int = 5, collection: str | None = None,
               candidates: int = 50) -> list[Hit]:
        with self._lock:
            ranks: dict[int, float] = {}
            cosines: dict[int, float] = {}
            self.last_vectors_voted = False
            tail: dict[int, float] = {}  # vectors that do not vote: chunks no keyword found, after those it did
            bm25_ranks: dict[int, int] = {}
            if query_vector is not None:
                ids, collections, matrix = self._load_vectors()
                if len(ids):
                    scores = matrix @ np.asarray(query_vector, dtype=np.float32)
                    if collection is not None:
                        scores = np.where(collections == collection, scores, -np.inf)
                    top = min(candidates, len(scores))
                    best = np.argpartition(-scores, top - 1)[:top]
                    best = best[np.argsort(-scores[best])]
                    votes = separates(scores[best])
                    for rank, index in enumerate(best):
                        if np.isfinite(scores[index]):
                            chunk_id = int(ids[index])
                            cosines[chunk_id] = float(scores[index])
                            vote = 1.0 / (RRF_K + rank + 1)
                            if votes:
                                ranks[chunk_id] = ranks.get(chunk_id, 0.0) + vote
                            else:
                                tail[chunk_id] = vote * 1e-3
                    self.last_vectors_voted = votes
            phrases = self._informative(query_phrases(query))
            match = fts_query(phrases)
            if match:
                # Without a collection, no join: joined, every matching row is looked up before the LIMIT
                # (at 100k chunks p95 32 ms with the join, 3.6 ms without).
                if collection is None:
                    sql = "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts) LIMIT ?"
                    params: tuple = (match, candidates)
                else:
                    sql = ("SELECT chunks_fts.rowid FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid "
                           "JOIN files f ON f.id = c.file_id WHERE chunks_fts MATCH ? AND f.collection = ? "
                           "ORDER BY bm25(chunks_fts) LIMIT ?")
                    params = (match, collection, candidates)
                for rank, chunk_id in enumerate(self._covering(phrases, self._bounded(sql, params))):
                    bm25_ranks[chunk_id] = rank + 1
                    ranks[chunk_id] = ranks.get(chunk_id, 0.0) + 1.0 / (RRF_K + rank + 1)
            for chunk_id, score in tail.items():
                if chunk_id not in bm25_ranks:
                    ranks[chunk_id] = score
            best_ids = sorted(ranks, key=lambda i: (-ranks[i], i))[:k]
            if not best_ids:
                return []
            rows = {r[0]: r for r in self._db.execute(
                "SELECT c.id, f.path, c.page, c.text, f.collection, c.vector FROM chunks c JOIN files f ON "
                f"f.id = c.file_id WHERE c.id IN ({','.join('?' * len(best_ids))})", best_ids)}
            hits = []
            for chunk_id in best_ids:
                _, path, page, text, coll, blob = rows[chunk_id]
                cosine = cosines.get(chunk_id)
                if cosine is None and query_vector is not None:
                    cosine = float(np.frombuffer(blob, dtype=np.float32) @ np.asarray(query_vector, np.float32))
                hits.append(Hit(path, page, text, ranks[chunk_id], cosine or 0.0, bm25_ranks.get(chunk_id),
                                coll, chunk_id))
            return hits
