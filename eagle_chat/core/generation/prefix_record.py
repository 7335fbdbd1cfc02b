"""What a prompt found in the KV cache: the prompt tokens prefix caching served, as a client is told.

GenAI 2026.4.1 does not report prefix-cache hits (PR #4374's ``num_prefix_cache_hit_tokens`` is not in it), so
the engine keeps, per pipeline, the ids of the last prompt it ran and reports for the next one the prefix the
two share, rounded down to whole KV blocks (GenAI hashes and reuses whole blocks only: 32 tokens on CPU, 16
on GPU; see ``kv_cache``) and never the prompt's last token (it is always computed again). That errs low:
blocks of earlier prompts still in the cache, and a previous reply's tokens, are not counted. With an EAGLE-3
draft a prompt's blocks are reused only once a drafting step ran on it (``prefill``), so a prompt whose
reply generated no more than K tokens is not recorded. No prefix caching (NPU, or switched off): 0.

The same record carries the next-turn prefill's count (:class:`prefill.Prefilled`): how many of this prompt's
first tokens were run ahead of time (``GenerationStats.prefilled_tokens``, the ``eagle_chat`` object's
``prefilled_tokens``); ``GenerationStats.cached_tokens`` is the API's ``usage.prompt_tokens_details.
cached_tokens`` (and the Responses API's ``input_tokens_details.cached_tokens``).
"""

from __future__ import annotations

from collections.abc import Sequence

from eagle_chat.core.generation.kv_cache import block_tokens
from eagle_chat.core.generation.prefill import Prefilled


def shared_blocks(previous: Sequence[int], ids: Sequence[int], block: int) -> int:
    """The tokens of ``ids`` in whole blocks that ``previous`` starts with too (its last token excluded)."""
    if block <= 0:
        return 0
    limit = min(len(previous), len(ids) - 1)
    same = 0
    while same < limit and previous[same] == ids[same]:
        same += 1
    return same // block * block


class PrefixRecord:
    """Per pipeline (``key``), the last prompt recorded; ``block``: tokens per KV block (0: no prefix cache)."""

    def __init__(self, block: int):
        self.block = block
        self._last: dict[int, list[int]] = {}
        self._prefilled = Prefilled()  # the next-turn prefill's prompt, until the request after it

    @classmethod
    def of(cls, scheduler: dict | None, device: str) -> "PrefixRecord":
        """The record for a pipeline loaded with ``scheduler`` (its SchedulerConfig fields; None: NPU) on ``device``."""
        caching = bool(scheduler and scheduler.get("enable_prefix_caching"))
        return cls(block_tokens(device) if caching else 0)

    def note(self, key: object, ids: Sequence[int] | None, next_turn: bool, stats) -> None:
        """After a run on pipeline ``key`` with prompt ``ids`` (None: not known as ids): set ``stats``'
        ``cached_tokens`` and ``prefilled_tokens``, then record the prompt for the next run."""
        prompt = [int(i) for i in ids] if ids is not None else None
        stats.prefilled_tokens = self._prefilled.after(prompt if prompt is not None else [], next_turn)
        previous = self._last.get(id(key))
        stats.cached_tokens = shared_blocks(previous, prompt, self.block) if previous and prompt else 0
        drafted = stats.mode != "speculative" or stats.generated_tokens > stats.num_assistant_tokens
        if prompt is not None and drafted:
            self._last[id(key)] = prompt
        elif prompt is None:
            self._last.pop(id(key), None)
