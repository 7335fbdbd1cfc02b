"""A file Windows' Defender or search indexer holds open for a moment: atomic writes and the reply marker
try again instead of failing (at start-up, the marker's removal failing kept the app from opening)."""

from __future__ import annotations

import json

import pytest

from eagle_chat.core.files import write_json_atomic
from eagle_chat.core.storage.reply_marker import ReplyMarker


def test_an_atomic_write_waits_out_a_brief_share_violation(tmp_path, windows_locks):
    target = tmp_path / "settings.json"
    target.write_text("{}", encoding="utf-8")
    windows_locks.busy[".tmp"] = 3  # the rename of the temporary file over settings.json is refused 3 times
    write_json_atomic(target, {"theme": "dark"})
    assert json.loads(target.read_text(encoding="utf-8")) == {"theme": "dark"}
    assert len(windows_locks.refused) == 3 and not list(tmp_path.glob("*.tmp"))


def test_a_held_marker_neither_stops_the_start_nor_the_reply(tmp_path, windows_locks):
    marker = ReplyMarker(tmp_path / "reply-in-progress.json")
    marker.begin(conversation_id=1)
    windows_locks.busy["reply-in-progress.json"] = 2
    marker.end()  # removed on the third try
    assert not marker.path.exists() and len(windows_locks.refused) == 2

    marker.begin(conversation_id=2)
    marker.active = False  # the app died mid-reply
    windows_locks.names.add("reply-in-progress.json")  # and a scanner holds the marker at the next start
    assert ReplyMarker(marker.path).take() == pytest.approx({"conversation_id": 2, "started": marker_started(marker)})


def marker_started(marker: ReplyMarker) -> float:
    return json.loads(marker.path.read_text(encoding="utf-8"))["started"]
