"""The documents index: indexing throughput and hybrid-search latency at 1k, 10k and 100k chunks, memory at 100k.

Two kinds of figure:

* **indexing, end to end** (read → chunk in the embedder's tokens → embed with OpenVINO → one transaction
  per file): the tiny embedder (``tests/models/tiny-embedder``, 64 dimensions) on Markdown files of
  synthetic prose, chunks/s. A real embedder costs more per chunk; the embedding share is printed apart.
* **search at scale**: indexes of 1k, 10k and 100k chunks written straight through ``DocumentStore.put_file``
  with random unit vectors of ``--dims`` dimensions (384, as MiniLM / bge-small), the chunk text being
  synthetic prose (30,000 pseudo-words with Zipf frequencies, as in English text); query words are drawn
  from the same distribution without its 150 most common words (the part stop words play in real queries;
  a query word that most chunks contain makes BM25 score most of the index). Each search is a full hybrid
  one — exact cosine over every vector (numpy) + FTS5 BM25 over words + RRF — with a random query vector
  and a 3-word query; p50/p95 of
  ``--queries`` searches after one warm-up (the first search of a process loads the vectors: printed too).
  The store's write rate without embedding is printed as well, and "p95 any words": queries whose words
  come from the whole distribution, the most common included.

    python benchmarks/documents.py               # 1k, 10k, 100k; a few minutes on 2 shared cores
    python benchmarks/documents.py --sizes 1000 10000 --queries 50
    python benchmarks/documents.py --sizes 1000 --folder-files 50000   # + a folder of 50,000 small files
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from _common import ROOT, private_home, rss_mb  # noqa: F401 - puts the repo on sys.path

WORDS = ("river mountain ledger budget harbour lantern orchard signal quarry meadow archive compass theorem "
         "voltage crystal falcon granite velvet cobalt saffron prism tundra ember glacier beacon canyon "
         "delta fjord isotope juniper kestrel lagoon magnet nebula oasis pepper quartz raven sierra tidal "
         "umber vortex willow xenon yarrow zephyr anchor bramble cedar dune estuary fern grove heron").split()


def _vocabulary(size: int = 30000) -> tuple[list[str], list[float]]:
    """Pseudo-words with Zipf-like frequencies (s = 1.07, as in English prose): a few very common words, a long
    tail of rare ones. The list above gives the most common ones readable names."""
    rng = random.Random(0)
    syllables = ["ka", "lo", "mi", "ren", "to", "sa", "vel", "dor", "an", "ith", "ur", "pe", "gal", "mon", "ti"]
    words = list(WORDS)
    seen = set(words)
    while len(words) < size:
        w = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if w not in seen:
            seen.add(w)
            words.append(w)
    weights = [1.0 / (rank + 1) ** 1.07 for rank in range(size)]
    return words, weights


VOCAB, WEIGHTS = _vocabulary()
# Queries leave out the most common words, as fts_query leaves out English stop words (the, and, what, …):
# ranks below this play that part in the synthetic text.
COMMON = 150


def prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choices(VOCAB, WEIGHTS, k=words)) + "."


def pct(values, q) -> float:
    return float(np.percentile(np.array(values), q))


def end_to_end(chunks_wanted: int, tmp: Path) -> None:
    from eagle_chat.core.documents.embedder import OpenVinoEmbedder
    from eagle_chat.core.documents.indexer import Indexer
    from eagle_chat.core.documents.store import DocumentStore

    rng = random.Random(1)
    folder = tmp / "docs"
    folder.mkdir()
    files = max(1, chunks_wanted // 20)
    for n in range(files):  # ~20 chunks of 256 tokens per file
        (folder / f"doc{n:04}.md").write_text("\n\n".join(prose(rng, 120) for _ in range(40)), encoding="utf-8")
    embedder = OpenVinoEmbedder(ROOT / "tests" / "models" / "tiny-embedder")
    embed_s = 0.0
    real = embedder.embed_documents

    def timed(texts):
        nonlocal embed_s
        start = time.perf_counter()
        out = real(texts)
        embed_s += time.perf_counter() - start
        return out

    embedder.embed_documents = timed
    store = DocumentStore(tmp / "e2e.sqlite3")
    start = time.perf_counter()
    report = Indexer(store, embedder).add([folder])
    total = time.perf_counter() - start
    print(f"indexing end to end (tiny embedder, 64 d): {len(report.added)} files, {report.chunks} chunks in "
          f"{total:.1f} s = {report.chunks / total:.0f} chunks/s (embedding {embed_s / total:.0%} of the time)")
    start = time.perf_counter()
    again = Indexer(store, embedder).add([folder])
    print(f"re-index with nothing changed: {len(again.unchanged)} files checked in "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")
    store.close()


class _FakeEmbedder:
    """Constant vectors at no cost: what is left is reading, chunking, hashing and the transactions."""
    name, dimensions = "fake", 8

    def count_tokens(self, texts):
        return [1] * len(texts)

    def embed_documents(self, texts):
        return np.ones((len(texts), 8), np.float32) / np.sqrt(8)

    def embed_query(self, text):
        return np.ones(8, np.float32) / np.sqrt(8)


def many_files(count: int, tmp: Path) -> None:
    """A folder of ``count`` small files: the first add, then an add with nothing changed (a stat and one
    indexed lookup per file), with a no-cost embedder so the figure is the indexer's own."""
    from eagle_chat.core.documents.indexer import Indexer
    from eagle_chat.core.documents.store import DocumentStore

    folder = tmp / "many"
    for n in range(count):
        sub = folder / f"d{n // 1000:03}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"f{n:05}.txt").write_text(f"note {n}: a short file among many.", encoding="utf-8")
    store = DocumentStore(tmp / "many.sqlite3")
    indexer = Indexer(store, _FakeEmbedder())
    start = time.perf_counter()
    first = indexer.add([folder])
    first_s = time.perf_counter() - start
    start = time.perf_counter()
    again = indexer.add([folder])
    again_s = time.perf_counter() - start
    print(f"a folder of {count} files (no-cost embedder): first add {first_s:.1f} s ({len(first.added) / first_s:.0f} "
          f"files/s), again with nothing changed {again_s:.1f} s ({len(again.unchanged)} unchanged), "
          f"RSS {rss_mb():.0f} MB")
    store.close()


def build(store, size: int, dims: int, rng: random.Random, per_file: int = 100) -> float:
    nrng = np.random.default_rng(0)
    start = time.perf_counter()
    for f in range(size // per_file):
        chunks = [(1 + c // 10, prose(rng, 60)) for c in range(per_file)]
        vectors = nrng.standard_normal((per_file, dims), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.put_file("bench", f"/bench/file{f:06}.pdf", 1, 1, f"{f:064x}", chunks, vectors)
    return time.perf_counter() - start


def at_scale(sizes: list[int], dims: int, queries: int, tmp: Path) -> None:
    from eagle_chat.core.documents.store import DocumentStore

    rng = random.Random(2)
    rows = []
    for size in sizes:
        path = tmp / f"scale{size}.sqlite3"
        store = DocumentStore(path)
        write_s = build(store, size, dims, rng)
        store.close()
        store = DocumentStore(path)  # a fresh process's view: vectors not loaded yet
        before = rss_mb()
        qrng = np.random.default_rng(size)

        def query():
            v = qrng.standard_normal(dims).astype(np.float32)
            return " ".join(rng.choices(VOCAB[COMMON:], WEIGHTS[COMMON:], k=3)), v / np.linalg.norm(v)

        text, vector = query()
        start = time.perf_counter()
        store.search(text, vector, k=5)
        first_ms = (time.perf_counter() - start) * 1000
        times, dense, fts = [], [], []
        for _ in range(queries):
            text, vector = query()
            start = time.perf_counter()
            hits = store.search(text, vector, k=5)
            times.append((time.perf_counter() - start) * 1000)
            assert hits
            start = time.perf_counter()
            store.search("", vector, k=5)  # vectors only
            dense.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            store.search(text, None, k=5)
            fts.append((time.perf_counter() - start) * 1000)
        common = []  # query words from the whole distribution, common ones included
        for _ in range(queries):
            v = qrng.standard_normal(dims).astype(np.float32)
            text = " ".join(rng.choices(VOCAB, WEIGHTS, k=3))
            start = time.perf_counter()
            store.search(text, v / np.linalg.norm(v), k=5)
            common.append((time.perf_counter() - start) * 1000)
        mem = rss_mb()
        rows.append((size, size / write_s, first_ms, statistics.median(times), pct(times, 95),
                     statistics.median(dense), statistics.median(fts), mem, mem - before,
                     path.stat().st_size / 1e6, pct(common, 95)))
        store.close()
    print(f"\nhybrid search, {dims}-d vectors, k=5, {queries} queries after a warm-up:")
    print(f"{'chunks':>8} {'write/s':>8} {'first ms':>9} {'p50 ms':>7} {'p95 ms':>7} {'dense p50':>9} "
          f"{'bm25 p50':>8} {'RSS MB':>7} {'+MB':>6} {'db MB':>7} {'p95 any words':>13}")
    for r in rows:
        print(f"{r[0]:>8} {r[1]:>8.0f} {r[2]:>9.1f} {r[3]:>7.1f} {r[4]:>7.1f} {r[5]:>9.1f} {r[6]:>8.1f} "
              f"{r[7]:>7.0f} {r[8]:>6.0f} {r[9]:>7.1f} {r[10]:>13.1f}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    p.add_argument("--dims", type=int, default=384)
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--e2e-chunks", type=int, default=1000)
    p.add_argument("--folder-files", type=int, default=0, help="also time a folder of this many files (e.g. 50000)")
    args = p.parse_args(argv)
    home = private_home()
    end_to_end(args.e2e_chunks, home)
    if args.folder_files:
        many_files(args.folder_files, home)
    at_scale(args.sizes, args.dims, args.queries, home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
