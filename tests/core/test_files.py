"""core.files: atomic JSON writes and moving a damaged file aside (used by settings, registry, store, staging)."""

import json
import os

import pytest

from eagle_chat.core import files


def test_write_json_atomic_replaces_whole_file_and_leaves_no_temp(tmp_path):
    target = tmp_path / "sub" / "data.json"
    files.write_json_atomic(target, {"a": 1, "名前": "模型"})
    files.write_json_atomic(target, {"b": [1, 2]})
    assert json.loads(target.read_text(encoding="utf-8")) == {"b": [1, 2]}
    assert sorted(p.name for p in target.parent.iterdir()) == ["data.json"]


def test_write_json_atomic_keeps_old_file_when_serialising_fails(tmp_path):
    target = tmp_path / "data.json"
    files.write_json_atomic(target, {"ok": True})
    with pytest.raises(TypeError):
        files.write_json_atomic(target, {"bad": object()})
    assert json.loads(target.read_text()) == {"ok": True}
    assert [p.name for p in tmp_path.iterdir()] == ["data.json"]


def test_write_json_atomic_fsyncs_before_rename(tmp_path, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(files.os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(files.os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b))[1])
    files.write_json_atomic(tmp_path / "x.json", [1])
    assert calls.index("fsync") < calls.index("replace")


def test_move_aside_keeps_the_file_and_its_companions_under_one_stamp(tmp_path):
    db = tmp_path / "c.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"c.sqlite3{suffix}").write_text(suffix or "main")
    backup = files.move_aside(db, "corrupt", companions=("-wal", "-shm"))
    assert backup is not None and backup.name.startswith("c.sqlite3.corrupt-")
    assert backup.read_text() == "main"
    assert (tmp_path / f"{backup.name}-wal").read_text() == "-wal"
    assert not db.exists() and not (tmp_path / "c.sqlite3-wal").exists()
    db.write_text("again")
    second = files.move_aside(db, "corrupt")
    assert second != backup and second.read_text() == "again"  # same second: a distinct name, nothing lost


def test_move_aside_of_a_missing_file_returns_none(tmp_path):
    assert files.move_aside(tmp_path / "absent.json") is None
