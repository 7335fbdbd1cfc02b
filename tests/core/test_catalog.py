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
    # optimum-intel exports a head as EAGLE-3 only if its config's architecture says so; this copy's does
    assert llama.draft.repo_id("hf") == "lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B"
    assert llama.target.repo_id("hf") != "OpenVINO/Llama-3.1-8B-Instruct-int4-ov", "not seen to exist"
    for entry in catalog.entries:
        assert entry.target.approx_bytes > 100_000_000 and entry.draft.approx_bytes > 10_000_000
        assert entry.variant("CPU").start_k["CPU"] >= 1
        assert len(entry.evidence) > 40, f"{entry.name} names no evidence for its repositories"


def test_only_entries_whose_repos_were_checked_go_unmarked():
    catalog = load_catalog()
    trusted = {e.name for e in catalog.entries if not e.unverified}
    assert trusted == {"qwen3-1.7b", "qwen3-4b", "qwen3-8b"}  # the pairs OpenVINO's own tests and docs use
    assert "third-party" in catalog.get("llama3.1-8b").unverified
    circulus = catalog.get("qwen3.5-4b-circulus")
    assert circulus.unverified and "Third-party" in circulus.unverified
    assert circulus.draft.format == "openvino" and not circulus.needs_export
    assert all(e.needs_export for e in catalog.entries if e.name != "qwen3.5-4b-circulus")


def test_format_is_checked_and_targets_must_be_ir():
    paths.user_catalog_file().write_text(json.dumps({"version": 1, "pairs": [
        {"name": "ir", "target": {"hf": "me/t"}, "draft": {"hf": "me/d", "format": "openvino"}},
        {"name": "odd", "target": {"hf": "me/t"}, "draft": {"hf": "me/d", "format": "gguf"}},
        {"name": "hf-target", "target": {"hf": "me/t", "format": "hf"}, "draft": {"hf": "me/d"}},
    ]}), encoding="utf-8")
    catalog = load_catalog()
    assert not catalog.get("ir").needs_export and catalog.get("ir").variant("CPU").needs_export is False
    assert "odd" not in catalog.names() and "hf-target" not in catalog.names()
    assert any("'format' is \"openvino\"" in p for p in catalog.problems)
    assert any("must be OpenVINO IR" in p for p in catalog.problems)


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


def test_document_models_are_their_own_list_each_with_evidence_and_marked_unverified():
    catalog = load_catalog()
    kinds = {e.name: e.kind for e in catalog.document_models}
    assert kinds == {"qwen3-embedding-0.6b": "embedding", "bge-base-en-v1.5": "embedding",
                     "bge-reranker-base": "reranker"}
    assert not set(kinds) & set(catalog.names()), "chat-model lists (menu, Get models, serve) never see them"
    qwen = catalog.document_model("qwen3-embedding-0.6b", "embedding")
    assert qwen.model.repo_id("hf") == "OpenVINO/Qwen3-Embedding-0.6B-int8-ov" and qwen.model.is_ir
    assert qwen.pooling == "last" and qwen.query_instruction.startswith("Instruct:")
    assert "Chinese" in qwen.languages and "modelscope" in qwen.sources()
    assert catalog.document_model("bge-base-en-v1.5").pooling == "cls"
    assert catalog.document_model("bge-reranker-base", "embedding") is None
    for entry in catalog.document_models:
        assert len(entry.evidence) > 40 and "no network" in entry.unverified, entry.name


def test_kind_defaults_to_chat_and_document_entries_are_checked():
    paths.user_catalog_file().write_text(json.dumps({"version": 1, "pairs": [
        {"name": "plain", "target": {"hf": "me/t"}, "draft": {"hf": "me/d"}},
        {"name": "emb", "kind": "embedding", "model": {"hf": "me/e"}, "pooling": "cls"},
        {"name": "odd-kind", "kind": "vision", "model": {"hf": "me/v"}},
        {"name": "odd-pooling", "kind": "embedding", "model": {"hf": "me/e"}, "pooling": "max"},
        {"name": "hf-embedder", "kind": "embedding", "model": {"hf": "me/e", "format": "hf"}},
        {"name": "no-model", "kind": "reranker"},
    ]}), encoding="utf-8")
    catalog = load_catalog()
    assert "plain" in catalog.names()
    assert catalog.document_model("emb").pooling == "cls" and catalog.document_model("emb").user
    names = {e.name for e in catalog.document_models}
    assert "emb" in names and not names & {"odd-kind", "odd-pooling", "hf-embedder", "no-model"}
    problems = " ".join(catalog.problems)
    assert "'kind' is one of chat, embedding, reranker, not 'vision'" in problems
    assert "'pooling' is one of mean, cls, last" in problems
    assert "must be OpenVINO IR" in problems and "no-model" in problems
