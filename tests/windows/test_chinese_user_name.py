"""A Windows user named 张三: the home, the models and the compiled-model cache all sit under a non-ASCII
folder, through the real engine (OpenVINO has had such path bugs on Windows) and the real CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.generation.engine import GenerationSettings, PipelineSpec
from eagle_chat.core.hosting.client import EngineHost
from eagle_chat.core.models.registry import ModelRegistry
from tests.conftest import F32

ROOT = Path(__file__).resolve().parents[2]


def test_home_and_models_under_a_chinese_user_name(tiny_pair, tmp_path, monkeypatch):
    home = tmp_path / "Users" / "张三" / "AppData" / "EagleChat"
    monkeypatch.setenv(paths.HOME_ENV, str(home))
    models = tmp_path / "Users" / "张三" / "模型"
    target = shutil.copytree(tiny_pair[0], models / "小模型")
    draft = shutil.copytree(tiny_pair[1], models / "小模型-草稿")

    registered = subprocess.run(
        [sys.executable, "-m", "eagle_chat", "models", "import", str(target), str(draft), "--name", "张三的模型"],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=300)
    assert registered.returncode == 0, registered.stderr
    pair = ModelRegistry().get("张三的模型")
    assert Path(pair.target_dir) == target

    host = EngineHost(paths.engine_log_file())
    try:
        loaded = host.load(PipelineSpec(Path(pair.target_dir), Path(pair.draft_dir), device="CPU", precision=F32,
                                        cache_dir=paths.compiled_cache_dir()))
        result = host.generate([{"role": "user", "content": "你好"}], GenerationSettings(max_new_tokens=16),
                               threading.Event(), on_chunk=lambda *_: None, on_steps=lambda _: None)
    finally:
        host.close()
    assert loaded is not None and result.stats.generated_tokens > 0
    assert result.stats.mode == "speculative"  # the EAGLE-3 draft under 张三 was used
    assert str(paths.compiled_cache_dir()).startswith(str(home)) and paths.engine_log_file().is_file()
