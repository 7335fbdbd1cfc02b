"""The issue's bad inputs that tests/documents/test_index.py and test_docs_command.py do not already cover:
a folder of 50,000 files, a file deleted between the folder's listing and its reading, a run stopped part-way
(nothing forgotten that was not reached), and `eagle-chat docs add` killed (SIGKILL) mid-way, then run again.

Covered elsewhere: encrypted and damaged PDF, damaged DOCX, a binary file named .txt, a too-large file and a
missing one (test_index.py: test_each_bad_input_gets_one_sentence_and_leaves_nothing_behind; the CLI's
messages in test_docs_command.py), a 2 GB sparse file refused in seconds (test_docs_command.py), files changed
or deleted after indexing (both files: `docs list` says changed / missing, `docs add` updates or forgets
them), a write failing half-way and a kill inside a file's transaction (test_index.py).
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from eagle_chat.core.documents.indexer import Indexer
from tests.documents.test_index import FACT, filler


def child_env() -> dict[str, str]:
    """This test's environment (its private EAGLE_CHAT_HOME is set per test) for a child eagle-chat."""
    return {**os.environ, "PYTHONPATH": os.getcwd()}


def peak_rss_mb(argv: list[str]) -> tuple[int, str, str, float]:
    """Run `eagle-chat docs add ARGV` and return (status, stdout, stderr, the child's peak RSS in MB)."""
    home = Path(os.environ["EAGLE_CHAT_HOME"])
    out_path, err_path = home / "out.txt", home / "err.txt"
    with open(out_path, "w") as out, open(err_path, "w") as err:
        process = subprocess.Popen([sys.executable, "-m", "eagle_chat", "docs", "add", *argv], env=child_env(),
                                   stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    return (process.returncode, out_path.read_text(), err_path.read_text(), usage.ru_maxrss / 1024)


@pytest.mark.slow
def test_a_folder_of_50000_files_is_indexed_in_bounded_memory_and_rechecked_quickly(tmp_path):
    """50,000 empty files (an empty text file is recorded, not a failure) and one with text, in 50 folders.

    Measured here: 10.7 s to index, 2.5 s to check again, peak RSS 177 MB against 136 MB for one file (the
    report's paths and SQLite's cache). With a deliberate 4 KB kept per file the peak was 377 MB and this failed.
    50,000 one-line files *with text* (a script, too slow for a test): 147 s to index with the tiny embedder,
    RSS +49 MB, 4.8 s to check again."""
    one = tmp_path / "one"
    one.mkdir()
    (one / "fact.md").write_text(FACT, encoding="utf-8")
    code, out, err, baseline = peak_rss_mb([str(one), "--collection", "baseline"])
    assert code == 0, err

    folder = tmp_path / "many"
    for i in range(50_000):
        if i % 1000 == 0:
            (folder / f"d{i // 1000:02}").mkdir(parents=True)
        (folder / f"d{i // 1000:02}" / f"f{i:05}.txt").touch()
    (folder / "fact.md").write_text(FACT, encoding="utf-8")
    start = time.monotonic()
    code, out, err, peak = peak_rss_mb([str(folder)])
    took = time.monotonic() - start
    assert code == 0, err[-2000:]
    assert out.startswith("1 added, 0 updated, 0 unchanged, 0 removed, 0 failed, 50000 empty;"), out
    assert took < 180, f"{took:.0f} s"
    assert peak - baseline < 80, f"peak RSS {peak:.0f} MB against {baseline:.0f} MB for one file"

    start = time.monotonic()
    code, out, err, _ = peak_rss_mb([str(folder)])
    assert code == 0 and out.startswith("0 added, 0 updated, 50001 unchanged"), out
    assert time.monotonic() - start < took  # only a stat per file: nothing read again


def test_a_file_deleted_between_listing_and_reading_is_one_clear_sentence(tmp_path, store, embedder):
    folder = tmp_path / "lib"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text(filler(name), encoding="utf-8")

    def progress(path: str, outcome: str) -> None:
        if path.endswith("a.txt"):
            (folder / "b.txt").unlink()  # after the folder was listed

    report = Indexer(store, embedder).add([folder], progress=progress)
    assert report.failed == [(str(folder / "b.txt"), f"{folder / 'b.txt'} no longer exists.")]
    assert sorted(Path(r.path).name for r in store.files()) == ["a.txt", "c.txt"]


def test_a_stopped_run_keeps_what_it_did_and_forgets_nothing_it_did_not_reach(tmp_path, store, embedder):
    folder = tmp_path / "lib"
    folder.mkdir()
    for n in range(10):
        (folder / f"f{n}.txt").write_text(filler(f"topic{n}", 3), encoding="utf-8")
    indexer = Indexer(store, embedder)
    done = []
    report = indexer.add([folder], progress=lambda p, o: done.append(p), should_stop=lambda: len(done) >= 4)
    assert report.stopped and len(report.added) == 4 and len(store.files()) == 4
    report = indexer.add([folder])
    assert len(report.added) == 6 and len(report.unchanged) == 4
    (folder / "f0.txt").unlink()
    done.clear()
    report = indexer.add([folder], progress=lambda p, o: done.append(p), should_stop=lambda: len(done) >= 2)
    assert report.stopped and report.removed == []  # f0 is gone, but the walk did not end: nothing forgotten
    assert len(store.files()) == 10
    assert [Path(p).name for p in indexer.add([folder]).removed] == ["f0.txt"]


def test_docs_add_killed_mid_way_leaves_whole_files_and_the_next_run_completes_it(tmp_path):
    folder = tmp_path / "lib"
    folder.mkdir()
    for n in range(150):
        (folder / f"f{n:03}.md").write_text(filler(f"topic{n}", 12), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "eagle_chat", "docs", "add", str(folder)], env=child_env(), text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    added, since = 0, 0.0
    while added < 40:
        line = process.stderr.readline()
        assert line, "docs add ended before it could be killed"
        added += line.lstrip().startswith("added")
        if added == 20 and not since:
            since = time.monotonic()
    # Not right after a file was done: somewhere inside the next ones, reading or writing — a few files' time
    # later, at the pace this run goes (a fixed 0.2 s let an unloaded child finish all 150 files first). (With
    # the writes made non-transactional and slowed, this caught a half-written file in 1 of 2 runs; the
    # deterministic kill inside a transaction is test_index.py's
    # test_a_kill_during_indexing_leaves_every_file_whole_or_absent.)
    time.sleep(min(0.2, 3 * (time.monotonic() - since) / 20))
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    process.stderr.close()

    db = sqlite3.connect(Path(os.environ["EAGLE_CHAT_HOME"]) / "data" / "documents.sqlite3")
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = db.execute("SELECT f.chunks, (SELECT COUNT(*) FROM chunks c WHERE c.file_id = f.id) "
                          "FROM files f").fetchall()
        assert 40 <= len(rows) < 150
        assert all(declared == stored > 0 for declared, stored in rows)  # no half-indexed file
        assert db.execute("SELECT COUNT(*) FROM chunks WHERE file_id NOT IN (SELECT id FROM files)").fetchone()[0] == 0
        db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")
    finally:
        db.close()

    done = subprocess.run([sys.executable, "-m", "eagle_chat", "docs", "add", str(folder)], env=child_env(), text=True,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (added|unchanged|failed)", done.stdout)}
    assert counts == {"added": 150 - len(rows), "unchanged": len(rows), "failed": 0}
    listed = subprocess.run([sys.executable, "-m", "eagle_chat", "docs", "list", "--json"], env=child_env(), text=True,
                            capture_output=True, timeout=120)
    assert len(json.loads(listed.stdout)) == 150
