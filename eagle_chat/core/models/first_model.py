"""Which real model to offer someone who has only the bundled toy pair: one catalog pair, its download
size, and the device of this machine it suits.

The smallest pair wins (a first download should be quick and fit an 8 GB laptop), preferring one this
EagleChat can fetch and whose repositories were checked; the device is the best present one the pair has a
build for (a GPU before the CPU; the NPU only for a pair with an NPU build).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from eagle_chat.core.models.catalog import Catalog, CatalogEntry

DEVICE_PREFERENCE = ("GPU", "CPU", "NPU")


@dataclass(frozen=True)
class FirstModel:
    entry: CatalogEntry
    device: str
    approx_bytes: int


def suggest_first_model(catalog: Catalog, present: Iterable[str],
                        problem: Callable[[CatalogEntry], str | None] = lambda _entry: None) -> FirstModel | None:
    """The pair to offer on ``present`` devices (kinds: "CPU", "GPU", "NPU"); ``problem`` says why an entry
    cannot be pulled here (None: it can). None when no entry suits any present device."""
    present = set(present)
    ranked = []
    for entry in catalog.entries:
        device = next((d for d in DEVICE_PREFERENCE if d in present and d in entry.devices()), None)
        if device is None:
            continue
        size = entry.variant(device).approx_bytes
        ranked.append(((problem(entry) is not None, bool(entry.unverified), size), FirstModel(entry, device, size)))
    return min(ranked, key=lambda item: item[0])[1] if ranked else None
