"""Reading an EAGLE-3 head (config.json + weights) into numpy, with no PyTorch.

Heads are published as ``model.safetensors`` (possibly sharded) or as PyTorch's ``pytorch_model.bin`` (a zip
of a pickle and raw storages). Both are read here without torch: safetensors is a JSON header followed by
raw little-endian tensors, read through a memory map (so a 1 GB head is not copied into memory until a
tensor is used); the pickle is unpickled with a restricted unpickler that knows only the few torch names a
state dict uses. bfloat16, which numpy lacks (``safetensors.numpy`` refuses it), is widened to float32.
"""

from __future__ import annotations

import json
import pickle
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from eagle_chat.core.errors import UserError

# optimum-intel exports a head as EAGLE-3 when "eagle3" is in architectures[0] (LlamaForCausalLMEagle3,
# Eagle3LlamaForCausalLM); the EAGLE authors' own heads say LlamaForCausalLM with model_type llama.
PLAIN_LLAMA = "LlamaForCausalLM"


class HeadFormatError(UserError):
    """The head is not one the converter knows; the message names what it found."""


@dataclass
class HeadConfig:
    hidden_size: int
    target_hidden_size: int
    intermediate_size: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    vocab_size: int
    draft_vocab_size: int
    rms_norm_eps: float
    inv_freq: np.ndarray  # [head_dim / 2] float32, rope scaling applied
    raw: dict = field(repr=False, default_factory=dict)


def read_config(head_dir: Path) -> HeadConfig:
    try:
        config = json.loads((head_dir / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise HeadFormatError("The EAGLE-3 head in {head_dir} has no readable config.json ({error}).",
                              head_dir=head_dir, error=error) from None
    architectures = config.get("architectures") or []
    first = str(architectures[0]) if architectures else ""
    known = "eagle3" in first.lower() or (first in ("", PLAIN_LLAMA) and config.get("model_type") == "llama")
    if not known or config.get("model_type", "llama") != "llama":
        raise HeadFormatError(
            "EagleChat's converter does not know this draft: its config.json names architectures {architectures} "
            "and model type {model_type!r}; it converts Llama-type EAGLE-3 heads (LlamaForCausalLMEagle3, as "
            "AngelSlim and the EAGLE authors publish them).", architectures=architectures or "none",
            model_type=config.get("model_type"))
    problems = []
    if int(config.get("num_hidden_layers", 1)) != 1:
        problems.append(f"num_hidden_layers is {config.get('num_hidden_layers')} (EAGLE-3 heads have 1)")
    if config.get("hidden_act", "silu") != "silu":
        problems.append(f"hidden_act is {config.get('hidden_act')!r} (only silu is built)")
    for key in ("attention_bias", "mlp_bias"):
        if config.get(key):
            problems.append(f"{key} is set (biases are not built)")
    rope = config.get("rope_scaling") or config.get("rope_parameters") or {}
    rope_type = rope.get("rope_type") or rope.get("type") or "default"
    if rope_type not in ("default", "llama3", "linear") or rope.get("mrope_section"):
        problems.append(f"rope type {rope_type!r} (default, linear and llama3 are built)")
    if problems:
        raise HeadFormatError("EagleChat's converter cannot build this EAGLE-3 head ({architecture}): {problems}.",
                              architecture=first or "no architecture", problems="; ".join(problems))
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    head_dim = int(config.get("head_dim") or hidden // heads)
    vocab = int(config["vocab_size"])
    theta = float(config.get("rope_theta") or rope.get("rope_theta") or 10000.0)
    return HeadConfig(
        hidden_size=hidden, target_hidden_size=int(config.get("target_hidden_size") or hidden),
        intermediate_size=int(config["intermediate_size"]), num_heads=heads,
        num_kv_heads=int(config.get("num_key_value_heads") or heads), head_dim=head_dim, vocab_size=vocab,
        draft_vocab_size=int(config.get("draft_vocab_size") or vocab),
        rms_norm_eps=float(config.get("rms_norm_eps", 1e-6)),
        inv_freq=_inv_freq(head_dim, theta, rope_type, rope), raw=config,
    )


def _inv_freq(head_dim: int, theta: float, rope_type: str, rope: dict) -> np.ndarray:
    """transformers' rope initialisation (default, linear, llama3), in float64 then float32 as torch does."""
    inv = 1.0 / (theta ** (np.arange(0, head_dim, 2, dtype=np.int64).astype(np.float32) / head_dim))
    inv = inv.astype(np.float32)
    if rope_type == "linear":
        return (inv / float(rope["factor"])).astype(np.float32)
    if rope_type == "llama3":
        factor, low, high = float(rope["factor"]), float(rope["low_freq_factor"]), float(rope["high_freq_factor"])
        old_len = float(rope["original_max_position_embeddings"])
        low_wavelen, high_wavelen = old_len / low, old_len / high
        wavelen = 2 * np.pi / inv
        scaled = np.where(wavelen > low_wavelen, inv / factor, inv)
        smooth = (old_len / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < high_wavelen) & ~(wavelen > low_wavelen)
        return np.where(medium, smoothed, scaled).astype(np.float32)
    return inv


# ---- weights --------------------------------------------------------------------------------------------

_SAFETENSORS_DTYPES: dict[str, Any] = {"F32": np.float32, "F16": np.float16, "BF16": "bf16", "F64": np.float64,
                       "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8,
                       "BOOL": np.bool_}


def read_weights(head_dir: Path) -> dict[str, np.ndarray]:
    """Every tensor of the head, by its name with any leading ``model.`` removed."""
    files = sorted(head_dir.glob("*.safetensors"))
    tensors: dict[str, np.ndarray] = {}
    if files:
        for path in files:
            tensors.update(_read_safetensors(path))
    else:
        bins = sorted(head_dir.glob("pytorch_model*.bin"))
        if not bins:
            raise HeadFormatError("The EAGLE-3 head in {head_dir} has no weights (no *.safetensors or "
                                  "pytorch_model.bin).", head_dir=head_dir)
        for path in bins:
            tensors.update(_read_torch_zip(path))
    return {_normal_name(name): value for name, value in tensors.items()}


def _normal_name(name: str) -> str:
    name = name.removeprefix("model.")
    return "midlayer." + name[len("layers.0."):] if name.startswith("layers.0.") else name


def _read_safetensors(path: Path) -> dict[str, np.ndarray]:
    with path.open("rb") as file:
        (length,) = struct.unpack("<Q", file.read(8))
        header = json.loads(file.read(length))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length)
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        dtype = _SAFETENSORS_DTYPES.get(info["dtype"])
        if dtype is None:
            raise HeadFormatError("{path}: tensor {name} has type {dtype}, which the converter does not read.",
                                  path=path, name=name, dtype=info["dtype"])
        raw = data[start:end]
        tensors[name] = _bf16(raw) if dtype == "bf16" else raw.view(dtype)
        tensors[name] = tensors[name].reshape(info["shape"])
    return tensors


def _bf16(raw: np.ndarray) -> np.ndarray:
    return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)


_TORCH_STORAGES: dict[str, Any] = {"HalfStorage": np.float16, "FloatStorage": np.float32, "DoubleStorage": np.float64,
                   "BFloat16Storage": "bf16", "LongStorage": np.int64, "IntStorage": np.int32,
                   "ShortStorage": np.int16, "CharStorage": np.int8, "ByteStorage": np.uint8,
                   "BoolStorage": np.bool_}


def _read_torch_zip(path: Path) -> dict[str, np.ndarray]:
    """A ``torch.save`` state dict (zip format, torch >= 1.6) as numpy arrays, without torch."""
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise HeadFormatError("{path} is a legacy (pre-zip) PyTorch file, which the converter does not read.",
                              path=path) from None
    with archive:
        pickle_name = next((n for n in archive.namelist() if n.endswith("/data.pkl")), None)
        if pickle_name is None:
            raise HeadFormatError("{path} is not a PyTorch state dict (no data.pkl).", path=path)
        prefix = pickle_name[: -len("data.pkl")]
        storages: dict[str, np.ndarray] = {}

        def storage(key: str, dtype) -> np.ndarray:
            if key not in storages:
                raw = np.frombuffer(archive.read(f"{prefix}data/{key}"), dtype=np.uint8)
                storages[key] = _bf16(raw) if dtype == "bf16" else raw.view(dtype)
            return storages[key]

        unpickler = _StateDictUnpickler(archive.open(pickle_name), storage)
        state = unpickler.load()
    if not isinstance(state, dict):
        raise HeadFormatError("{path} does not hold a state dict.", path=path)
    return {str(k): v for k, v in state.items() if isinstance(v, np.ndarray)}


class _StorageType:
    def __init__(self, dtype):
        self.dtype = dtype


def _rebuild_tensor(storage, offset, size, stride, *_args):
    """torch._utils._rebuild_tensor_v2 for a numpy storage (strides in elements)."""
    if not size:
        return np.array(storage[offset])
    item = storage.itemsize
    return np.lib.stride_tricks.as_strided(storage[offset:], shape=tuple(size),
                                           strides=tuple(s * item for s in stride)).copy()


class _StateDictUnpickler(pickle.Unpickler):
    def __init__(self, file, storage):
        super().__init__(file)
        self._storage = storage

    def find_class(self, module: str, name: str):
        if module == "collections" and name == "OrderedDict":
            import collections
            return collections.OrderedDict
        if module == "torch._utils" and name in ("_rebuild_tensor_v2", "_rebuild_tensor"):
            return _rebuild_tensor
        if module == "torch" and name in _TORCH_STORAGES:
            return _StorageType(_TORCH_STORAGES[name])
        if module == "torch" and name == "device":
            return str
        raise pickle.UnpicklingError(f"the checkpoint refers to {module}.{name}, which a plain state dict does not")

    def persistent_load(self, pid):
        kind, storage_type, key, _location, _numel = pid[:5]
        if kind != "storage" or not isinstance(storage_type, _StorageType):
            raise pickle.UnpicklingError(f"unknown storage {pid[:2]!r}")
        return self._storage(str(key), storage_type.dtype)
