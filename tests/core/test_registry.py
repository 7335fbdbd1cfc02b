"""The registry of model pairs: persisted atomically, re-read by every reader, careful when deleting."""

from __future__ import annotations

import json

import pytest

from eagle_chat import paths
from eagle_chat.core.models.registry import (
    ModelPair,
    ModelRegistry,
    RegistryError,
    bundled_pair,
)


def make_pair(tmp_path, name="p", *, owned=False, shared_target=None) -> ModelPair:
    target = shared_target or tmp_path / name / "target"
    draft = tmp_path / name / "draft"
    for folder in (target, draft):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "openvino_model.bin").write_bytes(b"x")
    return ModelPair(name=name, target_dir=str(target), draft_dir=str(draft), owned=owned,
                     source="hf:OpenVINO/x" if owned else "import", start_k={"CPU": 4})


def test_pairs_persist_and_every_reader_sees_changes(tmp_path):
    writer, reader = ModelRegistry(), ModelRegistry()
    assert writer.path == paths.registry_file()
    added = writer.add(make_pair(tmp_path, "a", owned=True))
    assert added.added and reader.get("a") == added  # a second instance (the app) reads it at once
    assert reader.get("a").k_for("CPU") == 4 and reader.get("a").k_for("NPU") == 3
    assert [p.name for p in reader.pairs()] == ["a"]
    data = json.loads(paths.registry_file().read_text())
    assert data["version"] == 1 and data["pairs"][0]["owned"] is True
    assert [p.name for p in paths.registry_file().parent.glob(".models-*")] == []  # no temp file left


def test_names_must_be_unique_and_valid(tmp_path):
    registry = ModelRegistry()
    registry.add(make_pair(tmp_path, "a"))
    with pytest.raises(RegistryError, match="already registered"):
        registry.add(make_pair(tmp_path, "a"))
    with pytest.raises(RegistryError, match="cannot be a model name"):
        registry.add(make_pair(tmp_path, "a/b"))
    with pytest.raises(RegistryError, match="reserved"):
        registry.add(make_pair(tmp_path, "tiny-bundled"))
    with pytest.raises(RegistryError, match="No model named 'zzz'"):
        registry.get("zzz")


def test_remove_deletes_only_when_asked_and_never_a_folder_another_pair_uses(tmp_path):
    registry = ModelRegistry()
    first = registry.add(make_pair(tmp_path, "first", owned=True))
    second = registry.add(make_pair(tmp_path, "second", shared_target=tmp_path / "first" / "target"))
    kept = registry.remove("second", delete_files=False)
    assert kept.deleted == [] and (tmp_path / "second" / "draft").is_dir()

    registry.add(second)
    result = registry.remove("second", delete_files=True)
    assert [str(p) for p in result.deleted] == [second.draft_dir]
    assert result.kept and "another registered model" in result.kept[0][1]
    assert (tmp_path / "first" / "target" / "openvino_model.bin").is_file()

    result = registry.remove("first", delete_files=True)
    assert sorted(map(str, result.deleted)) == sorted([first.target_dir, first.draft_dir])
    assert registry.pairs() == []


def test_find_maps_saved_folders_back_to_a_pair(tmp_path):
    registry = ModelRegistry()
    pair = registry.add(make_pair(tmp_path, "a"))
    assert registry.find(pair.target_dir, pair.draft_dir).name == "a"
    assert registry.find(pair.target_dir, tmp_path) is None


def test_a_damaged_registry_is_set_aside_with_a_notice(tmp_path):
    paths.registry_file().write_text("{oops", encoding="utf-8")
    registry = ModelRegistry()
    assert registry.pairs() == []
    assert "could not be read" in registry.notice
    assert list(paths.registry_file().parent.glob("models.json.broken-*"))
    registry.add(make_pair(tmp_path, "a"))  # and it works again
    assert ModelRegistry().names() == ["a"]


def test_bundled_pair_is_offered_but_never_stored():
    pair = bundled_pair()
    assert pair is not None and pair.bundled and pair.target_path.name == "tiny-qwen3"
    assert ModelRegistry().pairs() == []
