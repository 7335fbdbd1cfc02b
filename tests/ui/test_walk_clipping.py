"""At 1280×720 and 1024×768, in English and Chinese, with EAGLE-3 switched off (the next-reply line then
wraps), nothing in the main window is cut: no caption narrower than its text, no wrapped label lower than its
lines (the Decoding note showed its first and last lines half), no placeholder taller than its box, no caption
its parents show in part. Measured on the real window after a real load, as the walk saw it.

The older test_clipped_labels.py ran at 1280×800 only and left every word-wrapped label out. Each case runs
in a child process: the offscreen screen's size is chosen when the QApplication starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
from PySide6.QtWidgets import QApplication
from eagle_chat.app import create_main_window
from eagle_chat.ui.speed.controls import ElidedLabel
from tests.ui import clip_probe, fit_probe

window = create_main_window([])
app = QApplication.instance()
window.show()
fit_probe.pump(app, lambda: window.controller.state in ("ready", "empty"), None)
window.model_bar.draft_toggle.click()  # EAGLE-3 off
fit_probe.pump(app)
found = {"state": window.controller.state, "next": window.side.next_reply.text(),
         "problems": clip_probe.cut(window, elided=[ElidedLabel])}
window.close()
fit_probe.pump(app, lambda: window.closer.done, None)
print("CLIP " + json.dumps(found, ensure_ascii=False))
"""


def run_probe(tmp_path: Path, probe: str, lang: str, width: int, height: int, tag: str) -> dict:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": width, "height": height,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(LANG=lang, EAGLE_CHAT_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT),
               QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    result = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=300)
    line = next((x for x in result.stdout.splitlines() if x.startswith(tag + " ")), None)
    assert line, result.stdout[-3000:] + result.stderr[-3000:]
    return json.loads(line[len(tag) + 1:])


@pytest.mark.parametrize("lang", ["en_US.UTF-8", "zh_CN.UTF-8"])
@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1024, 768)])
def test_nothing_in_the_window_is_cut_at_laptop_and_projector_sizes(tmp_path, lang, width, height):
    found = run_probe(tmp_path, PROBE, lang, width, height, "CLIP")
    assert found["state"] == "ready" and found["next"], found
    assert not found["problems"], "\n".join(found["problems"])
