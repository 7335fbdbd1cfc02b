"""The tuned K (and draft tree) per model, draft and device: one place for the lookup and the save.

Auto-tune (the dialog, or ``eagle-chat bench --tune``) stores its choice in two settings maps keyed by
:func:`tune_key`; the window and the bench read it back through :func:`tuned_choice`. Settings are passed
in duck-typed (anything with ``tuned_k: dict[str, int]`` and ``tuned_tree: dict[str, str]``) so the core
does not depend on the settings module.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

MIN_K, MAX_K = 3, 7  # the slider's range: what the UI offers and a tuned K is clamped to


@dataclass(frozen=True)
class TunedChoice:
    k: int | None  # None: never tuned for this pair and device
    tree_depth: int = 0  # 0: a chain, no tree
    branching_factor: int = 0

    def tree_for(self, k: int) -> tuple[int, int]:
        """(depth, branching) to draft with ``k`` assistant tokens: a tree deeper than the drafted tokens
        cannot be verified, so then a chain (0, 0)."""
        return (self.tree_depth, self.branching_factor) if 0 < self.tree_depth <= k else (0, 0)

    @property
    def tree(self) -> str:
        """``"DEPTHxBRANCHING"``, or ``""`` for a chain."""
        return f"{self.tree_depth}x{self.branching_factor}" if self.tree_depth else ""


@functools.lru_cache(maxsize=64)
def tune_key(target_dir: str | Path, draft_dir: str | Path, device: str) -> str:
    """The key auto-tune results are stored under: resolved folders and the device. Cached: resolving two
    folders is ~0.5 ms of system calls, and the window asks at every send and every reply's end."""
    return f"{Path(target_dir).resolve()}|{Path(draft_dir).resolve()}|{device.upper()}"


def clamp_k(k: int) -> int:
    return min(max(int(k), MIN_K), MAX_K)


def parse_tree(text: str) -> tuple[int, int]:
    """``"3x2"`` → (3, 2); anything unreadable → (0, 0), a chain."""
    try:
        depth, branching = (int(v) for v in text.split("x"))
    except ValueError:
        return 0, 0
    return (depth, branching) if depth > 0 and branching > 0 else (0, 0)


def tuned_choice(settings, target_dir: str | Path, draft_dir: str | Path | None, device: str) -> TunedChoice:
    """What auto-tune chose for this pair on ``device``; ``TunedChoice(None)`` without a draft or a tuning."""
    if draft_dir is None:
        return TunedChoice(None)
    key = tune_key(target_dir, draft_dir, device)
    depth, branching = parse_tree(settings.tuned_tree.get(key, ""))
    return TunedChoice(settings.tuned_k.get(key), depth, branching)


def remember_tuned(settings, target_dir: str | Path, draft_dir: str | Path, device: str, k: int,
                   tree: str | None = None) -> None:
    """Store a tuning result; it replaces any earlier one for this pair and device (a chain clears a tree)."""
    key = tune_key(target_dir, draft_dir, device)
    settings.tuned_k[key] = int(k)
    if tree:
        settings.tuned_tree[key] = tree
    else:
        settings.tuned_tree.pop(key, None)


def start_k(settings, registry, target_dir: str | Path, draft_dir: str | Path | None, device: str) -> int | None:
    """The K a freshly loaded pair starts at: auto-tune's choice, else the catalog's for a registered pair on
    this device, else None (keep the slider where it is)."""
    tuned = tuned_choice(settings, target_dir, draft_dir, device).k
    if tuned is not None or draft_dir is None:
        return tuned
    pair = registry.find(target_dir, draft_dir)
    return pair.start_k.get(device) if pair is not None else None
