"""Load a target + EAGLE-3 draft and produce a short greedy reply — run as a child process.

    python -m eagle_chat.core.acquisition.verify_worker --target DIR --draft DIR [--device CPU] [--k 3] [--cache-dir DIR]

The last step before a pulled pair is registered: both folders load in OpenVINO GenAI as a speculative
pipeline, a reply comes out, and the draft's proposals are accepted at least sometimes (a draft that never
gets a token accepted only slows the model down — a mismatched head, or the upstream bug where some
freshly built EAGLE-3 pipelines accept nothing). A separate process keeps a multi-GB load and its memory
out of the app, and can be stopped. Output: JSON lines like the download worker's, ending with
``{"event": "result", ...}`` (exit 0) or ``{"event": "error", "kind": ..., "message": ...}`` (exit 1 or 3).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import eagle_chat  # noqa: F401 - telemetry off before openvino is imported
from eagle_chat.core.acquisition.protocol import Emitter, error_fields
from eagle_chat.core.errors import UserError

PROMPTS = (
    "Write a short Python function that returns the sum of a list of numbers.",
    "Explain in two sentences what a hash table is.",
    "List three prime numbers and say why each one is prime.",
)
EXIT_NO_ACCEPTANCE = 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eagle_chat.core.acquisition.verify_worker")
    parser.add_argument("--target", type=Path, required=True)
    parser.add_argument("--draft", type=Path, required=True)
    parser.add_argument("--device", default="CPU")
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--max-new-tokens", type=int, default=40)
    parser.add_argument("--cache-dir", type=Path)
    args = parser.parse_args(argv)
    emit = Emitter()
    from eagle_chat.core.generation import devices
    from eagle_chat.core.generation.engine import (
        Engine,
        EngineError,
        GenerationSettings,
        PipelineSpec,
    )

    device = args.device.upper()
    try:
        available = {d.kind for d in devices.list_devices()}
    except Exception:  # noqa: BLE001 - a broken plugin must not hide CPU
        available = {"CPU"}
    if device not in available:
        emit("status", message=f"{device} is not available here; checking the pair on CPU instead.")
        device = "CPU"
    emit("status", message=f"Loading the model and its draft on {device}…")
    try:
        engine = Engine(PipelineSpec(args.target, args.draft, device=device, cache_dir=args.cache_dir))
    except UserError as error:
        emit("error", kind="load", **error_fields(error))
        return 1
    settings = GenerationSettings(max_new_tokens=args.max_new_tokens, speculative=True,
                                  num_assistant_tokens=args.k, thinking=False)
    accepted = drafted = generated = 0
    text = ""
    try:
        for prompt in PROMPTS:
            emit("status", message="Writing a short test reply…")
            messages = [{"role": "user", "content": prompt}]
            result = engine.generate(messages, settings)
            stats = result.stats
            accepted += stats.accepted_tokens or 0  # a local engine always counts them
            drafted += stats.draft_tokens or 0
            generated += stats.generated_tokens
            text = text or result.text
            if accepted > 0:
                break
    except EngineError as error:
        emit("error", kind="generate", **error_fields(error))
        return 1
    finally:
        engine.close()
    if generated == 0:
        emit("error", kind="generate",
             **error_fields(UserError("The model loaded but wrote nothing; the files look damaged.")))
        return 1
    if accepted == 0:
        emit("error", kind="acceptance", **error_fields(UserError(
            "The draft's proposals were never accepted in {replies} test replies ({drafted} drafted tokens), so it "
            "would only slow the model down. It is probably not the EAGLE-3 head made for this model, or hit "
            "OpenVINO GenAI's known zero-acceptance bug (openvino.genai #4425).",
            replies=len(PROMPTS), drafted=drafted)))
        return EXIT_NO_ACCEPTANCE
    emit("result", device=device, accepted=accepted, draft_tokens=drafted, generated=generated,
         acceptance=(accepted / drafted) if drafted else None, text=text[:200],
         load_time_ms=round(engine.load_time_ms, 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
