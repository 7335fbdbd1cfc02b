"""What OpenVINO GenAI's EAGLE-3 strategy on the NPU drafts, and the per-call settings that say so.

GenAI 2026.4.1's stateful NPU EAGLE-3 pipeline (``speculative_decoding/stateful/eagle3_strategy.cpp``,
checked on the wheel's NPU plugin with ``NPUW_DEVICES=CPU``) differs from the CPU/GPU one:

- it drafts trees only. ``tree_depth=0`` does not mean a chain: it is silently replaced by GenAI's
  defaults (branching 2, depth 4, 7 candidates), overriding ``num_assistant_tokens``;
- ``num_assistant_tokens=0`` turns the draft off for that call (plain decoding, no reload);
- a chain of K tokens is the degenerate tree ``branching_factor=1, tree_depth=K, num_assistant_tokens=K``;
- the tree is bounded by limits compiled in from the *draft's* properties (``MAX_TREE_DEPTH``,
  ``MAX_BRANCHING_FACTOR``, ``MAX_ASSISTANT_TOKENS``; see :class:`~.devices.NpuOptions`); a call beyond
  them fails inside ``generate()``;
- K above the tree's node count ``b²·(d−1)+b`` is cut to it without an error.

So every speculative call on the NPU gets an explicit tree (:func:`npu_tree`), checked against the
compiled limits here, with a sentence, before GenAI would fail. The window shows the same tree, and
auto-tune on the NPU sweeps only trees that fit (:func:`fits`).
"""

from __future__ import annotations

from dataclasses import dataclass

from eagle_chat.core.errors import UserError
from eagle_chat.core.generation.devices import NpuOptions

GENAI_DEFAULT_TREE = (4, 2, 7)  # (depth, branching, K) GenAI substitutes for tree_depth=0 on the NPU


class NpuDraftError(UserError):
    """The draft tree asked for does not fit the limits the NPU models were compiled with."""


@dataclass(frozen=True)
class DraftTree:
    """One EAGLE-3 draft tree: ``depth`` draft steps keeping ``branching`` candidates per node, then the best
    ``candidates`` nodes are verified by the target."""

    depth: int
    branching: int
    candidates: int

    @property
    def is_chain(self) -> bool:
        return self.branching == 1

    @property
    def nodes(self) -> int:
        """Nodes the tree can hold; GenAI verifies at most this many, whatever K says."""
        return self.branching * self.branching * (self.depth - 1) + self.branching

    @property
    def verified(self) -> int:
        """Candidates the target really verifies per step."""
        return min(self.candidates, self.nodes)


def npu_tree(k: int, tree_depth: int = 0, branching_factor: int = 0) -> DraftTree:
    """The tree GenAI drafts on the NPU for ``k`` assistant tokens and a tuned tree (depth 0: a chain)."""
    if tree_depth > 0:
        return DraftTree(int(tree_depth), int(branching_factor), int(k))
    return DraftTree(int(k), 1, int(k))


def limit_problem(tree: DraftTree, npu: NpuOptions) -> str | None:
    """None if ``tree`` fits the compiled limits, else why not and what to do (English; see :func:`limit_error`)."""
    error = limit_error(tree, npu)
    return None if error is None else str(error)


def limit_error(tree: DraftTree, npu: NpuOptions) -> NpuDraftError | None:
    """None if ``tree`` fits the compiled limits, else the error saying why not and what to do."""
    if tree.depth < 1 or tree.branching < 1 or tree.candidates < tree.depth:
        return NpuDraftError("A draft tree needs depth and branching of at least 1 and at least as many draft tokens "
                             "as its depth (got depth {depth}, {branching} branches, {candidates} tokens).",
                             depth=tree.depth, branching=tree.branching, candidates=tree.candidates)
    over = [(name, value, limit) for name, value, limit in (
        ("depth", tree.depth, npu.max_tree_depth),
        ("branching", tree.branching, npu.max_branching_factor),
        ("draft tokens", tree.candidates, npu.max_assistant_tokens),
    ) if value > limit]
    if not over:
        return None
    detail = ", ".join(f"{name} {value} > {limit}" for name, value, limit in over)
    return NpuDraftError("The NPU models were compiled for draft trees up to depth {max_depth}, {max_branching} "
                         "branches and {max_tokens} draft tokens ({detail}). Choose fewer draft tokens or a smaller "
                         "tree.", max_depth=npu.max_tree_depth, max_branching=npu.max_branching_factor,
                         max_tokens=npu.max_assistant_tokens, detail=detail)


def fits(tree: DraftTree, npu: NpuOptions) -> bool:
    return limit_error(tree, npu) is None


def checked_npu_tree(k: int, tree_depth: int, branching_factor: int, npu: NpuOptions) -> DraftTree:
    """:func:`npu_tree`, or NpuDraftError when it exceeds what the NPU models were compiled for."""
    tree = npu_tree(k, tree_depth, branching_factor)
    problem = limit_error(tree, npu)
    if problem is not None:
        raise problem
    return tree


def npu_call_tree(settings, speculative: bool, has_draft: bool, npu: NpuOptions) -> DraftTree | None:
    """The tree to put in one call's GenerationConfig on the NPU, or None for a call without drafting.

    ``settings`` is the engine's GenerationSettings (read: ``num_assistant_tokens``, ``tree_depth``,
    ``branching_factor``, ``max_new_tokens``). Raises NpuDraftError when the tree exceeds the compiled
    limits or the reply cannot fit the compiled KV cache (:meth:`NpuOptions.reply_limit`).
    """
    limit = npu.reply_limit(has_draft)
    if settings.max_new_tokens > limit:
        raise NpuDraftError(
            "On the NPU a reply can be at most {limit} tokens: the models are compiled for a fixed length "
            "(MIN_RESPONSE_LEN {min_response_len}). Lower Max new tokens to {limit} or less.",
            limit=limit, min_response_len=npu.min_response_len
        )
    if not speculative:
        return None  # with num_assistant_tokens=0 the draft is off for this call
    return checked_npu_tree(settings.num_assistant_tokens, settings.tree_depth, settings.branching_factor, npu)
