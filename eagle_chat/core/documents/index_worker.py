"""Index files into the documents database — run as a child process, so the window never waits on it.

    python -m eagle_chat.core.documents.index_worker --database FILE --collection NAME [--embedder NAME|DIR]
        [--device CPU] (PATH... | --paths-from-stdin)

``--paths-from-stdin`` reads the paths from standard input, each ended by a NUL character: the window passes
them that way, since a Windows command line holds at most 32,767 characters (a few hundred files).

Without ``--embedder``, the embedder the index was built with (``retrieval.embedder_model``), run with the
pooling and query instruction it was registered with.

The embedding model and its memory stay out of the app, and Stop is a kill: every file is written in one
transaction (:meth:`DocumentStore.put_file`), so a killed run leaves each file indexed whole or not at all,
and the next run goes on from there (unchanged files are skipped). Output: one JSON object per line —
``{"event": "start", "files": N}``, then per file ``{"event": "file", "path", "outcome", "done", "message"}``
(outcome ``added``/``updated``/``unchanged``/``failed``), then ``{"event": "done", "chunks": n, "failed": k}``
(exit 0, or 1 when a file failed) or ``{"event": "error", "message", "template", "params"}`` (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import eagle_chat  # noqa: F401 - telemetry off before openvino is imported
from eagle_chat.core.errors import UserError


def emit(event: str, **fields) -> None:
    sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
    sys.stdout.flush()


def count_files(paths: list[Path]) -> int:
    from eagle_chat.core.documents.indexer import walk

    return sum(sum(1 for _ in walk(p)) if p.is_dir() else 1 for p in paths)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eagle_chat.core.documents.index_worker")
    parser.add_argument("--database", type=Path, required=True)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--embedder", help="a pulled embedding model's name or a folder (default: the index's)")
    parser.add_argument("--device", default="CPU")
    parser.add_argument("--paths-from-stdin", action="store_true", help="paths on stdin, each ended by NUL")
    parser.add_argument("paths", type=Path, nargs="*")
    args = parser.parse_args(argv)
    if args.paths_from_stdin:
        args.paths += [Path(p) for p in sys.stdin.buffer.read().decode("utf-8").split("\0") if p]
    if not args.paths:
        parser.error("no paths to index")
    from eagle_chat.core.documents import retrieval
    from eagle_chat.core.documents.indexer import Indexer
    from eagle_chat.core.documents.store import DocumentStore

    paths = [p.expanduser().absolute() for p in args.paths]
    emit("start", files=count_files(paths))
    store = None
    try:
        store = DocumentStore(args.database)
        model = retrieval.embedder_model(store, args.embedder)
        indexer = Indexer(store, retrieval.open_embedder(model, args.device))
        done = 0
        told: set[str] = set()

        def progress(path: str, outcome: str) -> None:
            nonlocal done
            done += 1
            told.add(path)
            emit("file", path=path, outcome=outcome, done=done, **_why(indexer.report, path, outcome))

        report = indexer.add(paths, args.collection, progress)
        retrieval.remember_embedder(store, model)
        for path, _message in report.failed:  # never read: not a kind EagleChat reads, or gone
            if path not in told:
                done += 1
                emit("file", path=path, outcome="failed", done=done, **_why(report, path, "failed"))
        emit("done", chunks=report.chunks, failed=len(report.failed), removed=len(report.removed))
        return 1 if report.failed else 0
    except UserError as error:
        emit("error", **_sentence(error))
        return 2
    finally:
        if store is not None:
            store.close()


def _sentence(error: UserError) -> dict:
    """A user error as JSON: the English sentence, and its template and values so the window can show it in
    its own language (``UserError.restore``)."""
    return {"message": error.message, "template": error.template,
            "params": {k: v if isinstance(v, (str, int, float, bool)) or v is None else str(v)
                       for k, v in error.params.items()}}


def _why(report, path: str, outcome: str) -> dict:
    """The reason a file failed (every failure is recorded with its error: ``Indexer._fail``), or nothing for a
    file that did not."""
    return _sentence(report.reasons[path]) if outcome == "failed" else {"message": ""}


if __name__ == "__main__":
    sys.exit(main())
