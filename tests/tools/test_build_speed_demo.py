"""The speed-demo builder widens the target without changing what it computes."""

import json
import subprocess
import sys
from pathlib import Path

from eagle_chat.core.generation.engine import Engine, GenerationSettings, PipelineSpec

SCRIPT = Path(__file__).parents[2] / "tools" / "build_speed_demo.py"


def test_widened_target_gives_the_same_replies_and_keeps_its_draft(tiny_pair, prompts, tmp_path):
    out = tmp_path / "demo"
    done = subprocess.run([sys.executable, str(SCRIPT), str(out), "--width", "2048"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "target" / "config.json").read_text())["intermediate_size"] == 2048
    assert (out / "target" / "openvino_model.bin").stat().st_size > 4 * (
        tiny_pair[0] / "openvino_model.bin").stat().st_size
    wide = Engine(PipelineSpec(out / "target", out / "draft", precision="f32"))
    tiny = Engine(PipelineSpec(tiny_pair[0], tiny_pair[1], precision="f32"))
    settings = GenerationSettings(max_new_tokens=48, num_assistant_tokens=4)
    for prompt in prompts[:3]:
        a, b = wide.generate(prompt, settings), tiny.generate(prompt, settings)
        assert a.text == b.text
        assert a.stats.accepted_tokens == b.stats.accepted_tokens > 0
    wide.close()
    tiny.close()
