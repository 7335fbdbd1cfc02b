"""Can the loaded pair show an EAGLE-3 speed-up on this machine? What is known, and where it came from.

- **Known without measuring** for the bundled tiny pair: at 1M parameters a forward pass is so cheap that
  per-call overhead dominates, and verifying K tokens costs about what generating them does (measured here:
  ×0.90 against its own 0-draft baseline at default precision). Also known for a target without a draft.
- **Learned** for any other pair from the last measurement on this device and precision: a comparison's
  median speed-up, or auto-tune's best — the quick probe is that short tune, or simply the first comparison.
  Kept in the settings (``measured_speedup``, duck-typed like :mod:`tuning`), keyed like the tuned K plus the
  precision.
- A speed-up under :data:`SHOWABLE_SPEEDUP` (×1.2) is not something to show on stage: on a busy laptop the
  noise between rehearsal and talk can erase it. Below it the compare view offers the speed-demo pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from eagle_chat.core.measure.tuning import tune_key

SHOWABLE_SPEEDUP = 1.2

OutlookKind = Literal["too-small", "no-draft", "measured-low", "measured-ok", "unknown"]


@dataclass(frozen=True)
class Outlook:
    kind: OutlookKind
    speedup: float | None = None  # the measured ratio, when there is one
    is_speed_demo: bool = False  # the loaded pair is the speed-demo pair itself

    @property
    def offer_speed_demo(self) -> bool:
        """Offer the speed-demo pair instead: this pair cannot show a speed-up here (and is not it)."""
        return not self.is_speed_demo and self.kind in ("too-small", "no-draft", "measured-low")


def speedup_key(target_dir: str | Path, draft_dir: str | Path, device: str, precision: str) -> str:
    return f"{tune_key(target_dir, draft_dir, device)}|{precision}"


def remember_speedup(settings, target_dir, draft_dir, device: str, precision: str, speedup: float) -> None:
    """Keep the latest measured speed-up for this pair, device and precision (it replaces older ones)."""
    if draft_dir is not None and speedup > 0:
        settings.measured_speedup[speedup_key(target_dir, draft_dir, device, precision)] = round(float(speedup), 3)


def outlook(settings, target_dir, draft_dir, device: str, precision: str, *, bundled: bool,
            is_speed_demo: bool = False) -> Outlook:
    """What is known about this pair's speed-up here (see the module docstring for the rules)."""
    if draft_dir is None:
        return Outlook("no-draft", is_speed_demo=is_speed_demo)
    if bundled:
        return Outlook("too-small", is_speed_demo=is_speed_demo)
    measured = settings.measured_speedup.get(speedup_key(target_dir, draft_dir, device, precision))
    if measured is None:
        return Outlook("unknown", is_speed_demo=is_speed_demo)
    kind: OutlookKind = "measured-ok" if measured >= SHOWABLE_SPEEDUP else "measured-low"
    return Outlook(kind, measured, is_speed_demo)
