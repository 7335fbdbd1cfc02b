"""The registered document models: embedding models and rerankers that ``eagle-chat docs`` can use by name.

Pulled from the catalog (``eagle-chat models pull NAME``) they land under the models folder like the chat
pairs, and are written here with what running them needs and a folder cannot tell: the embedder's pooling,
its longest input, the instruction put before queries. A JSON file in the data folder, re-read on every call
and written atomically, as the pair registry is; kept apart from it so that nothing that lists chat models
(the model menu, the Get models dialog, ``serve``) ever sees an embedder.

:func:`resolve` turns what a user typed (a registered name, a catalog name, a folder) into a
:class:`DocumentModel`.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.core.files import move_aside, write_json_atomic
from eagle_chat.core.models.catalog import (
    DOCUMENT_KINDS,
    POOLINGS,
    Catalog,
    load_catalog,
)

DOCUMENT_MODELS_VERSION = 1


class DocumentModelError(UserError):
    """A document model cannot be found or registered; the message says what to do."""


@dataclass(frozen=True)
class DocumentModel:
    name: str
    kind: str  # "embedding" or "reranker"
    model_dir: str
    source: str = "folder"  # "hf:OpenVINO/…", "modelscope:…", "folder", "bundled"
    pooling: str = "mean"
    max_length: int = 512
    query_instruction: str = ""
    owned: bool = False  # downloaded by EagleChat: removing it deletes its folder
    added: str = ""

    @property
    def path(self) -> Path:
        return Path(self.model_dir)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> DocumentModel:
        known = {f.name for f in fields(cls)}
        model = cls(**{k: v for k, v in data.items() if k in known})
        if model.kind not in DOCUMENT_KINDS or model.pooling not in POOLINGS or not isinstance(model.model_dir, str):
            raise TypeError(f"not a document model: {data!r}")
        return model


def bundled(kind: str) -> DocumentModel:
    """The tiny embedder or reranker shipped with EagleChat (random weights: plumbing, not quality)."""
    folder = paths.tiny_embedder_dir() if kind == "embedding" else paths.tiny_reranker_dir()
    return DocumentModel(name=folder.name, kind=kind, model_dir=str(folder), source="bundled")


class DocumentModelRegistry:
    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path is not None else paths.document_models_file()
        self.notice: str | None = None

    def models(self, kind: str | None = None) -> list[DocumentModel]:
        return [m for m in self._load() if kind is None or m.kind == kind]

    def get(self, name: str, kind: str | None = None) -> DocumentModel | None:
        return next((m for m in self.models(kind) if m.name == name), None)

    def find_dir(self, folder: str | Path, kind: str | None = None) -> DocumentModel | None:
        wanted = _norm(folder)
        return next((m for m in self.models(kind) if _norm(m.model_dir) == wanted), None)

    def add(self, model: DocumentModel) -> DocumentModel:
        model = replace(model, model_dir=str(Path(model.model_dir).expanduser().resolve()),
                        added=model.added or time.strftime("%Y-%m-%dT%H:%M:%S"))
        current = [m for m in self._load() if m.name != model.name]
        self._save(current + [model])
        return model

    def remove(self, name: str) -> DocumentModel | None:
        current = self._load()
        found = next((m for m in current if m.name == name), None)
        if found is not None:
            self._save([m for m in current if m.name != name])
        return found

    def _load(self) -> list[DocumentModel]:
        if not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("models"), list):
                raise ValueError("no 'models' list")
            return [DocumentModel.from_json(item) for item in data["models"]]
        except (ValueError, TypeError, OSError) as error:
            backup = move_aside(self.path)
            self.notice = (f"The list of document models could not be read ({error}); it starts empty."
                           + (f" It was kept as {backup}." if backup else ""))
            return []

    def _save(self, models: list[DocumentModel]) -> None:
        write_json_atomic(self.path, {"version": DOCUMENT_MODELS_VERSION, "models": [m.to_json() for m in models]})


def resolve(choice: str | os.PathLike | None, kind: str, *, registry: DocumentModelRegistry | None = None,
            catalog: Catalog | None = None) -> DocumentModel:
    """What ``choice`` names: a registered model, else an existing folder (with the settings it was registered
    with, if it was), else a catalog entry not yet pulled (refused with the command that pulls it). None: the
    bundled tiny model."""
    registry = registry or DocumentModelRegistry()
    if choice is None or str(choice) == "":
        return bundled(kind)
    text = str(choice)
    found = registry.get(text, kind)
    if found is not None:
        if not found.path.is_dir():
            raise DocumentModelError("The model {name} is registered but its folder {path} is gone; pull it again "
                                     "with `eagle-chat models pull {name}`.", name=text, path=found.model_dir)
        return found
    folder = Path(text).expanduser()
    if folder.is_dir():
        known = registry.find_dir(folder, kind)
        if known is not None:
            return known
        if _norm(folder) == _norm(bundled(kind).model_dir):
            return bundled(kind)
        return DocumentModel(name=folder.resolve().name, kind=kind, model_dir=str(folder.resolve()))
    entry = (catalog or load_catalog()).document_model(text)
    if entry is not None and entry.kind == kind:
        raise DocumentModelError("The model {name} is not downloaded yet: `eagle-chat models pull {name}` gets it.",
                                 name=text)
    if entry is not None:
        raise DocumentModelError("{name} is a model of kind {other}; a model of kind {kind} is needed here.",
                                 name=text, other=entry.kind, kind=kind)
    names = [m.name for m in registry.models(kind)] + [
        e.name for e in (catalog or load_catalog()).document_models if e.kind == kind]
    raise DocumentModelError("There is no model of kind {kind} or folder called {name}. Known: {known}.",
                             kind=kind, name=text, known=", ".join(dict.fromkeys(names)) or "none")


def _norm(path: str | Path) -> str:
    return os.path.normcase(str(Path(path).expanduser().resolve()))
