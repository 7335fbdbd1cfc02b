"""The compare view's own figures on the bundled tiny pair and the speed-demo pair, at both precisions.

    python benchmarks/compare_pairs.py [--repeats 3] [--max-new-tokens 256] [--prompt TEXT]

Opens the real window offscreen (fresh home), loads each pair at each precision, and runs the comparison
exactly as the Compare button does — uncounted warm-up of both modes, alternating rounds, medians, min–max
and the noise verdict — then prints its summary, with the machine's load average next to it (figures
from a shared machine are only as quiet as the machine).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from _common import ROOT, private_home


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-new-tokens", type=int, default=256)
    parser.add_argument("--prompt", default="Write quicksort in Python and explain its time complexity")
    args = parser.parse_args()
    private_home()
    from PySide6.QtWidgets import QApplication

    from eagle_chat.app import create_main_window
    from eagle_chat.core.models.choice import ModelChoice
    from eagle_chat.core.models.speed_demo import build_speed_demo

    models = ROOT / "tests" / "models"
    out = Path(tempfile.mkdtemp(prefix="eagle-speed-demo-"))
    demo_target, demo_draft = build_speed_demo(models / "tiny-qwen3", models / "tiny-qwen3-eagle3", out)
    window = create_main_window([])
    app = QApplication.instance()

    def pump(until, timeout=1800.0):
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.002)

    pump(lambda: window.controller.state == "ready")
    window.options.max_tokens.setValue(args.max_new_tokens)
    view = window.open_compare()
    view.repeats.setValue(args.repeats)
    # K as a new user gets it: the app's default 5 on the bundled pair, the catalog's start 3 on the speed demo.
    pairs = [("bundled tiny pair", ModelChoice(models / "tiny-qwen3", models / "tiny-qwen3-eagle3", bundled=True), 5),
             ("speed-demo pair", ModelChoice(demo_target, demo_draft), 3)]
    for name, choice, k in pairs:
        for precision in ("default", "f32"):
            loads = []
            window.controller.sig_loaded.connect(loads.append)
            window.binder.update(precision=precision)
            window.options.precision.setCurrentIndex(window.options.precision.findData(precision))
            window.set_model(choice)
            pump(lambda: bool(loads) and window.controller.state == "ready")
            window.controller.sig_loaded.disconnect(loads.append)
            window.model_bar.k_slider.setValue(k)
            done = []
            view.sig_finished.connect(done.append)
            load_before = os.getloadavg()[0]
            view.run(args.prompt)
            pump(lambda: bool(done))
            view.sig_finished.disconnect(done.append)
            print(f"== {name}, {precision} precision (load average {load_before:.1f} → {os.getloadavg()[0]:.1f} "
                  f"on {os.cpu_count()} cores)")
            print(view.summary.text())
            print()
    view.close()
    window.close()


if __name__ == "__main__":
    main()
