"""The speed-demo pair: the bundled tiny target widened until it moves the weights of a ~50M-parameter
model, next to its EAGLE-3 draft — a pair on which speculative decoding pays off on a laptop CPU.

Why: at 1M parameters the tiny target is compute-cheap, so per-call overhead dominates and verifying six
tokens costs about as much as generating six. Speculation wins once one forward pass is memory-bound,
i.e. once every step must stream tens of MB of weights. This widens every MLP of the trained target from
256 to ``width`` units: the extra units get random gate/up weights and *exactly zero* down-projection
weights, so they add exactly nothing to the residual stream. The widened model computes the same function
as the tiny one (the same replies, the same hidden states — so the same draft head fits) while costing
what a ~50M-parameter model costs per token. It is a demonstration of the method's economics, not a
better model: its replies are the tiny model's toy-quality replies.

Works on the OpenVINO IR directly (no PyTorch needed): only the MLP weight constants are replaced. The
output is ~100 MB at the default width, built in seconds on demand (Models menu,
``tools/build_speed_demo.py``), never shipped.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

MODEL_XML = "openvino_model.xml"
DEFAULT_WIDTH = 26_000
NAME = "speed-demo"
DESCRIPTION = "the toy model widened to ~50M weights: same replies, real speed-up"


def build_speed_demo(target_dir: Path, draft_dir: Path, out: Path, width: int = DEFAULT_WIDTH) -> tuple[Path, Path]:
    """Write ``out/target`` (widened) and ``out/draft`` (a copy); returns the two folders."""
    widen(target_dir, out / "target", width)
    if (out / "draft").exists():
        shutil.rmtree(out / "draft")
    shutil.copytree(draft_dir, out / "draft")
    return out / "target", out / "draft"


def widen(target_dir: Path, out_dir: Path, width: int, seed: int = 0) -> tuple[int, int]:
    """Write the widened target to ``out_dir``; returns (intermediate size before, parameters after)."""
    import openvino as ov

    config = json.loads((target_dir / "config.json").read_text(encoding="utf-8"))
    hidden, inner = int(config["hidden_size"]), int(config["intermediate_size"])
    if width <= inner:
        raise ValueError(f"--width must exceed the target's intermediate size ({inner})")
    model = ov.Core().read_model(target_dir / MODEL_XML)
    rng = np.random.default_rng(seed)
    replaced = {"gate/up": 0, "down": 0}
    for op in model.get_ordered_ops():
        if op.get_type_name() != "Constant" or op.get_output_partial_shape(0).is_dynamic:
            continue
        shape = tuple(op.get_output_shape(0))
        if shape == (inner, hidden):  # gate_proj / up_proj, [out, in] with transpose_b
            old = op.get_data()
            extra = rng.normal(0.0, 0.02, size=(width - inner, hidden)).astype(old.dtype)
            new = np.concatenate([old, extra], axis=0)
            replaced["gate/up"] += 1
        elif shape == (hidden, inner):  # down_proj: the extra units' columns are exactly zero
            old = op.get_data()
            new = np.concatenate([old, np.zeros((hidden, width - inner), dtype=old.dtype)], axis=1)
            replaced["down"] += 1
        else:
            continue
        op.output(0).replace(ov.op.Constant(new).output(0))
    layers = int(config["num_hidden_layers"])
    if replaced != {"gate/up": 2 * layers, "down": layers}:
        raise ValueError(f"unexpected MLP layout in {target_dir}: replaced {replaced}")
    model.validate_nodes_and_infer_types()
    out_dir.mkdir(parents=True, exist_ok=True)
    ov.save_model(model, out_dir / MODEL_XML, compress_to_fp16=False)
    for item in target_dir.iterdir():
        if not item.name.startswith("openvino_model.") and item.is_file():
            shutil.copy2(item, out_dir / item.name)
    config["intermediate_size"] = width
    (out_dir / "config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    params = sum(int(np.prod(c.get_output_shape(0))) for c in model.get_ordered_ops()
                 if c.get_type_name() == "Constant" and len(c.get_output_shape(0)) == 2)
    return inner, params
