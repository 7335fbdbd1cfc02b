"""``eagle-chat models …`` end to end: import, list, remove, pull's up-front checks, and staying offline."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys

import pytest

from eagle_chat import paths
from eagle_chat.commands.models import main as models_main
from eagle_chat.core.acquisition import pulls
from eagle_chat.core.models.registry import ModelPair, ModelRegistry


def eagle_chat(*args: str, home) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "eagle_chat", "models", *args, "--home", str(home)],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


@pytest.fixture
def tiny_copy(tmp_path):
    """A private copy of the tiny pair, so deleting files cannot touch the bundled one."""
    target = shutil.copytree(paths.tiny_target_dir(), tmp_path / "mine" / "tiny-target")
    draft = shutil.copytree(paths.tiny_draft_dir(), tmp_path / "mine" / "tiny-draft")
    return target, draft


def test_import_then_list_shows_the_pair_in_the_registry_the_app_reads(tmp_path, tiny_copy):
    home = tmp_path / "portable"
    target, draft = tiny_copy
    done = eagle_chat("import", str(target), str(draft), "--name", "my-tiny", home=home)
    assert done.returncode == 0, done.stderr
    assert "Registered my-tiny" in done.stdout

    listed = eagle_chat("list", "--json", home=home)
    assert listed.returncode == 0, listed.stderr
    installed = json.loads(listed.stdout)["installed"]
    assert [(p["name"], p["target_dir"], p["draft_dir"], p["owned"]) for p in installed] == [
        ("my-tiny", str(target.resolve()), str(draft.resolve()), False)]
    text = eagle_chat("list", home=home).stdout
    assert "my-tiny" in text and "imported" in text and "qwen3-8b" in text

    registry = ModelRegistry(home / "data" / "models.json")  # what `eagle-chat --home DIR` reads
    assert registry.get("my-tiny").target_path == target.resolve()


def test_import_validates_the_folders_first(tmp_path, tiny_copy, capsys):
    target, draft = tiny_copy
    assert models_main(["import", str(target), str(target)]) == 2
    assert "is not an EAGLE-3 draft" in capsys.readouterr().err
    assert models_main(["import", str(tmp_path / "nowhere"), str(draft)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert ModelRegistry().pairs() == []
    assert models_main(["import", str(target), str(draft)]) == 0
    assert models_main(["import", str(target), str(draft)]) == 2
    assert "already registered" in capsys.readouterr().err


def test_remove_asks_before_deleting_files_it_did_not_download(tiny_copy, capsys):
    target, draft = tiny_copy
    assert models_main(["import", str(target), str(draft), "--name", "mine"]) == 0
    assert models_main(["remove", "mine"]) == 0  # no terminal to ask on: the answer is no
    out = capsys.readouterr()
    assert "not asked" in out.err and "left where they are" in out.out
    assert target.is_dir() and draft.is_dir() and ModelRegistry().pairs() == []

    assert models_main(["import", str(target), str(draft), "--name", "mine"]) == 0
    assert models_main(["remove", "mine", "--delete-files"]) == 0
    assert not target.exists() and not draft.exists()


def test_remove_deletes_a_downloaded_pair_without_asking(capsys):
    pair_dir = paths.models_dir() / "pulled"
    for part in ("target", "draft"):
        (pair_dir / part).mkdir(parents=True)
        (pair_dir / part / "openvino_model.bin").write_bytes(b"weights")
    (paths.staging_dir() / "pulled" / "draft-hf").mkdir(parents=True)
    ModelRegistry().add(ModelPair("pulled", str(pair_dir / "target"), str(pair_dir / "draft"), owned=True))
    assert models_main(["remove", "pulled"]) == 0
    assert not pair_dir.exists() and not (paths.staging_dir() / "pulled").exists()
    assert "Deleted" in capsys.readouterr().out


def test_unfinished_downloads_are_listed_and_removable(capsys):
    (paths.staging_dir() / "qwen3-8b" / "target").mkdir(parents=True)
    assert pulls.leftovers() == {"qwen3-8b": [paths.staging_dir() / "qwen3-8b"]}
    assert models_main(["list"]) == 0
    assert "Unfinished downloads" in capsys.readouterr().out
    assert models_main(["remove", "qwen3-8b"]) == 0
    assert pulls.leftovers() == {}
    assert models_main(["remove", "qwen3-8b"]) == 2


def test_pull_stops_before_downloading_when_it_cannot_finish(capsys):
    assert models_main(["pull", "no-such-model"]) == 2
    assert "no catalog entry" in capsys.readouterr().err
    assert models_main(["pull", "qwen3-4b", "--device", "NPU"]) == 2
    assert "no NPU build" in capsys.readouterr().err
    assert pulls.leftovers() == {}  # nothing was started


def test_nothing_contacts_the_network_without_a_download(tiny_copy, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"network access: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    target, draft = tiny_copy
    assert models_main(["import", str(target), str(draft), "--name", "offline"]) == 0
    assert models_main(["list", "--json"]) == 0
    assert models_main(["remove", "offline", "--keep-files"]) == 0


def test_the_app_side_never_imports_a_hub_client():
    """Only the download worker process imports huggingface_hub / modelscope_hub; the app stays offline."""
    code = ("import sys, eagle_chat.commands.models, eagle_chat.core.acquisition.pulls, eagle_chat.ui.models.get_models;"
            "print([m for m in sys.modules if m.split('.')[0] in "
            "('huggingface_hub', 'modelscope_hub', 'modelscope', 'httpx', 'requests')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_home_works_before_and_after_the_command(tmp_path, tiny_copy):
    target, draft = tiny_copy
    assert models_main(["--home", str(tmp_path / "a"), "import", str(target), str(draft)]) == 0
    assert ModelRegistry(tmp_path / "a" / "data" / "models.json").names() == ["tiny-target"]
    assert models_main(["import", str(target), str(draft), "--home", str(tmp_path / "b")]) == 0
    assert ModelRegistry(tmp_path / "b" / "data" / "models.json").names() == ["tiny-target"]
