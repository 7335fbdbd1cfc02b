"""The catalog of known pairs: the built-in data file, user entries merged over it, and their variants."""

from __future__ import annotations

import json

import pytest

from eagle_chat import paths
from eagle_chat.core.models.catalog import CatalogError, ExportOptions, load_catalog


def test_builtin_catalog_has_the_documented_pairs():
    catalog = load_catalog()
    assert catalog.problems == []
    names = set(catalog.names())
    assert {"qwen3-1.7b", "qwen3-4b", "qwen3-8b", "llama3.1-8b"} <= names
    qwen8 = catalog.get("qwen3-8b")
    assert qwen8.target.repo_id("hf") == "OpenVINO/Qwen3-8B-int4-ov"
    assert qwen8.draft.repo_id("hf") == "AngelSlim/Qwen3-8B_eagle3"
    assert qwen8.target.repo_id("modelscope") and qwen8.draft.repo_id("modelscope")
    llama = catalog.get("llama3.1-8b")
    assert llama.draft.repo_id("hf") == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
    for entry in catalog.entries:
        assert entry.target.approx_bytes > 100_000_000 and entry.draft.approx_bytes > 10_000_000
        assert entry.variant("CPU").start_k["CPU"] >= 1


def test_npu_variant_uses_the_channel_wise_target_and_an_int8_symmetric_draft():
    variant = load_catalog().get("qwen3-8b").variant("NPU", "hf")
    assert variant.pair_name == "qwen3-8b-npu"
    assert variant.target.repo_id("hf") == "OpenVINO/Qwen3-8B-int4-cw-ov"
    assert variant.export.cli_args() == ["--weight-format", "int8", "--sym", "--group-size", "-1"]
    assert variant.start_k["NPU"] == 3


def test_default_export_is_the_documented_command():
    assert ExportOptions().cli_args() == ["--weight-format", "int4", "--group-size", "128", "--ratio", "1"]
    assert ExportOptions(weight_format="fp16").cli_args() == ["--weight-format", "fp16"]


def test_entries_without_a_build_say_what_to_do_instead():
    catalog = load_catalog()
    with pytest.raises(CatalogError, match="no NPU build"):
        catalog.get("qwen3-4b").variant("NPU")
    with pytest.raises(CatalogError, match="not available on ModelScope.*Hugging Face"):
        catalog.get("llama3.1-8b").variant("CPU", "modelscope")
    with pytest.raises(CatalogError, match="no catalog entry named 'nope'"):
        catalog.get("nope")


def test_user_entries_are_merged_and_replace_builtins_by_name():
    paths.user_catalog_file().write_text(json.dumps({"version": 1, "pairs": [
        {"name": "mine", "title": "Mine", "target": {"hf": "me/target-ov", "bytes": 5},
         "draft": {"modelscope": "me/head", "bytes": 1}},
        {"name": "qwen3-4b", "title": "My Qwen3 4B", "target": {"hf": "me/q4"}, "draft": {"hf": "me/q4-head"},
         "start_k": {"GPU": 6}},
    ]}), encoding="utf-8")
    catalog = load_catalog()
    assert catalog.problems == []
    assert catalog.get("mine").user and catalog.get("mine").sources() == ()  # no source has both repos
    assert catalog.get("qwen3-4b").title == "My Qwen3 4B"
    assert catalog.get("qwen3-4b").variant("GPU").start_k["GPU"] == 6
    assert "qwen3-8b" in catalog.names()


def test_a_broken_user_catalog_never_hides_the_builtin_one():
    paths.user_catalog_file().write_text("{not json", encoding="utf-8")
    catalog = load_catalog()
    assert "qwen3-8b" in catalog.names()
    assert len(catalog.problems) == 1 and "could not be read" in catalog.problems[0]

    paths.user_catalog_file().write_text(json.dumps({"pairs": [{"name": "bad name", "target": {}}]}))
    catalog = load_catalog()
    assert "qwen3-8b" in catalog.names() and "bad name" not in catalog.names()
    assert "ignored" in catalog.problems[0]
