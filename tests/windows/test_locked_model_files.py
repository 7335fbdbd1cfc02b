"""`models remove` while Windows refuses to delete a loaded model's memory-mapped weights."""

from __future__ import annotations

from eagle_chat import paths
from eagle_chat.commands.models import main as models_main
from eagle_chat.core.models.registry import ModelPair, ModelRegistry

WEIGHTS = "openvino_model.bin"

def pulled_pair() -> tuple[ModelPair, dict]:
    pair_dir = paths.models_dir() / "pulled"
    files = {}
    for part in ("target", "draft"):
        (pair_dir / part).mkdir(parents=True)
        for name in ("config.json", WEIGHTS, "openvino_model.xml"):
            (pair_dir / part / name).write_bytes(f"{part}/{name}".encode())
            files[pair_dir / part / name] = f"{part}/{name}".encode()
    pair = ModelPair("pulled", str(pair_dir / "target"), str(pair_dir / "draft"), owned=True)
    ModelRegistry().add(pair)
    return pair, files

def test_a_delete_windows_refuses_half_way_leaves_the_model_registered_and_whole(windows_locks, capsys):
    pair, files = pulled_pair()
    windows_locks.names.add(WEIGHTS)  # the draft's and target's weights are mapped by a running EagleChat
    assert models_main(["remove", "pulled"]) == 1
    err = capsys.readouterr().err
    assert "was not removed" in err and "unload it or close EagleChat" in err, err
    assert windows_locks.refused  # the refusal really happened
    assert [p.name for p in ModelRegistry().pairs()] == ["pulled"]
    assert {path: path.read_bytes() for path in files} == files  # every file still there, unchanged

    windows_locks.names.clear()  # EagleChat closed: now it goes
    assert models_main(["remove", "pulled"]) == 0
    assert ModelRegistry().pairs() == [] and not (paths.models_dir() / "pulled").exists()
    assert not list(paths.models_dir().glob(".*deleting*"))


def test_a_re_pull_over_a_loaded_older_copy_keeps_both_whole(tmp_path, windows_locks):
    from eagle_chat.core.acquisition.pull_steps import AcquireError, move_into_place

    older, new = paths.models_dir() / "pair" / "target", tmp_path / "staging" / "target"
    for folder, text in ((older, "old"), (new, "new")):
        folder.mkdir(parents=True)
        (folder / WEIGHTS).write_text(text, encoding="utf-8")
        (folder / "config.json").write_text(text, encoding="utf-8")
    windows_locks.names.add(WEIGHTS)  # the older copy is loaded
    try:
        move_into_place(new, older)
    except AcquireError as error:
        assert "cannot be replaced now" in str(error) and "unload it or close EagleChat" in str(error)
    else:
        raise AssertionError("the replace went ahead over a loaded copy")
    assert {p.name: p.read_text(encoding="utf-8") for p in older.iterdir()} == {WEIGHTS: "old", "config.json": "old"}
    assert {p.name: p.read_text(encoding="utf-8") for p in new.iterdir()} == {WEIGHTS: "new", "config.json": "new"}

    windows_locks.names.clear()
    move_into_place(new, older)
    assert (older / WEIGHTS).read_text(encoding="utf-8") == "new" and not new.exists()
    assert [p.name for p in older.parent.iterdir()] == ["target"]  # nothing left aside
