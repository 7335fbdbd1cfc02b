"""`eagle-chat models pull` of an entry whose draft is a Hugging Face-format EAGLE-3 head, in a Python where
PyTorch (and transformers, optimum) cannot be imported — a default install. Every process of the pull (the
CLI, the download workers, the converter, the test load) starts with a meta-path finder that hides those
packages, as if they were not installed, and records whether ``import torch`` failed in it."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

from eagle_chat.core.models import folders
from eagle_chat.core.models.registry import ModelRegistry

HIDE = '''
import json, os, sys
from importlib.machinery import PathFinder

HIDDEN = {"torch", "transformers", "optimum", "diffusers", "torchvision"}


class HidingPathFinder:
    """PathFinder, except that the hidden packages are not found (find_spec None, import fails)."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            return None
        return PathFinder.find_spec(name, path, target)

    @classmethod
    def invalidate_caches(cls):
        PathFinder.invalidate_caches()


sys.meta_path[:] = [HidingPathFinder if f is PathFinder else f for f in sys.meta_path]
try:
    import torch  # noqa: F401
    outcome = "imported"
except ImportError as error:
    outcome = type(error).__name__
with open(os.environ["EAGLE_CHAT_TEST_TORCH_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps({"argv": sys.orig_argv, "torch": outcome}) + "\\n")
'''


def test_pull_converts_the_head_with_no_torch(fake_hub, tiny_catalog, eagle_home, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HIDE, encoding="utf-8")
    log = tmp_path / "torch.jsonl"
    env = {**__import__("os").environ, "PYTHONPATH": str(site), "EAGLE_CHAT_TEST_TORCH_LOG": str(log)}
    done = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "models", "pull", "tiny", "--endpoint", fake_hub.url,
         "--home", str(eagle_home)],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, env=env,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "tiny is ready" in done.stdout
    assert "Exporting the EAGLE-3 draft to OpenVINO (fp16)" in done.stderr

    processes = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert all(p["torch"] == "ModuleNotFoundError" for p in processes), processes
    converters = [p for p in processes if "eagle3_converter" in " ".join(p["argv"])]
    assert len(converters) == 1 and len(processes) >= 4, processes  # CLI, 2 downloads, converter, test load

    pair = ModelRegistry().get("tiny")
    draft = folders.inspect_draft(pair.draft_dir)
    assert draft.is_eagle3
    rt_info = ET.parse(pair.draft_path / folders.MODEL_XML).getroot().find("rt_info")
    assert rt_info.find("eagle_chat").find("eagle3_converter") is not None, "made by the converter, not optimum"
    assert "Checked on CPU: the draft got" in done.stdout
