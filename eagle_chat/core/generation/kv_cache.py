"""How big the paged KV cache of a CPU/GPU pipeline is, so memory stays bounded and known in advance.

With prefix caching on, OpenVINO GenAI keeps the blocks of every finished request so that the next turn
of a conversation can reuse them; blocks are only evicted when no free block is left. A cache that grows
as needed (``cache_size=0`` and ``num_kv_blocks=0``) therefore keeps growing with every distinct
conversation. A fixed number of blocks bounds it: the KV cache then never takes more than that, whatever
the session does (pages are touched as blocks are first used, so a fresh pipeline's RSS starts low and
rises to the bound).

The size is given in blocks (``SchedulerConfig.num_kv_blocks``), not in GiB (``cache_size``): GenAI splits
a ``cache_size`` between target and draft in whole GiB with at least 1 GiB for the draft
(fast_draft_strategy.cpp), so the smallest pair got 2 GiB although the tiny test pair needs ~12 MB, and
agents sending distinct histories grew the server's RSS by ~1.2 GB over 200 requests. Blocks are exact,
and the draft gets a ``SchedulerConfig`` of its own (``draft_model(..., scheduler_config=...)``; GenAI
then uses it as given, except ``max_num_batched_tokens`` and ``dynamic_split_fuse``, taken from the
target's), so both caches hold the same number of tokens and neither is padded to a GiB.

The formula (all sizes from the models' ``config.json``):

- bytes per token of one model = 2 (K and V) x layers x KV heads x head size x bytes per element
  (4 at f32, 2 otherwise: bf16/f16, or less when the plugin quantises the cache, so 2 is an upper bound);
- a block holds ``BLOCK_TOKENS`` tokens: 32 on CPU, 16 on GPU (GenAI's kv_cache_manager.hpp);
- wanted tokens ``W`` = ``KEEP_CONTEXTS`` x the model's context (``max_position_embeddings``): room for
  the conversation at full length plus as much again for the previous prefixes, another conversation or
  a comparison, so switching back and forth still finds its prefix;
- blocks = W / block size, rounded up, but never more than ``MEMORY_FRACTION`` of the memory available
  once the weights are loaded divided by one block of both models (then fewer tokens fit), nor fewer
  than one ``MIN_TOKENS`` request;
- the tokens that fit (``capacity_tokens``) = blocks x block size, the same in target and draft; the
  context budget never plans a request longer than that, so a request is never dropped for want of cache.

RSS is then at most: weights + blocks x block size x (target + draft bytes per token) (+ the runtime's own
few hundred MB). The tiny pair (4,096-token context) on CPU: 256 blocks of 32 tokens = 8,192 tokens at
1,408 bytes per token = 11 MB (22 MB at f32), where ``cache_size=1`` meant 2 GiB; an 8B-class target with
its 1-layer draft (40,960-token context): 2,560 blocks, 11.6 GiB at bf16, or what half the available
memory holds, whichever is less.
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path

GIB = 1 << 30
KEEP_CONTEXTS = 2
MEMORY_FRACTION = 0.5
DEFAULT_CONTEXT = 4096  # for a config.json without max_position_embeddings
MIN_TOKENS = 4096  # the least the cache holds, even when memory is short (a request must fit at all)
BLOCK_TOKENS = {"CPU": 32, "GPU": 16}  # tokens per KV block by device (GenAI's kv_cache_manager.hpp)


@dataclass(frozen=True)
class KVCachePlan:
    """The ``num_kv_blocks`` to give GenAI for the target and for the draft, and what they buy."""

    num_kv_blocks: int  # per model: the target's and the draft's caches hold the same tokens
    block_tokens: int
    main_bytes_per_token: int
    draft_bytes_per_token: int  # 0 without a draft

    @property
    def capacity_tokens(self) -> int:
        """Tokens one request can hold in both caches."""
        return self.num_kv_blocks * self.block_tokens

    @property
    def bound_bytes(self) -> int:
        """The most memory the KV caches can take."""
        return self.capacity_tokens * (self.main_bytes_per_token + self.draft_bytes_per_token)


def bytes_per_token(model_dir: Path, precision: str) -> int:
    """KV-cache bytes one token costs in the model at ``model_dir`` (K and V of every layer)."""
    config = _config(model_dir)
    layers = int(config.get("num_hidden_layers") or 1)
    heads = int(config.get("num_attention_heads") or 1)
    kv_heads = int(config.get("num_key_value_heads") or heads)
    head_dim = int(config.get("head_dim") or int(config.get("hidden_size") or 64) // heads)
    element = 4 if precision == "f32" else 2
    return 2 * layers * kv_heads * head_dim * element


def block_tokens(device: str) -> int:
    """Tokens per KV block on ``device`` ("CPU", "GPU", "GPU.1", ...)."""
    return BLOCK_TOKENS.get(device.split(".")[0].upper(), BLOCK_TOKENS["CPU"])


def plan_kv_cache(
    target_dir: Path,
    draft_dir: Path | None,
    *,
    precision: str,
    context_tokens: int | None,
    available_bytes: int,
    weights_bytes: int = 0,
    device: str = "CPU",
) -> KVCachePlan:
    """The bounded cache for this pair (see the module docstring for the formula)."""
    main_bpt = bytes_per_token(target_dir, precision)
    draft_bpt = bytes_per_token(draft_dir, precision) if draft_dir is not None else 0
    block = block_tokens(device)
    wanted = KEEP_CONTEXTS * (context_tokens or DEFAULT_CONTEXT)
    allowance = max(0, int((available_bytes - weights_bytes) * MEMORY_FRACTION))
    affordable = allowance // (block * (main_bpt + draft_bpt))
    least = math.ceil(min(wanted, MIN_TOKENS) / block)
    blocks = max(least, min(math.ceil(wanted / block), affordable))
    return KVCachePlan(blocks, block, main_bpt, draft_bpt)


def scheduler_config(fields: dict[str, object]):
    """An ``openvino_genai.SchedulerConfig`` with ``fields`` (a LoadPlan's ``scheduler`` or ``draft_scheduler``)."""
    import openvino_genai as ov_genai

    config = ov_genai.SchedulerConfig()
    for name, value in fields.items():
        setattr(config, name, value)
    return config


def available_memory() -> int:
    """Bytes of memory the system could give this process now (psutil's ``available``); without psutil
    (a trimmed bundle) the free physical pages, or 4 GiB when even those are unknown."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except (ImportError, OSError):
        if sys.platform == "win32":  # no sysconf there
            return 4 * GIB
        try:
            return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, ValueError, OSError):
            return 4 * GIB


def weights_size(*folders: Path | None) -> int:
    """Bytes of the models' weight files (what loading them adds to RSS, roughly)."""
    return sum(f.stat().st_size for folder in folders if folder is not None
               for f in Path(folder).glob("*.bin") if f.name.startswith("openvino_model"))


def _config(model_dir: Path) -> dict:
    try:
        data = json.loads((Path(model_dir) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
