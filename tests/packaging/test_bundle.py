"""The PyInstaller bundle: built by packaging/build_linux.sh, self-tested in an empty environment.

Slow (a build takes about a minute) but it runs in CI: a frozen app breaks in ways no unit test sees
(a plugin the dependency scan missed, a library in the wrong folder, telemetry sneaking back in).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from eagle_chat.commands.self_test import PASSED

ROOT = Path(__file__).resolve().parents[2]
SIZE_LIMIT_BYTES = 600 * 1024 * 1024
BUILD_TIMEOUT_S = 1800

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(BUILD_TIMEOUT_S + 600),  # the first test builds the bundle (its fixture's own bound)
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="build_linux.sh builds the Linux bundle"),
]


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    """Run the build script once for the module; returns (bundle dir, completed process)."""
    out = tmp_path_factory.mktemp("bundle")
    env = {k: v for k, v in os.environ.items() if k != "EAGLE_CHAT_HOME"}
    env["PYTHON"] = sys.executable
    proc = subprocess.run(
        ["bash", str(ROOT / "packaging" / "build_linux.sh"), str(out / "dist")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
    )
    return out / "dist" / "eagle-chat", proc


def test_build_and_self_test_pass(build):
    bundle, proc = build
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-6000:]
    assert proc.stdout.count(PASSED) == 2  # the console eagle-chat and the windowed EagleChat, each
    for program in ("eagle-chat", "EagleChat"):
        assert f"SELF_TEST_STATUS_{program}=0" in proc.stdout
        assert (bundle / program).is_file()
    assert "(frozen bundle)" in proc.stdout
    assert "HOME untouched by the self-test" in proc.stdout


def test_bundle_has_no_telemetry(build):
    from PyInstaller.archive.readers import pkg_archive_contents

    bundle, _ = build
    modules = pkg_archive_contents(str(bundle / "eagle-chat"))
    assert "eagle_chat.commands.self_test" in modules  # the listing really covers the bundled Python modules
    assert not [m for m in modules if m.split(".")[0] == "openvino_telemetry"]
    assert not list(bundle.rglob("openvino_telemetry*"))


def test_bundle_carries_what_the_app_loads_at_run_time(build):
    bundle, _ = build
    internal = bundle / "_internal"
    for name in ("tiny-qwen3", "tiny-qwen3-eagle3"):
        assert (internal / "eagle_chat" / "tiny_models" / name / "openvino_model.xml").is_file()
    assert (internal / "eagle_chat" / "resources" / "icons" / "eagle-chat.svg").is_file()
    libs = {p.name.split(".so")[0] for p in (internal / "openvino" / "libs").iterdir()}
    for plugin in ("cpu", "gpu", "npu"):
        assert f"libopenvino_intel_{plugin}_plugin" in libs
    assert "libopenvino_ir_frontend" in libs
    assert "libopenvino_pytorch_frontend" not in libs  # trimmed: the app loads IR only
    assert (internal / "openvino_tokenizers" / "lib" / "libopenvino_tokenizers.so").is_file()
    assert not list(internal.rglob("libQt6Quick*")) and not list(internal.rglob("libQt6WebEngine*"))


def test_bundle_size_is_sane(build):
    bundle, proc = build
    match = re.search(r"^BUNDLE_SIZE_BYTES=(\d+)$", proc.stdout, re.M)
    assert match, proc.stdout[-3000:]
    size = int(match.group(1))
    assert 0 < size < SIZE_LIMIT_BYTES, f"bundle is {size / 2**20:.0f} MiB"


def _run_bundle(bundle: Path, tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The bundled executable in an empty environment (as a user's desktop would start it)."""
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "EAGLE_CHAT_HOME": str(tmp_path)}
    return subprocess.run(
        [str(bundle / "eagle-chat"), *args], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300,
        input=stdin,
    )


def _events(proc: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def test_helper_processes_run_inside_the_bundle(build, tmp_path):
    """The app starts its workers as `sys.executable -m eagle_chat.core.…`; in a bundle that is eagle-chat."""
    bundle, _ = build
    models = bundle / "_internal" / "eagle_chat" / "tiny_models"
    verify = _run_bundle(
        bundle, tmp_path, "-m", "eagle_chat.core.acquisition.verify_worker",
        "--target", str(models / "tiny-qwen3"), "--draft", str(models / "tiny-qwen3-eagle3"), "--max-new-tokens", "16",
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    result = _events(verify)[-1]
    assert result["event"] == "result" and result["accepted"] > 0

    # The download clients are bundled: an unreachable endpoint gives a network error, not "missing client".
    for source in ("hf", "modelscope"):
        download = _run_bundle(
            bundle, tmp_path, "-m", "eagle_chat.core.acquisition.download_worker", "--source", source,
            "--repo", "OpenVINO/none", "--dest", str(tmp_path / source), "--endpoint", "http://127.0.0.1:9",
        )
        errors = [e for e in _events(download) if e["event"] == "error"]
        assert errors and errors[-1]["kind"] == "network", download.stdout + download.stderr

    # The math typesetter (ziamath, its fonts and latex2mathml's symbol table are data files).
    math = _run_bundle(bundle, tmp_path, "-m", "eagle_chat.ui.math.typesetting",
                       stdin=json.dumps(["\\frac{a}{b} + \\text{x}", True, "#112233"]) + "\n")
    lines = math.stdout.splitlines()
    assert lines[:1] == ["ready"] and len(lines) == 2, math.stdout + math.stderr
    svg, width, height, _depth = json.loads(lines[1])
    assert svg.startswith("<svg") and width > 5 and height > 5

    refused = _run_bundle(bundle, tmp_path, "-m", "json.tool")
    assert refused.returncode == 2 and "only run EagleChat's own modules" in refused.stderr


def test_the_bundle_converts_an_eagle3_head_without_torch(build, tmp_path):
    """The converter's child process (numpy, OpenVINO's graph API) runs frozen; NNCF is not bundled, so an
    int4 request writes 16-bit weights, as the pull's step title says."""
    import xml.etree.ElementTree as ET

    from eagle_chat import paths

    bundle, _ = build
    out = tmp_path / "converted"
    done = _run_bundle(bundle, tmp_path, "-m", "eagle_chat.core.acquisition.eagle3_converter",
                       str(paths.tiny_models_dir() / "hf" / "tiny-qwen3-eagle3"), str(out), "--weight-format", "int4")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    result = _events(done)[-1]
    assert result["event"] == "converted" and result["weight_format"] == "fp16" and result["bytes"] > 0
    rt_info = ET.parse(out / "openvino_model.xml").getroot().find("rt_info")
    assert rt_info.find("eagle3_mode") is not None


def test_the_bundle_pulls_ir_drafts_and_converts_hugging_face_heads(build, tmp_path, tiny_ir_catalog, fake_hub,
                                                                     eagle_home):
    """Frozen, an IR draft is downloaded, checked and registered; a Hugging Face-format head is downloaded,
    converted by EagleChat's converter (no optimum-intel, no torch in the bundle), checked and registered."""
    import xml.etree.ElementTree as ET

    from eagle_chat.core.models import folders
    from eagle_chat.core.models.registry import ModelRegistry

    bundle, _ = build
    for name in ("tiny-ir", "tiny"):
        done = _run_bundle(bundle, tmp_path, "models", "pull", name, "--endpoint", fake_hub.url,
                           "--home", str(eagle_home))
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
        assert f"{name} is ready" in done.stdout and "Checked on CPU: the draft got" in done.stdout
        pair = ModelRegistry().get(name)
        assert (pair.draft_path / "openvino_tokenizer.xml").is_file()
        assert folders.inspect_draft(pair.draft_dir).is_eagle3
    assert "Exporting the EAGLE-3 draft to OpenVINO (fp16)" in done.stderr
    rt_info = ET.parse(ModelRegistry().get("tiny").draft_path / folders.MODEL_XML).getroot().find("rt_info")
    assert rt_info.find("eagle_chat/eagle3_converter") is not None, "converted by EagleChat's converter"
