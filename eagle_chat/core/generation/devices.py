"""Which OpenVINO devices exist, and the properties each needs — built in one place.

Target and draft always run on the same device: OpenVINO GenAI's EAGLE-3 NPU path requires it outright,
and on CPU/GPU splitting them only adds transfers. So one device string and one property dict serve both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from eagle_chat.core.device_kinds import DEVICE_KINDS  # noqa: F401 - re-exported for the selector
from eagle_chat.core.errors import UserError

Precision = Literal["default", "f32"]
NPU_MAX_ASSISTANT_TOKENS = 7


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
    """NPU compile-time limits. Prompts longer than ``max_prompt_len`` tokens are refused by the NPU."""

    max_prompt_len: int = 1024
    min_response_len: int = 128
    compiler_type: str | None = None  # "DRIVER" or "PLUGIN"; None lets OpenVINO choose


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
    reasons = {
        "CPU": "OpenVINO reports no CPU device — the installation looks broken.",
        "GPU": "No Intel GPU found (or its driver is not installed).",
        "NPU": "No Intel NPU found (Core Ultra processors have one; it needs the NPU driver).",
    }
    return {kind: (None if kind in present else reasons[kind]) for kind in DEVICE_KINDS}


def resolve_device(kind: str, devices: list[DeviceInfo]) -> str:
    """The device string to give OpenVINO for a user's choice, or DeviceError with a reason.

    NPU must be passed as exactly ``"NPU"`` (GenAI picks its EAGLE-3 NPU path on that string). For a GPU
    the first one is used; several GPUs appear as ``GPU.0``/``GPU.1`` and ``GPU`` means ``GPU.0``.
    """
    kind = kind.upper()
    if kind not in DEVICE_KINDS:
        raise DeviceError(f"Unknown device {kind!r}: choose one of {', '.join(DEVICE_KINDS)}.")
    reason = device_choices(devices)[kind]
    if reason:
        raise DeviceError(f"{kind} is not available here. {reason}")
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
