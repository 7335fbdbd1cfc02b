"""Which OpenVINO devices exist, and the properties each needs — built in one place.

Target and draft always run on the same device: OpenVINO GenAI's EAGLE-3 NPU path requires it outright,
and on CPU/GPU splitting them only adds transfers. So one device string and one property dict serve both.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from eagle_chat.core.device_kinds import DEVICE_KINDS  # noqa: F401 - re-exported for the selector
from eagle_chat.core.errors import UserError

Precision = Literal["default", "f32"]
NPU_MAX_ASSISTANT_TOKENS = 7  # the default compile-time limit of draft tokens per step on NPU
# The CPU plugin keeps the primitives it prepared for every input shape it has run, up to 5,000 by default,
# and every distinct prompt length (and every context length a PagedAttention step sees) is a new shape: with
# distinct histories that cache grew the server by ~1.2 MB a request (tiny pair, GenAI alone: +439 MB over
# 180 requests at the default, +229 MB at 100 or 0, no measurable speed difference; docs/context.md). 100
# still holds the shapes a reply repeats (one decode token, a verification window, the draft's steps).
# With oneDNN's own primitive cache (ONEDNN_PRIMITIVE_CACHE_CAPACITY, 1,024 by default) the two kept the engine
# host growing +128 MB over 200 distinct 20 kB histories. 50 and 64 (set by the host, before the plugin
# loads): GenAI alone +37 MB over 180 requests (default 1,024 / 5,000: +166 MB), decode on the tiny pair
# 3,221–3,235 tok/s against 3,193–3,263 (0 and 0 cut memory to +36 MB but decode to 559–621 tok/s).
CPU_RUNTIME_CACHE_CAPACITY = 50
ONEDNN_PRIMITIVE_CACHE_CAPACITY = 64


def limit_cpu_caches() -> None:
    """Cap oneDNN's primitive cache for this process (an environment variable the CPU plugin reads when it
    first builds a primitive; a value the user set wins)."""
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(ONEDNN_PRIMITIVE_CACHE_CAPACITY))


class DeviceError(UserError):
    """A device the user picked cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class DeviceInfo:
    """One device as OpenVINO reports it (``id`` e.g. ``GPU.1``; ``kind`` e.g. ``GPU``)."""

    id: str
    kind: str
    full_name: str


@dataclass(frozen=True)
class NpuOptions:
    """NPU compile-time limits: the NPU compiles every model for fixed sizes, so these are set at load.

    ``max_prompt_len`` / ``min_response_len`` go to both models (GenAI turns them into NPUW_LLM_*). The
    prompt limit is enforced by the NPU; the reply reserve must cover the longest reply the app lets the
    user ask for (:meth:`reply_limit`): past the compiled KV size GenAI's plain NPU pipeline stops
    silently, and its EAGLE-3 pipeline fails in the middle of a reply. 576 covers the app's default of
    512 new tokens plus the EAGLE-3 verification window (64-token steps, as NPUW rounds them).

    ``max_tree_depth`` / ``max_branching_factor`` / ``max_assistant_tokens`` bound the draft trees GenAI's
    NPU EAGLE-3 strategy can run; GenAI reads them only from the *draft's* properties (defaults 4 / 2 / 7).
    These defaults cover everything the app offers: a chain of up to 7 tokens is a tree 7 deep with one
    branch, and the tuned trees have 2 branches. The cost is a larger draft window
    (``NPUW_LLM_MAX_GENERATION_TOKEN_LEN`` = depth × branching = 14, rounded to 16, instead of 8).

    ``compiler_type`` None sends no NPU_COMPILER_TYPE: OpenVINO 2026 then uses the compiler in the NPU
    driver ("DRIVER", its documented default; "PLUGIN", the compiler shipped with OpenVINO, is a preview).
    """

    max_prompt_len: int = 1024
    min_response_len: int = 576
    compiler_type: str | None = None  # "DRIVER" or "PLUGIN"; None lets OpenVINO choose (DRIVER)
    max_tree_depth: int = 7
    max_branching_factor: int = 2
    max_assistant_tokens: int = NPU_MAX_ASSISTANT_TOKENS

    def draft_properties(self) -> dict[str, int]:
        """The compile-time tree limits, for ``draft_model()`` only (GenAI ignores them on LLMPipeline)."""
        return {
            "MAX_TREE_DEPTH": int(self.max_tree_depth),
            "MAX_BRANCHING_FACTOR": int(self.max_branching_factor),
            "MAX_ASSISTANT_TOKENS": int(self.max_assistant_tokens),
        }

    def draft_window(self) -> int:
        """Tokens one EAGLE-3 step occupies in the NPU's KV cache, as NPUW rounds it (a multiple of 8)."""
        tokens = max(self.max_assistant_tokens + 1, self.max_tree_depth * self.max_branching_factor)
        return -(-tokens // 8) * 8

    def reply_limit(self, with_draft: bool) -> int:
        """The longest reply that always fits the compiled KV cache, whatever the prompt (up to its limit).

        Plain NPU decoding stops at prompt + reply = MAX_PROMPT_LEN + MIN_RESPONSE_LEN; EAGLE-3 on NPU also
        needs room for two verification windows (measured with GenAI 2026.4.1 on the NPU plugin).
        """
        return self.min_response_len - (2 * self.draft_window() if with_draft else 0)


def list_devices(core=None) -> list[DeviceInfo]:
    """The devices OpenVINO can use on this machine, with their marketing names."""
    if core is None:
        import openvino

        core = openvino.Core()
    devices = []
    for device_id in core.available_devices:
        try:
            full_name = str(core.get_property(device_id, "FULL_DEVICE_NAME"))
        except Exception:  # a driver that cannot answer still names the device
            full_name = device_id
        devices.append(DeviceInfo(device_id, device_id.split(".")[0], full_name))
    return devices


def device_choices(devices: list[DeviceInfo]) -> dict[str, str | None]:
    """For each of CPU/GPU/NPU: ``None`` if usable, else the reason it is not (for a disabled menu entry)."""
    present = {d.kind for d in devices}
    return {kind: (None if kind in present else str(unavailable(kind))) for kind in DEVICE_KINDS}


def unavailable(kind: str) -> DeviceError:
    """Why ``kind`` (CPU/GPU/NPU) cannot be used when OpenVINO does not list it, as a translatable sentence."""
    if kind == "CPU":
        return DeviceError("OpenVINO reports no CPU device — the installation looks broken.")
    if kind == "GPU":
        return DeviceError("No Intel GPU found (or its driver is not installed).")
    return DeviceError("No Intel NPU found (Core Ultra processors have one; it needs the NPU driver).")


def resolve_device(kind: str, devices: list[DeviceInfo]) -> str:
    """The device string to give OpenVINO for a user's choice, or DeviceError with a reason.

    NPU must be passed as exactly ``"NPU"`` (GenAI picks its EAGLE-3 NPU path on that string). For a GPU
    the first one is used; several GPUs appear as ``GPU.0``/``GPU.1`` and ``GPU`` means ``GPU.0``.
    """
    kind = kind.upper()
    if kind not in DEVICE_KINDS:
        raise DeviceError("Unknown device {kind!r}: choose one of {kinds}.", kind=kind, kinds=", ".join(DEVICE_KINDS))
    if kind not in {d.kind for d in devices}:
        raise DeviceError("{kind} is not available here. {reason}", kind=kind, reason=unavailable(kind))
    return kind


def pipeline_properties(
    device: str,
    *,
    precision: Precision = "default",
    cache_dir: Path | None = None,
    npu: NpuOptions | None = None,
) -> dict[str, object]:
    """The properties for ``LLMPipeline`` and ``draft_model`` on ``device`` (the same dict for both).

    ``precision="f32"`` pins f32 inference and KV cache on CPU/GPU: the CPU defaults to bf16 where the
    processor has it, and near-tied logits can then make speculative and plain greedy output part.
    """
    kind = device.split(".")[0].upper()
    props: dict[str, object] = {}
    if cache_dir is not None:
        props["CACHE_DIR"] = str(cache_dir)
    if kind == "CPU":
        props["CPU_RUNTIME_CACHE_CAPACITY"] = CPU_RUNTIME_CACHE_CAPACITY
    if precision == "f32" and kind in ("CPU", "GPU"):
        props["INFERENCE_PRECISION_HINT"] = "f32"
        props["KV_CACHE_PRECISION"] = "f32"
    if kind == "NPU":
        npu = npu or NpuOptions()
        props["MAX_PROMPT_LEN"] = int(npu.max_prompt_len)
        props["MIN_RESPONSE_LEN"] = int(npu.min_response_len)
        if npu.compiler_type:
            props["NPU_COMPILER_TYPE"] = npu.compiler_type
    return props
