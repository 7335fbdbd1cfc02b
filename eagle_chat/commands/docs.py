"""``eagle-chat docs …``: index your documents and search them from a terminal.

``add`` reads files and folders (text, Markdown, source code, HTML, PDF, DOCX) into the documents index beside
the conversations, embedding them with OpenVINO GenAI in this process; files already indexed and unchanged are
skipped, files gone from an added folder are forgotten. ``search`` prints the best passages with file, page
and score (hybrid: vectors + BM25), optionally reordered by a reranker (``--rerank``). Embedders and rerankers
are catalog entries pulled with ``eagle-chat models pull NAME`` and used by name, or folders; the embedder an
index was built with is remembered in it. ``list`` shows what is indexed, ``remove`` forgets files, a collection or
everything. Nothing leaves the machine. Exit status: 0 done, 1 some files could not be indexed, 2 a usage
error.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.paths import add_home_argument, add_home_before_subcommand, apply_home

EXIT_FAILED = 1
EXIT_USAGE = 2


def docs_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eagle-chat docs",
                                     description="Index documents on this machine and search them.")
    add_home_before_subcommand(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def embedder_options(p):
        p.add_argument("--embedder", metavar="NAME|DIR",
                       help="an embedding model: a name from `eagle-chat models list` (pulled with `models pull "
                            "NAME`) or a folder (OpenVINO IR, feature-extraction); default: the one the index was "
                            "built with, else none (keyword search only)")
        p.add_argument("--device", default="CPU", help="OpenVINO device for the embedder (default CPU)")

    p = sub.add_parser("add", help="index files and folders (again: only what changed)")
    p.add_argument("paths", type=Path, nargs="+", metavar="PATH")
    p.add_argument("--collection", default="default", metavar="NAME", help="group them under NAME")
    embedder_options(p)
    add_home_argument(p)

    p = sub.add_parser("list", help="the indexed files, with their collection, chunks and state")
    p.add_argument("--collection", metavar="NAME")
    p.add_argument("--json", action="store_true", help="print JSON (for scripts)")
    add_home_argument(p)

    p = sub.add_parser("search", help="the passages that best match QUERY, with file, page and score")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--k", type=int, default=5, metavar="N", help="how many passages (default 5)")
    p.add_argument("--collection", metavar="NAME")
    p.add_argument("--json", action="store_true", help="print JSON (for scripts)")
    p.add_argument("--rerank", nargs="?", const="", metavar="NAME|DIR",
                   help="reorder the best passages with a reranker (a name from `eagle-chat models list` or a "
                        "folder, OpenVINO IR, text-classification); alone: the last one used, else the first "
                        "pulled one, else the bundled tiny reranker (toy quality)")
    embedder_options(p)
    add_home_argument(p)

    p = sub.add_parser("remove", help="forget files (or every file under a folder), a collection, or all")
    p.add_argument("paths", type=Path, nargs="*", metavar="PATH")
    p.add_argument("--collection", metavar="NAME")
    p.add_argument("--all", action="store_true", help="forget every indexed document")
    add_home_argument(p)
    return parser


def main(argv: list[str]) -> int:
    parser = docs_parser()
    args = parser.parse_args(argv)
    apply_home(args)
    if args.command == "search" and args.k < 1:
        parser.error("--k must be at least 1")
    if args.command == "remove" and not (args.paths or args.collection or args.all):
        parser.error("say what to remove: PATH..., --collection NAME or --all")
    from eagle_chat.core.documents.store import DocumentStore

    try:
        store = DocumentStore(paths.documents_database_file())
    except UserError as error:
        print(f"eagle-chat docs: {error}", file=sys.stderr)
        return EXIT_FAILED
    try:
        return {"add": cmd_add, "list": cmd_list, "search": cmd_search, "remove": cmd_remove}[args.command](
            args, store)
    except UserError as error:
        print(f"eagle-chat docs {args.command}: {error}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        store.close()


def _embedder(args, store):
    from eagle_chat.core.documents import retrieval

    model = retrieval.embedder_model(store, args.embedder)
    if model is None:
        print(retrieval.keyword_only_advice(), file=sys.stderr)
    return retrieval.open_embedder(model, args.device), model


def cmd_add(args, store) -> int:
    from eagle_chat.core.documents import retrieval
    from eagle_chat.core.documents.indexer import Indexer

    embedder, model = _embedder(args, store)
    indexer = Indexer(store, embedder)

    def progress(path: str, outcome: str) -> None:
        if outcome != "failed":
            print(f"{outcome:>9}  {path}", file=sys.stderr, flush=True)

    report = indexer.add(args.paths, args.collection, progress)
    retrieval.remember_embedder(store, model)
    if report.vectors_added and model is not None:
        print(f"Search by meaning is on: the {report.vectors_added} chunks indexed by their words alone now have "
              f"the vectors of {model.name}.", file=sys.stderr)
    for _path, message in report.failed:
        print(f"   failed  {message}", file=sys.stderr)
    empty = f", {len(report.empty)} empty" if report.empty else ""
    print(f"{len(report.added)} added, {len(report.updated)} updated, {len(report.unchanged)} unchanged, "
          f"{len(report.removed)} removed, {len(report.failed)} failed{empty}; {report.chunks} new chunks "
          f"in collection {args.collection!r}.")
    return EXIT_FAILED if report.failed else 0


def cmd_list(args, store) -> int:
    rows = []
    for row in store.files(args.collection):
        try:
            stat = os.stat(row.path)
            state = "ok" if (stat.st_size, stat.st_mtime_ns) == (row.size, row.mtime_ns) else "changed"
        except OSError:
            state = "missing"
        rows.append({"collection": row.collection, "file": row.path, "chunks": row.chunks, "bytes": row.size,
                     "indexed": row.indexed_at, "state": state})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print("No documents indexed yet: `eagle-chat docs add PATH...` adds some.")
        return 0
    print(f"{'COLLECTION':<12}  {'CHUNKS':>6}  {'INDEXED':<16}  {'STATE':<7}  FILE")
    for row in rows:
        when = dt.datetime.fromtimestamp(row["indexed"]).strftime("%Y-%m-%d %H:%M")
        print(f"{row['collection']:<12}  {row['chunks']:>6}  {when:<16}  {row['state']:<7}  {row['file']}")
    if any(r["state"] != "ok" for r in rows):
        print("\n(changed or missing files are updated or forgotten by `eagle-chat docs add` on them or their folder)")
    return 0


def cmd_search(args, store) -> int:
    from eagle_chat.core.documents.indexer import Indexer

    if not store.chunk_count():
        print("No documents indexed yet: `eagle-chat docs add PATH...` adds some.", file=sys.stderr)
        return EXIT_FAILED
    embedder, _ = _embedder(args, store)
    reranker = None
    if args.rerank is not None:
        from eagle_chat.core.documents import retrieval

        model = retrieval.reranker_model(store, args.rerank)
        reranker = retrieval.open_reranker(model, args.device)
        if args.rerank:
            retrieval.remember_reranker(store, model)
    hits = Indexer(store, embedder).search(args.query, k=args.k, collection=args.collection, reranker=reranker)
    if args.json:
        print(json.dumps([h.as_json() for h in hits], indent=2, ensure_ascii=False))
        return 0
    if not hits:
        print("Nothing matches.")
        return 0
    for number, hit in enumerate(hits, 1):
        where = hit.path + (f", page {hit.page}" if hit.page is not None else "")
        preview = " ".join(hit.text.split())
        preview = preview[:300] + ("…" if len(preview) > 300 else "")
        rerank = f", rerank {hit.rerank_score:.4f}" if hit.rerank_score is not None else ""
        print(f"[{number}] {where}  (score {hit.score:.4f}, cosine {hit.cosine:.3f}{rerank})\n    {preview}\n")
    return 0


def cmd_remove(args, store) -> int:
    from eagle_chat.core.documents.indexer import under

    rows = store.files(args.collection)
    if not args.all:
        if args.paths:
            wanted = [Path(os.path.abspath(Path(p).expanduser())) for p in args.paths]
            rows = [r for r in rows if any(under(r.path, str(w)) for w in wanted)]
        elif args.collection is None:
            rows = []
    if args.paths and not rows:
        print("eagle-chat docs remove: none of those paths is indexed (`eagle-chat docs list` shows them).",
              file=sys.stderr)
        return EXIT_USAGE
    count = store.remove_files([r.id for r in rows])
    print(f"Removed {count} file{'s' if count != 1 else ''} from the documents index.")
    return 0
