"""Which model pair to load: a :class:`ModelChoice`, and the one the app opens on."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.models.registry import ModelPair


@dataclass
class ModelChoice:
    """Which folders to load; ``bundled`` marks the tiny pair shipped with the app, ``name`` a registered
    pair."""

    target_dir: Path
    draft_dir: Path | None
    bundled: bool = False
    name: str | None = None

    @classmethod
    def for_folders(cls, target_dir: Path, draft_dir: Path | None) -> "ModelChoice":
        """Folders the user chose or saved; recognises the bundled pair by its location."""
        try:
            bundled = target_dir.resolve() == paths.tiny_target_dir().resolve()
        except FileNotFoundError:
            bundled = False
        return cls(target_dir, draft_dir, bundled=bundled)

    @classmethod
    def for_pair(cls, pair: ModelPair) -> "ModelChoice":
        return cls(pair.target_path, pair.draft_path, name=pair.name)


def initial_choice(target_dir: str | None, draft_dir: str | None, registry) -> tuple[ModelChoice, str | None]:
    """The folders to load, and a notice if the bundled pair had to be used but is missing.

    In order: the folders saved in the settings (or given with --model/--draft); else the most recently
    registered pair (so `eagle-chat models import …` then `eagle-chat` opens on it); else the bundled
    tiny pair. The app still opens when none can be found, and the user can choose folders.
    """
    if target_dir:
        draft = Path(draft_dir) if draft_dir else None
        return ModelChoice.for_folders(Path(target_dir), draft), None
    pairs = registry.pairs()
    if pairs:
        return ModelChoice.for_pair(pairs[-1]), None
    try:
        return ModelChoice(paths.tiny_target_dir(), paths.tiny_draft_dir(), bundled=True), None
    except FileNotFoundError as error:
        missing = Path(paths.TINY_TARGET_NAME)
        return ModelChoice(missing, None, bundled=True), f"{error} Choose model folders under Models."
