"""CLI output redirected to a file in a code page that cannot hold every character (CP936 on Chinese Windows)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from eagle_chat.core.storage.store import ConversationStore

ROOT = Path(__file__).resolve().parents[2]


def test_a_title_outside_the_code_page_does_not_end_the_listing(tmp_path):
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    store = ConversationStore(home / "data" / "conversations.sqlite3")
    store.create_conversation("鹰 🦅 eagles")  # 鹰 is in CP936, the emoji is not
    store.create_conversation("after it")
    store.close()
    listing = tmp_path / "list.txt"
    env = {**os.environ, "PYTHONIOENCODING": "cp936", "PYTHONUTF8": "0"}  # Windows' redirected-output encoding
    with listing.open("wb") as out:
        proc = subprocess.run([sys.executable, "-m", "eagle_chat", "conversations", "list", "--home", str(home)],
                              stdout=out, stderr=subprocess.PIPE, env=env, cwd=ROOT, timeout=120,
                              stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr.decode("cp936", "replace")
    text = listing.read_bytes().decode("cp936")
    assert "鹰 ? eagles" in text and "after it" in text
