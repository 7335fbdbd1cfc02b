"""``eagle-chat docs add / list / search / remove`` on the tiny embedder, under a private EAGLE_CHAT_HOME."""

from __future__ import annotations

import json
import os
import subprocess
import time
import sys
from pathlib import Path

from eagle_chat.commands import docs
from tests.documents.files import write_docx, write_pdf
from tests.documents.test_index import FACT, QUESTION, filler, library


def run(capsys, *argv) -> tuple[int, str, str]:
    code = docs.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_planted_fact_is_the_top_search_hit_with_file_and_page(tmp_path, capsys, eagle_home):
    folder = library(tmp_path / "lib", "pdf")
    code, out, err = run(capsys, "add", str(folder), "--collection", "work")
    assert code == 0, err
    assert "6 added" in out and "0 failed" in out
    code, out, _ = run(capsys, "search", QUESTION, "--k", "3", "--json")
    hits = json.loads(out)
    assert code == 0 and len(hits) == 3
    assert hits[0]["file"] == str(folder / "report.pdf") and hits[0]["page"] == 2
    assert "seventeen puffins" in hits[0]["text"] and hits[0]["collection"] == "work"
    assert hits[0]["score"] >= hits[1]["score"] >= hits[2]["score"]
    code, out, _ = run(capsys, "search", QUESTION, "--k", "1")
    assert f"[1] {folder / 'report.pdf'}, page 2" in out
    assert (eagle_home / "data" / "documents.sqlite3").is_file()


def test_bad_inputs_each_get_a_clear_message_and_are_not_indexed(tmp_path, capsys):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "good.md").write_text(filler("good"), encoding="utf-8")
    write_pdf(folder / "locked.pdf", ["secret"], encrypted=True)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog")
    (folder / "archive.txt").write_bytes(bytes(range(256)) * 64)
    write_docx(folder / "fine.docx", [[FACT]])
    code, out, err = run(capsys, "add", str(folder))
    assert code == 1
    assert "2 added" in out and "3 failed" in out
    assert f"{folder / 'locked.pdf'} is an encrypted PDF" in err
    assert f"{folder / 'broken.pdf'} is not a readable PDF" in err
    assert f"{folder / 'archive.txt'} does not contain text" in err
    code, out, _ = run(capsys, "list", "--json")
    assert sorted(Path(r["file"]).name for r in json.loads(out)) == ["fine.docx", "good.md"]


def test_list_shows_changed_and_missing_files_and_remove_forgets_them(tmp_path, capsys):
    folder = tmp_path / "lib"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text(filler(name), encoding="utf-8")
    assert run(capsys, "add", str(folder))[0] == 0
    (folder / "a.txt").write_text("new text", encoding="utf-8")
    (folder / "b.txt").unlink()
    rows = {Path(r["file"]).name: r["state"] for r in json.loads(run(capsys, "list", "--json")[1])}
    assert rows == {"a.txt": "changed", "b.txt": "missing", "c.txt": "ok"}
    code, out, _ = run(capsys, "remove", str(folder / "c.txt"))
    assert code == 0 and "Removed 1 file " in out
    assert run(capsys, "add", str(folder))[1].startswith("1 added, 1 updated, 0 unchanged, 1 removed")  # c back, a, b
    assert run(capsys, "remove", str(tmp_path / "nowhere"))[0] == 2
    assert "Removed 2 files" in run(capsys, "remove", "--all")[1]
    assert "No documents indexed yet" in run(capsys, "list")[1]


def test_the_cli_routes_docs_to_the_command(tmp_path):
    (tmp_path / "a.md").write_text("# Title\nhello documents", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    add = subprocess.run([sys.executable, "-m", "eagle_chat", "docs", "add", str(tmp_path / "a.md")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert add.returncode == 0, add.stderr
    found = subprocess.run([sys.executable, "-m", "eagle_chat", "docs", "search", "hello", "--json"],
                           capture_output=True, text=True, env=env, timeout=120)
    assert json.loads(found.stdout)[0]["file"] == str(tmp_path / "a.md")


def test_a_2_gb_file_is_refused_without_being_read(tmp_path, capsys):
    big = tmp_path / "huge.txt"
    with open(big, "wb") as handle:
        handle.truncate(2 * 1024 ** 3)  # sparse: no disk used, but 2 GB to read if the size check failed
    start = time.monotonic()
    code, out, err = run(capsys, "add", str(big))
    assert code == 1 and "0 added" in out
    assert f"{big} is too large to index (2147 MB; the limit is 210 MB)." in err
    assert time.monotonic() - start < 30


def test_search_with_another_embedder_than_the_index_was_built_with_is_refused(tmp_path, capsys):
    (tmp_path / "a.md").write_text("hello documents", encoding="utf-8")
    assert run(capsys, "add", str(tmp_path / "a.md"))[0] == 0
    from eagle_chat import paths
    from eagle_chat.core.documents.store import DocumentStore

    store = DocumentStore(paths.documents_database_file())
    store.set_meta("embedder", "bge-small-en-v1.5:384")  # as if built with another model
    store.close()
    code, out, err = run(capsys, "search", "hello")
    assert code == 1
    assert "built with the embedding model bge-small-en-v1.5:384, not tiny-embedder:64" in err
    assert "--embedder DIR" in err


def test_paths_are_stored_normalised_so_one_file_is_one_entry(tmp_path, capsys, monkeypatch):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "a.md").write_text("hello documents", encoding="utf-8")
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / "other")
    assert run(capsys, "add", "../lib/a.md")[0] == 0
    assert "1 unchanged" in run(capsys, "add", str(tmp_path / "lib"))[1]
    assert [r["file"] for r in json.loads(run(capsys, "list", "--json")[1])] == [str(tmp_path / "lib" / "a.md")]
    assert "Removed 1 file " in run(capsys, "remove", "../lib")[1]


def test_a_chinese_question_finds_its_passage_with_no_embedder_and_says_search_is_by_words(
        tmp_path, capsys, monkeypatch):
    from tests.documents.chinese_library import ZH_FACT, ZH_QUESTION, chinese_library

    monkeypatch.delenv("EAGLE_CHAT_EMBEDDER")  # what a new user has: no embedder pulled
    folder = chinese_library(tmp_path / "库")
    code, out, err = run(capsys, "add", str(folder))
    assert code == 0 and "4 added" in out, err
    assert err.count("by their words only") == 1 and "models pull qwen3-embedding-0.6b` (0.6 GB)" in err
    code, out, err = run(capsys, "search", ZH_QUESTION, "--k", "3", "--json")
    hits = json.loads(out)
    assert code == 0 and (Path(hits[0]["file"]).name, hits[0]["page"]) == ("记录.docx", 2)
    assert ZH_FACT in hits[0]["text"] and hits[0]["bm25_rank"] == 1
    assert err.count("by their words only") == 1
