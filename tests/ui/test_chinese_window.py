"""With a Chinese system locale (LANG=zh_CN.UTF-8) and no saved choice the whole window speaks Chinese, and
every user-visible literal in ui/ goes through Qt's translation system."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

PROBE = r"""
import json
from PySide6.QtWidgets import QApplication
from eagle_chat.app import create_main_window
window = create_main_window([])
app = QApplication.instance()
menus = [a.text() for a in window.menuBar().actions()]
texts = {"menus": menus, "send": window.send_button.text(), "stop": window.stop_button.text(),
         "compare": window.compare_button.text(), "tune": window.tune_button.text(),
         "placeholder": window.prompt.placeholderText(), "new": window.conversations.findChildren(
             type(window.send_button))[0].text()}
window.close()
while not window.closer.done:
    app.processEvents()
print("TEXTS " + json.dumps(texts, ensure_ascii=False))
"""


def _window_texts(tmp_path, lang: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(LANG=lang, EAGLE_CHAT_HOME=str(tmp_path / lang), QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=240)
    line = next((x for x in result.stdout.splitlines() if x.startswith("TEXTS ")), None)
    assert line, result.stdout + result.stderr
    return json.loads(line[len("TEXTS "):])


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_a_chinese_locale_gives_a_chinese_window_and_english_stays_english(tmp_path):
    zh = _window_texts(tmp_path, "zh_CN.UTF-8")
    assert zh["send"] == "发送" and "视图(&V)" in zh["menus"] and "帮助(&H)" in zh["menus"]
    for key in ("stop", "compare", "tune", "placeholder", "new"):
        assert _chinese(zh[key]), (key, zh[key])
    assert all(_chinese(m) for m in zh["menus"]), zh["menus"]
    en = _window_texts(tmp_path, "en_US.UTF-8")
    assert en["send"] == "Send" and "&View" in en["menus"] and not any(_chinese(v) for v in en["menus"])


def test_every_user_visible_literal_in_ui_is_wrapped():
    from ui_literals import unwrapped

    findings = unwrapped([ROOT / "eagle_chat" / "ui"])
    assert not findings, "\n".join(str(f) for f in findings)


def test_the_literal_check_catches_a_new_bare_label(tmp_path):
    from ui_literals import unwrapped

    bad = tmp_path / "widget.py"
    bad.write_text('from PySide6.QtWidgets import QPushButton\nbutton = QPushButton("Start the demo")\n',
                   encoding="utf-8")
    assert len(unwrapped([bad])) == 1
