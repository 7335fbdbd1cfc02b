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
