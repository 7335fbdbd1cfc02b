#!/usr/bin/env python3
"""Build the speed-demo pair (see eagle_chat/core/speed_demo.py for what it is and why).

    .venv/bin/python tools/build_speed_demo.py OUT_DIR [--width 26000]
    eagle-chat bench --model OUT_DIR/target --draft OUT_DIR/draft --tune

The app builds the same pair from its Models menu ("Speed-demo pair").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from eagle_chat.core.models.speed_demo import DEFAULT_WIDTH, build_speed_demo  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the speed-demo pair from the tiny test pair.")
    parser.add_argument("out", type=Path, help="output folder (gets target/ and draft/)")
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH, help=f"MLP width (default {DEFAULT_WIDTH})")
    parser.add_argument("--models", type=Path, default=REPO / "tests" / "models", help="where the tiny pair is")
    args = parser.parse_args(argv)
    target, draft = build_speed_demo(args.models / "tiny-qwen3", args.models / "tiny-qwen3-eagle3", args.out,
                                     args.width)
    size = sum(f.stat().st_size for f in target.iterdir())
    print(f"speed-demo pair: {target} ({size / 1e6:.0f} MB, MLP width {args.width}) + {draft}")
    print(f"next: eagle-chat bench --model {target} --draft {draft} --tune")
    return 0


if __name__ == "__main__":
    sys.exit(main())
