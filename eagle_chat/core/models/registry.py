"""The registered model pairs: the one list the app, the CLI and the Get models dialog all read.

A pair is a target folder plus an EAGLE-3 draft folder that passed validation (and, for pulled pairs, a
test load). The registry is a JSON file in the data folder, re-read on every call so that a pair added by
``eagle-chat models pull`` in a terminal shows up in a running app, and written atomically (a crash
mid-write leaves the old file). Only complete, verified pairs are ever added: downloads in progress live in
the staging folder and are not pairs.

``owned`` marks pairs whose files the app downloaded itself; removing such a pair may delete its files
without asking. Files of imported pairs belong to the user: callers must ask before passing
``delete_files=True`` for them.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.core.files import move_aside, move_aside_for_deletion, write_json_atomic

REGISTRY_VERSION = 1
BUNDLED_PAIR_NAME = "tiny-bundled"


class RegistryError(UserError):
    """A registry change cannot be made; the message says why."""


@dataclass(frozen=True)
class ModelPair:
    """A usable target + EAGLE-3 draft, by folder."""

    name: str
    target_dir: str
    draft_dir: str
    source: str = "import"  # e.g. "hf:OpenVINO/Qwen3-8B-int4-ov", "modelscope:…", "import"
    draft_source: str = ""  # e.g. "hf:AngelSlim/Qwen3-8B_eagle3"
    owned: bool = False  # the app downloaded these files, so removing may delete them without asking
    device: str = "CPU"  # the device this build is meant for (NPU builds differ)
    start_k: dict[str, int] = field(default_factory=dict)  # draft tokens per step to start from, per device
    added: str = ""  # ISO timestamp
    bundled: bool = False  # the tiny pair shipped with the app; never stored in the registry file

    @property
    def target_path(self) -> Path:
        return Path(self.target_dir)

    @property
    def draft_path(self) -> Path:
        return Path(self.draft_dir)

    def k_for(self, device: str, default: int = 3) -> int:
        return int(self.start_k.get(device.upper(), default))

    def to_json(self) -> dict:
        data = asdict(self)
        data.pop("bundled")
        return data

    @classmethod
    def from_json(cls, data: dict) -> "ModelPair":
        known = {f.name for f in fields(cls)} - {"bundled"}
        values = {k: v for k, v in data.items() if k in known}
        pair = cls(**values)
        if not isinstance(pair.name, str) or not isinstance(pair.target_dir, str) or not isinstance(
            pair.draft_dir, str
        ):
            raise TypeError("name, target_dir and draft_dir must be strings")
        return pair


@dataclass
class RemoveResult:
    pair: ModelPair
    deleted: list[Path] = field(default_factory=list)
    kept: list[tuple[Path, str]] = field(default_factory=list)  # (folder, why it was kept)


def bundled_pair() -> ModelPair | None:
    """The tiny pair shipped with EagleChat (toy quality), or None if it is missing from this install."""
    try:
        target, draft = paths.tiny_target_dir(), paths.tiny_draft_dir()
    except FileNotFoundError:
        return None
    return ModelPair(
        name=BUNDLED_PAIR_NAME,
        target_dir=str(target),
        draft_dir=str(draft),
        source="bundled",
        device="CPU",
        start_k={"CPU": 3, "GPU": 3, "NPU": 3},
        bundled=True,
    )


def validate_name(name: str) -> str:
    name = name.strip()
    if not name or name.startswith(".") or any(c in name for c in "/\\:") or len(name) > 80:
        raise RegistryError(
            "{name!r} cannot be a model name: use up to 80 characters without slashes or colons, not starting with a "
            "dot.", name=name
        )
    if name == BUNDLED_PAIR_NAME:
        raise RegistryError("{name!r} is reserved for the bundled tiny models; choose another name.", name=name)
    return name


class ModelRegistry:
    """The registered pairs, persisted as JSON at ``path`` (default: ``paths.registry_file()``)."""

    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path is not None else paths.registry_file()
        self.notice: str | None = None  # set when a damaged file had to be set aside

    def pairs(self) -> list[ModelPair]:
        """All registered pairs, in the order they were added."""
        return self._load()

    def names(self) -> list[str]:
        return [p.name for p in self._load()]

    def get(self, name: str) -> ModelPair:
        for pair in self._load():
            if pair.name == name:
                return pair
        raise RegistryError(
            "No model named {name!r} is registered. Registered: {registered} (see `eagle-chat models list`).",
            name=name, registered=", ".join(self.names()) or "none",
        )

    def find(self, target_dir: str | Path, draft_dir: str | Path) -> ModelPair | None:
        """The registered pair using exactly these folders (how saved settings map back to a name)."""
        target, draft = _norm(target_dir), _norm(draft_dir)
        for pair in self._load():
            if _norm(pair.target_dir) == target and _norm(pair.draft_dir) == draft:
                return pair
        return None

    def add(self, pair: ModelPair, *, replace: bool = False) -> ModelPair:
        """Register ``pair`` (folders stored as absolute paths). Raises RegistryError on a name clash."""
        name = validate_name(pair.name)
        pair = _with(
            pair,
            name=name,
            target_dir=str(Path(pair.target_dir).expanduser().resolve()),
            draft_dir=str(Path(pair.draft_dir).expanduser().resolve()),
            added=pair.added or time.strftime("%Y-%m-%dT%H:%M:%S"),
            bundled=False,
        )
        current = self._load()
        if any(p.name == name for p in current):
            if not replace:
                raise RegistryError(
                    "A model named {name!r} is already registered. Choose another name (--name) or remove it first "
                    "with `eagle-chat models remove {name}`.", name=name
                )
            current = [p for p in current if p.name != name]
        current.append(pair)
        self._save(current)
        return pair

    def remove(self, name: str, delete_files: bool) -> RemoveResult:
        """Unregister ``name``; with ``delete_files``, also delete its target and draft folders.

        Folders still used by another registered pair, and folders outside any model folder the app
        could safely own (the file system root, a home folder), are kept and reported in the result.
        """
        current = self._load()
        pair = next((p for p in current if p.name == name), None)
        if pair is None:
            raise RegistryError("No model named {name!r} is registered, so there is nothing to remove.", name=name)
        remaining = [p for p in current if p.name != name]
        result = RemoveResult(pair)
        if not delete_files:
            self._save(remaining)
            return result
        # Delete in an order that cannot leave a half-deleted model registered or a registered one
        # half-deleted: first move each folder aside in one rename — Windows refuses that while a file in it
        # is open (a loaded model's memory-mapped .bin), and then nothing has changed yet —, then unregister,
        # then delete what was moved aside.
        in_use = {_norm(d) for p in remaining for d in (p.target_dir, p.draft_dir)}
        moved: list[tuple[Path, Path]] = []
        for folder in (Path(pair.target_dir), Path(pair.draft_dir)):
            reason = _unsafe_to_delete(folder, in_use)
            if reason:
                result.kept.append((folder, reason))
            elif folder.exists():
                try:
                    moved.append((folder, move_aside_for_deletion(folder)))
                except OSError as error:
                    for original, aside in reversed(moved):
                        os.replace(aside, original)
                    raise RegistryError(
                        "{name} was not removed: {folder} cannot be deleted now ({error}). A program may have "
                        "a file in it open — on Windows, a loaded model: unload it or close EagleChat, then "
                        "try again.", name=name, folder=str(folder), error=error.strerror or str(error),
                    ) from error
        self._save(remaining)
        for folder, aside in moved:
            shutil.rmtree(aside, ignore_errors=True)
            if aside.exists():
                result.kept.append((aside, "it could not be deleted completely; delete it by hand"))
            else:
                result.deleted.append(folder)
        if pair.owned:
            _remove_empty_parents(pair, paths.models_dir())
        return result

    # -- persistence -------------------------------------------------------------------------------

    def _load(self) -> list[ModelPair]:
        if not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("pairs"), list):
                raise ValueError("not a registry (no 'pairs' list)")
            return [ModelPair.from_json(item) for item in data["pairs"]]
        except (ValueError, TypeError, OSError) as error:
            backup = move_aside(self.path)
            where = f" It was kept as {backup}." if backup else ""
            self.notice = (
                f"The list of registered models could not be read ({error}); it starts empty.{where} "
                "Model files were not touched: add them again with `eagle-chat models import`."
            )
            return []

    def _save(self, pairs: list[ModelPair]) -> None:
        write_json_atomic(self.path, {"version": REGISTRY_VERSION, "pairs": [p.to_json() for p in pairs]})


def _with(pair: ModelPair, **changes) -> ModelPair:
    data = asdict(pair)
    data.update(changes)
    return ModelPair(**data)


def _norm(path: str | Path) -> str:
    return os.path.normcase(str(Path(path).expanduser().resolve()))


def _unsafe_to_delete(folder: Path, in_use: set[str]) -> str | None:
    resolved = folder.expanduser().resolve()
    if _norm(resolved) in in_use:
        return "another registered model uses it"
    if resolved == Path(resolved.anchor) or resolved == Path.home().resolve() or len(resolved.parts) < 3:
        return "it is not a model folder"
    for pair_dir in in_use:  # a folder holding another pair's folder
        if Path(pair_dir).is_relative_to(resolved):
            return "it contains another registered model"
    return None


def _remove_empty_parents(pair: ModelPair, models_root: Path) -> None:
    """Drop the pair's own folder under the models folder once its target and draft are gone."""
    root = models_root.resolve()
    for folder in {Path(pair.target_dir).parent, Path(pair.draft_dir).parent}:
        folder = folder.resolve()
        if folder != root and folder.is_relative_to(root) and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
