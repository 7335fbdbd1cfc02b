"""The presenter's full-screen comparison reads from the back of the room and fits what it is shown on: after a
real comparison on the tiny pair, at 1024×768, 1280×720 and 1920×1080, in English and in Chinese, every
visible widget lies inside the screen, no caption is cut, the verdict (``demoVerdict``) is at least a
tenth of the screen high, each answer shows five whole lines, the details grow with the screen and a run's
status never wraps (sampled every 20 ms while it runs); the pre-flight's "the large type fits" agrees with that layout (and says it does
not fit on a screen where it does not). With a second screen the full-screen view goes there.

Each case runs in a child process, because the offscreen platform's screens are chosen when the
QApplication starts (``offscreen:configfile=…``), as in tests/ui/test_screen_fit.py."""

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
from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontInfo, QFontMetrics, QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QWidget
from eagle_chat.app import create_main_window
from eagle_chat.ui.speed.verdict_board import headline_text
from tests.ui import fit_probe

window = create_main_window([])
app = QApplication.instance()

def pump(until=lambda: False, seconds=0.3):
    fit_probe.pump(app, until, seconds)

window.show()
pump(lambda: window.controller.state in ("ready", "empty"), None)
window.options.max_tokens.setValue(48)
view = window.open_compare(demo=True)
finished = []
view.sig_finished.connect(finished.append)
wrapped = []  # a run's status that did not fit one line of the headline, as it was painted

def sample():
    head = view.board.headline
    if view.runner.is_running() and head.isVisible() and head.text():
        need = QFontMetrics(head.font()).horizontalAdvance(head.text())
        if need > head.contentsRect().width():
            wrapped.append(f"{head.text()!r} needs {need} px, has {head.contentsRect().width()}")

sampler = QTimer()
sampler.timeout.connect(sample)
sampler.start(20)
assert view.run()
pump(lambda: bool(finished) or not view.runner.is_running(), None)
pump()
sampler.stop()
screen = view.screen().geometry()

def outside(widget, name):
    return fit_probe.outside(widget, name, screen)

def cut(widget, name):
    # a caption narrower than its text, or a wrapped label lower than its lines
    if isinstance(widget, QLabel) and widget.text():
        if widget.wordWrap() and widget.heightForWidth(widget.width()) > widget.height():
            return [f"{name} {widget.text()[:40]!r}: {widget.height()} px high, needs "
                    f"{widget.heightForWidth(widget.width())}"]
        if not widget.wordWrap() and widget.sizeHint().width() > widget.width():
            return [f"{name} {widget.text()[:40]!r}: {widget.width()} px wide, needs {widget.sizeHint().width()}"]
    if isinstance(widget, QAbstractButton) and widget.sizeHint().width() > widget.width():
        return [f"{name} {widget.text()!r}: {widget.width()} px wide, needs {widget.sizeHint().width()}"]
    return []

problems = [] if view.geometry() == screen else [f"the view at {view.geometry().getRect()}"]
for widget in [view] + view.findChildren(QWidget):
    if widget.isVisible():
        name = widget.objectName() or type(widget).__name__
        problems += outside(widget, name) + cut(widget, name)
verdict = view.findChild(QLabel, "demoVerdict")
panel = window.dialogs.open_preflight()
check = next(c for c in panel.checks() if c.key == "screen")
panel.reject()
print("PRESENTER " + json.dumps({
    "screen": screen.getRect(), "full_screen": view.isFullScreen(), "finished": bool(finished),
    "problems": problems, "verdict_px": QFontInfo(verdict.font()).pixelSize(), "verdict": verdict.text(),
    "expected": headline_text(finished[0]) if finished else None, "verdict_visible": verdict.isVisible(),
    "summary": view.summary.text(), "prompt": view.prompt.currentText(), "fits": check.status,
    "need": [check.facts.get("need_width"), check.facts.get("need_height")],
    "screen_names": [s.name() for s in QGuiApplication.screens()], "view_screen": view.screen().name(),
    "window_screen": window.screen().name(), "wrapped": wrapped[:5],
    "pane_lines": [int((p.viewport().height() - 2 * p.document().documentMargin())
                       // QFontMetrics(p.font()).lineSpacing()) for p in (view.baseline_pane, view.speculative_pane)],
    "pane_rest": [(p.viewport().height() - 2 * p.document().documentMargin())
                  % QFontMetrics(p.font()).lineSpacing() for p in (view.baseline_pane, view.speculative_pane)],
    "summary_px": QFontInfo(view.summary.font()).pixelSize(),
    "summary_lines": view.summary.height() // QFontMetrics(view.summary.font()).lineSpacing()}, ensure_ascii=False))
window.close()
pump(lambda: window.closer.done, None)
"""


def _screens(*sizes: tuple[int, int]) -> dict:
    screens, x = [], 0
    for index, (width, height) in enumerate(sizes):
        screens.append({"name": f"screen{index}", "x": x, "y": 0, "width": width, "height": height,
                        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1})
        x += width
    return {"screens": screens}


def _probe(tmp_path: Path, lang: str, *sizes: tuple[int, int]) -> dict:
    """A real comparison on the tiny pair, full screen, on screens of ``sizes`` (the first is the primary)."""
    config = tmp_path / "screens.json"
    config.write_text(json.dumps(_screens(*sizes)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(LANG=lang, EAGLE_CHAT_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT),
               QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=300)
    line = next((x for x in result.stdout.splitlines() if x.startswith("PRESENTER ")), None)
    assert line, result.stdout[-3000:] + result.stderr[-3000:]
    return json.loads(line[len("PRESENTER "):])


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en_US.UTF-8", "zh_CN.UTF-8"])
@pytest.mark.parametrize(("width", "height"), [(1024, 768), (1280, 720), (1920, 1080)])
def test_the_finished_full_screen_comparison_fits_and_its_verdict_reads_from_afar(tmp_path, width, height, lang):
    found = _probe(tmp_path, lang, (width, height))
    assert found["finished"] and found["full_screen"] and found["screen"] == [0, 0, width, height]
    assert not found["problems"], "\n".join(found["problems"])
    assert found["verdict_visible"] and found["verdict"] == found["expected"]
    assert found["verdict_px"] >= height / 10, found["verdict_px"]
    assert found["fits"] == "ok" and found["need"][0] <= width and found["need"][1] <= height, found["need"]
    # What the room reads: five whole lines of each answer (the last not cut through its glyphs), the details
    # in type that grows with the screen on at most three lines, a run's status on one line of the headline.
    assert min(found["pane_lines"]) >= 5 and found["pane_rest"] == [0, 0], (found["pane_lines"], found["pane_rest"])
    assert found["summary_px"] >= height / 48 and found["summary_lines"] <= 3, (found["summary_px"], found["summary"])
    assert not found["wrapped"], found["wrapped"]
    chinese = lang.startswith("zh")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in found["prompt"]) == chinese, found["prompt"]
    if chinese:  # every word of the details translated: no English word but names and units
        assert "default" not in found["summary"] and "precision" not in found["summary"], found["summary"]
        assert not any(word in found["verdict"] for word in ("faster", "slower", "difference", "runs"))


def test_on_a_screen_too_small_the_preflight_says_so_and_the_layout_does_clip(tmp_path):
    """The "fits" check is the real layout's: where the layout clips, it warns (and says what it needs)."""
    found = _probe(tmp_path, "en_US.UTF-8", (800, 500))
    assert found["problems"]  # the layout really does not fit…
    assert found["fits"] == "warn" and found["need"][1] > 500, found  # …and the pre-flight said so


def test_with_a_second_screen_the_full_screen_view_goes_there_and_the_window_stays(tmp_path):
    found = _probe(tmp_path, "en_US.UTF-8", (1920, 1080), (1280, 720))
    assert found["screen_names"] == ["screen0", "screen1"]
    assert found["view_screen"] == "screen1" and found["screen"] == [1920, 0, 1280, 720]
    assert found["window_screen"] == "screen0"
    assert not found["problems"], "\n".join(found["problems"])
    assert found["verdict_px"] >= 72
