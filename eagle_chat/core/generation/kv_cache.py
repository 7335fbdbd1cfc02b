"""How big the paged KV cache of a CPU/GPU pipeline is, so memory stays bounded and known in advance.

With prefix caching on, OpenVINO GenAI keeps the blocks of every finished request so that the next turn
of a conversation can reuse them; blocks are only evicted when no free block is left. A cache that grows
as needed (``cache_size=0``) therefore keeps growing with every distinct conversation. A fixed
``cache_size`` bounds it: the KV cache then never takes more than that, whatever the session does (pages
are touched as blocks are first used, so a fresh pipeline's RSS starts low and rises to the bound).

The formula (all sizes from the models' ``config.json``):

- bytes per token of one model = 2 (K and V) x layers x KV heads x head size x bytes per element
  (4 at f32, 2 otherwise: bf16/f16, or less when the plugin quantises the cache, so 2 is an upper bound);
- wanted tokens ``W`` = ``KEEP_CONTEXTS`` x the model's context (``max_position_embeddings``): room for
  the conversation at full length plus as much again for the previous prefixes, another conversation or
  a comparison, so switching back and forth still finds its prefix;
- ``cache_size`` is in whole GiB and GenAI splits it (fast_draft_strategy.cpp, when the draft has no
  scheduler config of its own): main = ceil(cache_size x (1 - k)), draft = the rest, with
  k = draft bytes per token / (main + draft); a draft share of 0 becomes 1 GiB, taken from main only when
  main > 1. So the draft always gets at least 1 GiB, and ``cache_size=1`` is 2 GiB in all;
- the smallest ``cache_size`` whose split holds ``W`` tokens in both models is chosen, but never more
  than ``MEMORY_FRACTION`` of the memory available once the weights are loaded (then fewer tokens fit);
- the tokens that fit (``capacity_tokens``) = min over the two models of GiB share / bytes per token; the
  context budget never plans a request longer than that, so a request is never dropped for want of cache.

RSS is then at most: weights + main GiB + draft GiB (+ the runtime's own few hundred MB).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

GIB = 1 << 30
KEEP_CONTEXTS = 2
MEMORY_FRACTION = 0.5
DEFAULT_CONTEXT = 4096  # for a config.json without max_position_embeddings


@dataclass(frozen=True)
class KVCachePlan:
    """The ``cache_size`` to give GenAI and what it buys."""

    cache_size_gb: int
    main_gb: int
    draft_gb: int  # 0 without a draft
    capacity_tokens: int  # tokens one request can hold in both caches
    main_bytes_per_token: int
    draft_bytes_per_token: int

    @property
    def bound_bytes(self) -> int:
        """The most memory the KV caches can take."""
        return (self.main_gb + self.draft_gb) * GIB


def bytes_per_token(model_dir: Path, precision: str) -> int:
    """KV-cache bytes one token costs in the model at ``model_dir`` (K and V of every layer)."""
    config = _config(model_dir)
    layers = int(config.get("num_hidden_layers") or 1)
    heads = int(config.get("num_attention_heads") or 1)
    kv_heads = int(config.get("num_key_value_heads") or heads)
    head_dim = int(config.get("head_dim") or int(config.get("hidden_size") or 64) // heads)
    element = 4 if precision == "f32" else 2
    return 2 * layers * kv_heads * head_dim * element


def genai_split(cache_size_gb: int, main_bpt: int, draft_bpt: int) -> tuple[int, int]:
    """How GenAI divides ``cache_size`` between target and draft (fast_draft_strategy.cpp:97-110)."""
    if not draft_bpt:
        return cache_size_gb, 0
    k = draft_bpt / (main_bpt + draft_bpt)
    main = math.ceil(cache_size_gb * (1 - k))
    draft = cache_size_gb - main
    if draft == 0:
        draft = 1
        if main > 1:
            main -= 1
    return main, draft


def plan_kv_cache(
    target_dir: Path,
    draft_dir: Path | None,
    *,
    precision: str,
    context_tokens: int | None,
    available_bytes: int,
    weights_bytes: int = 0,
) -> KVCachePlan:
    """The bounded cache for this pair (see the module docstring for the formula)."""
    main_bpt = bytes_per_token(target_dir, precision)
    draft_bpt = bytes_per_token(draft_dir, precision) if draft_dir is not None else 0
    wanted = KEEP_CONTEXTS * (context_tokens or DEFAULT_CONTEXT)
    allowance = max(0, int((available_bytes - weights_bytes) * MEMORY_FRACTION))
    size = 1
    while True:
        main, draft = genai_split(size, main_bpt, draft_bpt)
        holds = _capacity(main, draft, main_bpt, draft_bpt)
        bigger = genai_split(size + 1, main_bpt, draft_bpt)
        if holds >= wanted or sum(bigger) * GIB > allowance:
            break
        size += 1
    return KVCachePlan(size, main, draft, holds, main_bpt, draft_bpt)


def available_memory() -> int:
    """Bytes of memory the system could give this process now (psutil's ``available``); without psutil
    (a trimmed bundle) the free physical pages, or 4 GiB when even those are unknown."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except (ImportError, OSError):
        try:
            return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, ValueError, OSError):
            return 4 * GIB


def weights_size(*folders: Path | None) -> int:
    """Bytes of the models' weight files (what loading them adds to RSS, roughly)."""
    return sum(f.stat().st_size for folder in folders if folder is not None
               for f in Path(folder).glob("*.bin") if f.name.startswith("openvino_model"))


def _capacity(main_gb: int, draft_gb: int, main_bpt: int, draft_bpt: int) -> int:
    tokens = main_gb * GIB // main_bpt
    if draft_bpt:
        tokens = min(tokens, draft_gb * GIB // draft_bpt)
    return int(tokens)


def _config(model_dir: Path) -> dict:
    try:
        data = json.loads((Path(model_dir) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
