"""Indexing more files than a Windows command line can name (32,767 characters at most)."""

from __future__ import annotations

from eagle_chat.ui.documents.index_runner import IndexRunner
from tests.documents.test_index import EMBEDDER_DIR

WINDOWS_COMMAND_LINE_MAX = 32_767


def test_a_40000_character_file_list_reaches_the_index_worker(qtbot, tmp_path):
    folder = tmp_path / ("资料-" + "长" * 40)
    folder.mkdir()
    files = []
    for n in range(300):
        path = folder / f"笔记 {n:03d} — {'x' * 40}.txt"
        path.write_text(f"Note number {n} about lighthouses and puffins.", encoding="utf-8")
        files.append(path)
    assert sum(len(str(p)) + 1 for p in files) > 40_000

    runner = IndexRunner()
    done: list[str] = []
    runner.sig_file.connect(lambda path, outcome, *_: done.append(outcome))
    with qtbot.waitSignal(runner.sig_finished, timeout=240_000) as finished:
        runner.start(tmp_path / "documents.sqlite3", "library", EMBEDDER_DIR, "CPU", files)
        command_line = " ".join([runner._process.program(), *runner._process.arguments()])
        assert len(command_line) < WINDOWS_COMMAND_LINE_MAX
    assert finished.args == [True, ""]
    assert done.count("added") == len(files)
