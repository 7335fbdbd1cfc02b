"""Converting a Hugging Face-format EAGLE-3 head to OpenVINO IR with no PyTorch.

The IR is built with OpenVINO's graph API (:mod:`.eagle3_graph`) from the head's config.json and weights
(:mod:`.eagle3_weights`), and saved with the rt_info optimum-intel's export writes (``eagle3_mode``, the
runtime options), so OpenVINO GenAI takes it as it takes an exported one. Weights are compressed to int4 /
int8 with NNCF when it is installed (it runs on OpenVINO models without torch), else stored as f16.

Run as a child process by the pull (``python -m eagle_chat.core.acquisition.eagle3_converter HEAD OUT
--weight-format int4 …``); it prints one line per stage, and ``converted`` with the sizes at the end.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
import time
from pathlib import Path

from eagle_chat.core.models.catalog import ExportOptions

HEAD_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "generation_config.json",
              "chat_template.jinja", "vocab.json", "merges.txt")
EAGLE3_ARCHITECTURE = "LlamaForCausalLMEagle3"
CONVERTER_VERSION = "1"


def nncf_available() -> bool:
    """NNCF installed here (weight compression); it is not a dependency of EagleChat."""
    try:
        return importlib.util.find_spec("nncf") is not None
    except (ImportError, ValueError):
        return False


def effective_format(options: ExportOptions) -> str:
    """The weight format the converter will write: the asked one, or f16 when it needs NNCF and NNCF is missing."""
    if options.weight_format in ("int4", "int8") and not nncf_available():
        return "fp16"
    if options.weight_format not in ("fp32", "fp16", "int4", "int8"):
        return "fp16"
    return options.weight_format


def convert_head(head_dir: Path, out_dir: Path, options: ExportOptions, log=print) -> dict:
    """Write ``openvino_model.xml/.bin`` and the head's config files into ``out_dir``; returns a summary."""
    import openvino as ov

    from eagle_chat.core.acquisition.eagle3_graph import build_model
    from eagle_chat.core.acquisition.eagle3_weights import read_config, read_weights

    started = time.monotonic()
    config = read_config(head_dir)
    weights = read_weights(head_dir)
    log(f"Read {len(weights)} tensors of the EAGLE-3 head (hidden {config.hidden_size}, draft vocabulary "
        f"{config.draft_vocab_size})")
    model = build_model(config, weights)
    weight_format = effective_format(options)
    model.set_rt_info("True", ["eagle3_mode"])
    model.set_rt_info("8.0", ["runtime_options", "ACTIVATIONS_SCALE_FACTOR"])
    if weight_format in ("fp16", "fp32"):
        model.set_rt_info("f16", ["runtime_options", "KV_CACHE_PRECISION"])  # optimum drops it when quantizing
    model.set_rt_info(CONVERTER_VERSION, ["eagle_chat", "eagle3_converter"])
    model.set_rt_info(weight_format, ["eagle_chat", "weight_format"])
    del weights
    if weight_format in ("int4", "int8"):
        log(f"Compressing the weights to {weight_format} with NNCF")
        model = _compress(model, options, weight_format)
    out_dir.mkdir(parents=True, exist_ok=True)
    log("Saving the OpenVINO IR")
    ov.save_model(model, out_dir / "openvino_model.xml", compress_to_fp16=weight_format != "fp32")
    _write_configs(head_dir, out_dir, config.raw)
    size = sum(p.stat().st_size for p in out_dir.glob("openvino_model.*"))
    return {"weight_format": weight_format, "bytes": size, "seconds": round(time.monotonic() - started, 2)}


def _compress(model, options: ExportOptions, weight_format: str):
    import nncf  # type: ignore[import-untyped]

    if weight_format == "int8":
        mode = nncf.CompressWeightsMode.INT8_SYM if options.sym else nncf.CompressWeightsMode.INT8_ASYM
        return nncf.compress_weights(model, mode=mode)
    mode = nncf.CompressWeightsMode.INT4_SYM if options.sym else nncf.CompressWeightsMode.INT4_ASYM
    group = options.group_size if options.group_size is not None else 128
    return nncf.compress_weights(model, mode=mode, group_size=group,
                                 ratio=options.ratio if options.ratio is not None else 1.0)


def _write_configs(head_dir: Path, out_dir: Path, config: dict) -> None:
    config = dict(config)
    architectures = config.get("architectures") or []
    if not architectures or "eagle3" not in str(architectures[0]).lower():
        config["architectures"] = [EAGLE3_ARCHITECTURE]
    (out_dir / "config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    for name in HEAD_FILES:
        if (head_dir / name).is_file():
            shutil.copy2(head_dir / name, out_dir / name)
    if not (out_dir / "generation_config.json").exists():
        generation = {k: config[k] for k in ("bos_token_id", "eos_token_id", "pad_token_id") if k in config}
        (out_dir / "generation_config.json").write_text(json.dumps(generation, indent=2), encoding="utf-8")


def command(head_dir: Path, out_dir: Path, options: ExportOptions) -> list[str]:
    """The child-process command line for :func:`main`, with this Python."""
    argv = [sys.executable, "-m", "eagle_chat.core.acquisition.eagle3_converter", str(head_dir), str(out_dir),
            "--weight-format", options.weight_format]
    if options.sym:
        argv.append("--sym")
    if options.group_size is not None:
        argv += ["--group-size", str(options.group_size)]
    if options.ratio is not None:
        argv += ["--ratio", f"{options.ratio:g}"]
    return argv


def main(argv: list[str] | None = None) -> int:
    from eagle_chat.core.errors import UserError

    parser = argparse.ArgumentParser(description="Convert an EAGLE-3 head to OpenVINO IR without PyTorch.")
    parser.add_argument("head_dir", type=Path)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--weight-format", default="int4")
    parser.add_argument("--group-size", type=int)
    parser.add_argument("--ratio", type=float)
    parser.add_argument("--sym", action="store_true")
    args = parser.parse_args(argv)
    options = ExportOptions(weight_format=args.weight_format, group_size=args.group_size, ratio=args.ratio,
                            sym=args.sym)
    try:
        summary = convert_head(args.head_dir, args.out_dir, options, log=lambda line: print(line, flush=True))
    except UserError as error:
        print(json.dumps({"event": "error", "message": str(error)}), flush=True)
        return 2
    print(json.dumps({"event": "converted", **summary}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
