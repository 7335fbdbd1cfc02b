"""The whole pull, export included: `eagle-chat models pull` against the local hub, then GenAI loads it.

The tiny Hugging Face-format EAGLE-3 head (tests/models/hf/tiny-qwen3-eagle3) goes through the same
ExportStep as the Get models dialog (``optimum-cli export openvino`` in a child process), and the result
must be what OpenVINO GenAI runs as an EAGLE-3 draft. Needs torch and the ``build-models`` extra.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from eagle_chat import paths
from eagle_chat.core.acquisition import draft_export
from eagle_chat.core.models import folders
from eagle_chat.core.models.catalog import load_catalog
from eagle_chat.core.models.registry import ModelRegistry


def test_export_tools_are_installed_for_this_test():
    assert draft_export.export_tools_problem() is None, draft_export.export_tools_problem()


def test_missing_export_tools_say_exactly_what_to_install(monkeypatch):
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *a: None if name == "einops" else object())
    problem = draft_export.export_tools_problem()
    assert "missing: einops" in problem
    assert f"{sys.executable} -m pip install \"eagle-chat[build-models]\"" in problem
    assert "download.pytorch.org/whl/cpu" in problem


def test_export_command_is_the_documented_one(tmp_path):
    variant = load_catalog().get("qwen3-8b").variant("CPU")
    argv = draft_export.export_command(tmp_path / "head", tmp_path / "out", variant.export)
    assert argv[:3] == [sys.executable, "-m", "optimum.commands.optimum_cli"]
    assert argv[3:] == ["export", "openvino", "--model", str(tmp_path / "head"), "--task",
                        "text-generation-with-past", "--trust-remote-code", "--weight-format", "int4",
                        "--group-size", "128", "--ratio", "1", str(tmp_path / "out")]


@pytest.mark.slow
def test_pull_downloads_exports_checks_and_registers_a_pair_genai_runs(fake_hub, tiny_catalog, eagle_home):
    done = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "models", "pull", "tiny", "--endpoint", fake_hub.url,
         "--home", str(eagle_home)],
        capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "tiny is ready" in done.stdout
    assert "Exporting the EAGLE-3 draft" in done.stderr
    assert "Checked on CPU: the draft got" in done.stdout

    pair = ModelRegistry().get("tiny")
    assert pair.owned and pair.source == "hf:test/tiny-qwen3" and pair.draft_source == "hf:test/tiny-qwen3-eagle3"
    assert pair.start_k["CPU"] == 3
    assert not (paths.staging_dir() / "tiny").exists(), "the head and the export staging are cleaned up"

    draft = folders.inspect_draft(pair.draft_dir)
    assert draft.is_eagle3
    rt_info = ET.parse(pair.draft_path / folders.MODEL_XML).getroot().find("rt_info")
    assert rt_info.find("eagle3_mode") is not None, "optimum-intel marks EAGLE-3 drafts in rt_info"
    folders.check_pair(folders.inspect_target(pair.target_dir), draft)

    from eagle_chat.core.generation.engine import (
        Engine,
        GenerationSettings,
        PipelineSpec,
    )

    engine = Engine(PipelineSpec(pair.target_path, pair.draft_path, device="CPU", precision="f32"))
    try:
        prompt = [{"role": "user", "content": "def fibonacci(n):"}]
        fast = engine.generate(prompt, GenerationSettings(max_new_tokens=32, num_assistant_tokens=3))
        plain = engine.generate(prompt, GenerationSettings(max_new_tokens=32, speculative=False))
    finally:
        engine.close()
    assert fast.stats.draft_tokens > 0 and fast.stats.accepted_tokens > 0
    assert fast.text == plain.text  # EAGLE-3 is lossless: greedy output is unchanged

    listed = subprocess.run([sys.executable, "-m", "eagle_chat", "models", "list", "--home", str(eagle_home)],
                            capture_output=True, text=True, timeout=60)
    assert "tiny" in listed.stdout and "downloaded from hf:test/tiny-qwen3" in listed.stdout


def _plain_llama_head(tmp_path):
    """The committed HF-format head, as the EAGLE authors publish theirs: config.json says LlamaForCausalLM."""
    import json
    import shutil

    head = shutil.copytree(paths.tiny_models_dir() / "hf" / "tiny-qwen3-eagle3", tmp_path / "head")
    config = json.loads((head / "config.json").read_text(encoding="utf-8"))
    config["architectures"] = ["LlamaForCausalLM"]
    (head / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return head


def test_a_head_declaring_plain_llama_is_exported_from_a_patched_copy(tmp_path):
    import json

    head = _plain_llama_head(tmp_path)
    before = {p.name: p.read_bytes() for p in head.iterdir()}
    patched = draft_export.head_for_export(head, tmp_path / "work")
    assert patched == tmp_path / "work"
    assert json.loads((patched / "config.json").read_text())["architectures"] == ["LlamaForCausalLMEagle3"]
    assert {p.name: p.read_bytes() for p in head.iterdir()} == before, "the download stays as the hub has it"
    assert (patched / "model.safetensors").read_bytes() == before["model.safetensors"]
    # a head that already declares EAGLE-3 is exported as it is
    assert draft_export.head_for_export(paths.tiny_models_dir() / "hf" / "tiny-qwen3-eagle3",
                                        tmp_path / "w2") == paths.tiny_models_dir() / "hf" / "tiny-qwen3-eagle3"


def test_a_draft_that_is_no_llama_head_is_refused(tmp_path):
    import json

    head = tmp_path / "qwen"
    head.mkdir()
    (head / "config.json").write_text(json.dumps({"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3"}))
    with pytest.raises(draft_export.DraftExportError, match="not an EAGLE-3 head"):
        draft_export.head_for_export(head, tmp_path / "work")


@pytest.mark.slow
def test_llama_style_head_export_gives_an_eagle3_ir(tmp_path):
    """The ExportStep the pull uses, on a head whose config says LlamaForCausalLM: the IR must carry rt_info
    eagle3_mode, or GenAI would not use it as a draft."""
    from eagle_chat.core.acquisition import runner, pull_steps
    from eagle_chat.core.models.catalog import ExportOptions

    head = _plain_llama_head(tmp_path)
    step = pull_steps.ExportStep(head, tmp_path / "export", tmp_path / "draft", paths.tiny_target_dir(),
                            ExportOptions(weight_format="fp16"))
    runner.run_step(step)
    assert step.route == "converter", "EagleChat's converter builds a plain-Llama head too"
    rt_info = ET.parse(tmp_path / "draft" / folders.MODEL_XML).getroot().find("rt_info")
    assert rt_info.find("eagle3_mode") is not None
    assert folders.inspect_draft(tmp_path / "draft").is_eagle3
