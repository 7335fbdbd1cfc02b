"""The catalog of known target + EAGLE-3 draft pairs: a data file, not code.

The built-in list is ``resources/catalog.json``; a user's own entries live in ``paths.user_catalog_file()``
(same layout) and replace built-in entries of the same name. A broken user file never hides the built-in
catalog: its problems are collected as sentences in :attr:`Catalog.problems` for the UI to show.

An entry names the repositories per source (``hf``, ``modelscope``), the approximate download sizes, an
optional NPU build of the target (OpenVINO's channel-wise int4 models), the draft export settings, and the
number of draft tokens per step (K) to start from on each device.

A repository is Hugging Face format (``"format": "hf"``, the default for a draft: the EAGLE-3 head as
trained, exported to OpenVINO IR after the download, which needs optimum-intel and PyTorch) or OpenVINO IR
(``"format": "openvino"``, the only format for a target: downloaded, verified and registered as it is,
so it works in the frozen bundle too). Every entry says why its repositories are believed to be what
they claim (``evidence``) and, when they were not seen to exist or the pair was never tried,
``unverified`` says so; the UI shows both.

A ``kind`` other than ``"chat"`` (the default: a pair, in :attr:`Catalog.entries`) is a document model —
``"embedding"`` or ``"reranker"``, in :attr:`Catalog.document_models`: one OpenVINO IR repository
(``"model"``), the embedder's pooling, its longest input and an optional query instruction; pulled by the same
code, registered in :mod:`eagle_chat.core.models.document_models`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.device_kinds import DEVICE_KINDS
from eagle_chat.core.errors import UserError

CATALOG_VERSION = 1
SOURCES = ("hf", "modelscope")
SOURCE_LABELS = {"hf": "Hugging Face", "modelscope": "ModelScope"}
DEFAULT_REVISIONS = {"hf": "main", "modelscope": "master"}
DEFAULT_START_K = 3
FORMATS = ("hf", "openvino")  # Hugging Face format (needs an export) or OpenVINO IR (ready to run)
KINDS = ("chat", "embedding", "reranker")
DOCUMENT_KINDS = ("embedding", "reranker")
POOLINGS = ("mean", "cls", "last")


class CatalogError(UserError):
    """A catalog entry cannot be used as asked; the message says why and what to do instead."""


@dataclass(frozen=True)
class ExportOptions:
    """Weight compression for ``optimum-cli export openvino`` of an EAGLE-3 head.

    The defaults are the documented settings: int4, group size 128, ratio 1.0 for CPU/GPU; for NPU
    symmetric channel-wise int8 (``--weight-format int8 --sym --group-size -1``).
    """

    weight_format: str = "int4"
    group_size: int | None = 128
    ratio: float | None = 1.0
    sym: bool = False

    def cli_args(self) -> list[str]:
        args = ["--weight-format", self.weight_format]
        if self.sym:
            args.append("--sym")
        if self.group_size is not None and self.weight_format.startswith(("int4", "int8")):
            args += ["--group-size", str(self.group_size)]
        if self.ratio is not None and self.weight_format.startswith("int4"):
            args += ["--ratio", f"{self.ratio:g}"]
        return args

    @classmethod
    def from_json(cls, data: dict, where: str) -> "ExportOptions":
        if not isinstance(data, dict):
            raise CatalogError("{where}: 'export' settings must be a JSON object.", where=where)
        known = {"weight_format", "group_size", "ratio", "sym"}
        unknown = set(data) - known
        if unknown:
            raise CatalogError("{where}: unknown export settings {unknown}; use {known}.",
                               where=where, unknown=sorted(unknown), known=sorted(known))
        formats = ("fp32", "fp16", "int8", "int4", "mxfp4", "nf4")
        weight_format = str(data.get("weight_format", "int4"))
        if weight_format not in formats:
            raise CatalogError("{where}: weight_format must be one of {formats}.", where=where,
                               formats=", ".join(formats))
        return cls(
            weight_format=weight_format,
            group_size=None if data.get("group_size") is None else int(data["group_size"]),
            ratio=None if data.get("ratio") is None else float(data["ratio"]),
            sym=bool(data.get("sym", False)),
        )


DEFAULT_EXPORT = ExportOptions()
NPU_EXPORT = ExportOptions(weight_format="int8", group_size=-1, ratio=None, sym=True)


@dataclass(frozen=True)
class RepoRef:
    """One model repository, named per source, with its approximate download size."""

    ids: dict[str, str]
    approx_bytes: int = 0
    revisions: dict[str, str] = field(default_factory=dict)
    format: str = "openvino"  # "hf": an EAGLE-3 head in Hugging Face format, exported after the download

    @property
    def is_ir(self) -> bool:
        return self.format == "openvino"

    def repo_id(self, source: str) -> str | None:
        return self.ids.get(source)

    def revision(self, source: str) -> str:
        return self.revisions.get(source) or DEFAULT_REVISIONS[source]


@dataclass(frozen=True)
class Variant:
    """What to fetch for one entry on one device: the concrete plan for ``models pull``."""

    entry: "CatalogEntry"
    device: str
    pair_name: str
    target: RepoRef
    draft: RepoRef
    export: ExportOptions
    start_k: dict[str, int]

    @property
    def approx_bytes(self) -> int:
        return self.target.approx_bytes + self.draft.approx_bytes

    @property
    def needs_export(self) -> bool:
        """True if the draft comes in Hugging Face format and must be exported with optimum-intel."""
        return not self.draft.is_ir


@dataclass(frozen=True)
class CatalogEntry:
    name: str
    title: str
    target: RepoRef
    draft: RepoRef
    description: str = ""
    license: str = ""
    languages: str = ""  # the languages the model is made for, in a few words
    npu_target: RepoRef | None = None
    start_k: dict[str, int] = field(default_factory=dict)
    export: dict[str, ExportOptions] = field(default_factory=dict)
    user: bool = False  # from the user's own catalog file
    evidence: str = ""  # why the repositories are believed to exist and to fit together
    unverified: str = ""  # non-empty: what was not checked (repos not seen, pair never tried)

    @property
    def needs_export(self) -> bool:
        """True if its draft is a Hugging Face-format head that optimum-intel must export after the download."""
        return not self.draft.is_ir

    def devices(self) -> tuple[str, ...]:
        """Devices this entry has a build for (NPU needs an NPU target build)."""
        return DEVICE_KINDS if self.npu_target else tuple(d for d in DEVICE_KINDS if d != "NPU")

    def sources(self, device: str = "CPU") -> tuple[str, ...]:
        """Sources that carry both the target (for ``device``) and the draft."""
        target = self.npu_target if device == "NPU" else self.target
        if target is None:
            return ()
        return tuple(s for s in SOURCES if target.repo_id(s) and self.draft.repo_id(s))

    def variant(self, device: str = "CPU", source: str | None = None) -> Variant:
        """The variant for ``device``; with ``source``, also check that source carries both repos."""
        device = device.upper()
        if device not in DEVICE_KINDS:
            raise CatalogError("Unknown device {device!r}: choose one of {kinds}.", device=device,
                               kinds=", ".join(DEVICE_KINDS))
        if device == "NPU":
            if self.npu_target is None:
                raise CatalogError(
                    "{title} has no NPU build in the catalog (NPUs need OpenVINO's channel-wise int4 models, e.g. "
                    "OpenVINO/Qwen3-8B-int4-cw-ov). Choose CPU or GPU, or add your own entry.", title=self.title
                )
            target, export = self.npu_target, self.export.get("NPU", NPU_EXPORT)
            pair_name = f"{self.name}-npu"
        else:
            target, export = self.target, self.export.get("default", DEFAULT_EXPORT)
            pair_name = self.name
        if source is not None:
            if source not in SOURCES:
                raise CatalogError("Unknown source {source!r}: choose one of {sources}.", source=source,
                                   sources=", ".join(SOURCES))
            missing = [ref for ref in (target, self.draft) if not ref.repo_id(source)]
            if missing:
                others = " or ".join(SOURCE_LABELS[s] for s in self.sources(device))
                source_label, part = SOURCE_LABELS[source], "target" if missing[0] is target else "draft"
                if others:
                    raise CatalogError("{title} is not available on {source}: the catalog names no {source} "
                                       "repository for its {part}. Use {others} instead.",
                                       title=self.title, source=source_label, part=part, others=others)
                raise CatalogError("{title} is not available on {source}: the catalog names no {source} repository "
                                   "for its {part}.", title=self.title, source=source_label, part=part)
        start_k = {d: int(self.start_k.get(d, DEFAULT_START_K)) for d in DEVICE_KINDS}
        return Variant(self, device, pair_name, target, self.draft, export, start_k)


@dataclass(frozen=True)
class DocumentModelEntry:
    """An embedding model or a reranker for the documents index: one OpenVINO IR repository."""

    name: str
    title: str
    kind: str  # "embedding" or "reranker"
    model: RepoRef
    description: str = ""
    license: str = ""
    languages: str = ""
    pooling: str = "mean"  # embedders: how token vectors become one (the model card says which)
    max_length: int = 512  # tokens per input the model is run with
    query_instruction: str = ""  # embedders: put before a query (Qwen3-Embedding wants one), not before passages
    user: bool = False
    evidence: str = ""
    unverified: str = ""

    def sources(self) -> tuple[str, ...]:
        return tuple(s for s in SOURCES if self.model.repo_id(s))

    def check_source(self, source: str) -> None:
        if source not in SOURCES:
            raise CatalogError("Unknown source {source!r}: choose one of {sources}.", source=source,
                               sources=", ".join(SOURCES))
        if not self.model.repo_id(source):
            others = " or ".join(SOURCE_LABELS[s] for s in self.sources())
            raise CatalogError("{title} is not available on {source}: the catalog names no {source} repository "
                               "for it. Use {others} instead.", title=self.title, source=SOURCE_LABELS[source],
                               others=others)


@dataclass
class Catalog:
    entries: list[CatalogEntry]
    problems: list[str] = field(default_factory=list)
    document_models: list[DocumentModelEntry] = field(default_factory=list)

    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def document_model(self, name: str, kind: str | None = None) -> DocumentModelEntry | None:
        """The embedding model or reranker called ``name`` (of ``kind``, if given), or None."""
        return next((e for e in self.document_models if e.name == name and kind in (None, e.kind)), None)

    def get(self, name: str) -> CatalogEntry:
        for entry in self.entries:
            if entry.name == name:
                return entry
        raise CatalogError(
            "There is no catalog entry named {name!r}. Known entries: {known}.",
            name=name, known=", ".join(self.names()) or "none",
        )


def builtin_catalog_file() -> Path:
    return paths.resources_dir() / "catalog.json"


def load_catalog(builtin: Path | None = None, user: Path | None = None) -> Catalog:
    """The built-in catalog merged with the user's file (user entries win by name)."""
    builtin = builtin or builtin_catalog_file()
    user = user if user is not None else paths.user_catalog_file()
    problems: list[str] = []
    entries: dict[str, CatalogEntry | DocumentModelEntry] = {}
    for path, is_user in ((builtin, False), (user, True)):
        if not path.is_file():
            if not is_user:
                problems.append(f"The built-in model catalog {path} is missing; reinstall EagleChat.")
            continue
        for entry in _read_entries(path, is_user, problems):
            entries[entry.name] = entry
    return Catalog([e for e in entries.values() if isinstance(e, CatalogEntry)], problems,
                   [e for e in entries.values() if isinstance(e, DocumentModelEntry)])


def _read_entries(path: Path, is_user: bool, problems: list[str]) -> list[CatalogEntry | DocumentModelEntry]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        problems.append(f"The model catalog {path} could not be read ({error}); its entries are ignored.")
        return []
    if not isinstance(data, dict) or not isinstance(data.get("pairs"), list):
        problems.append(f"The model catalog {path} must be a JSON object with a 'pairs' list; it is ignored.")
        return []
    result = []
    for index, item in enumerate(data["pairs"]):
        where = f"{path} entry {index + 1}"
        try:
            kind = item.get("kind", "chat") if isinstance(item, dict) else "chat"
            if kind not in KINDS:
                raise CatalogError("{where}: 'kind' is one of {kinds}, not {kind!r}.", where=where,
                                   kinds=", ".join(KINDS), kind=kind)
            parse = _parse_entry if kind == "chat" else _parse_document_model
            result.append(parse(item, where, is_user))
        except CatalogError as error:
            problems.append(f"{error} This entry is ignored.")
    return result


def _entry_name(item: object, where: str) -> str:
    if not isinstance(item, dict):
        raise CatalogError("{where} is not a JSON object.", where=where)
    name = item.get("name")
    if not isinstance(name, str) or not name.strip() or any(c in name for c in "/\\ ") or name.startswith("."):
        raise CatalogError("{where} needs a 'name' without spaces or slashes (for `models pull NAME`).",
                           where=where)
    return name


def _parse_document_model(item: dict, where: str, is_user: bool) -> DocumentModelEntry:
    name = _entry_name(item, where)
    where = f"{where} ({name})"
    kind = item["kind"]
    model = _parse_target(item.get("model"), f"{where} model")
    pooling = item.get("pooling", "mean")
    if pooling not in POOLINGS:
        raise CatalogError("{where}: 'pooling' is one of {poolings}.", where=where, poolings=", ".join(POOLINGS))
    max_length = item.get("max_length", 512)
    if not isinstance(max_length, int) or not 8 <= max_length <= 131072:
        raise CatalogError("{where}: 'max_length' is a number of tokens from 8 to 131072.", where=where)
    return DocumentModelEntry(
        name=name, title=str(item.get("title") or name), kind=kind, model=model,
        description=str(item.get("description") or ""), license=str(item.get("license") or ""),
        languages=str(item.get("languages") or ""), pooling=pooling, max_length=max_length,
        query_instruction=str(item.get("query_instruction") or ""), user=is_user,
        evidence=str(item.get("evidence") or ""), unverified=str(item.get("unverified") or ""),
    )


def _parse_entry(item: object, where: str, is_user: bool) -> CatalogEntry:
    name = _entry_name(item, where)
    assert isinstance(item, dict)  # _entry_name refused anything else
    where = f"{where} ({name})"
    export = {}
    for key, value in (item.get("export") or {}).items():
        if key not in ("default", "NPU"):
            raise CatalogError("{where}: 'export' keys are 'default' and 'NPU', not {key!r}.",
                               where=where, key=key)
        export[key] = ExportOptions.from_json(value, where)
    start_k = item.get("start_k") or {}
    if not isinstance(start_k, dict) or not all(
        d in DEVICE_KINDS and isinstance(k, int) and 1 <= k <= 16 for d, k in start_k.items()
    ):
        raise CatalogError("{where}: 'start_k' maps CPU/GPU/NPU to a number of draft tokens from 1 to 16.",
                           where=where)
    npu = item.get("npu_target")
    return CatalogEntry(
        name=name,
        title=str(item.get("title") or name),
        description=str(item.get("description") or ""),
        license=str(item.get("license") or ""),
        languages=str(item.get("languages") or ""),
        target=_parse_target(item.get("target"), f"{where} target"),
        draft=_parse_repo(item.get("draft"), f"{where} draft", default_format="hf"),
        npu_target=_parse_target(npu, f"{where} npu_target") if npu else None,
        start_k=dict(start_k),
        export=export,
        user=is_user,
        evidence=str(item.get("evidence") or ""),
        unverified=str(item.get("unverified") or ""),
    )


def _parse_repo(data: object, where: str, default_format: str = "openvino") -> RepoRef:
    if not isinstance(data, dict):
        raise CatalogError("{where} must be an object like {{\"hf\": \"owner/name\", \"bytes\": 123}}.",
                           where=where)
    ids = {s: data[s] for s in SOURCES if data.get(s)}
    if not ids or not all(isinstance(v, str) and v.count("/") == 1 for v in ids.values()):
        raise CatalogError("{where} must name at least one repository as \"owner/name\" under 'hf' or "
                           "'modelscope'.", where=where)
    revisions = data.get("revision") or {}
    if not isinstance(revisions, dict):
        raise CatalogError("{where}: 'revision' maps a source to a branch, tag or commit.", where=where)
    size = data.get("bytes", 0)
    if not isinstance(size, int) or size < 0:
        raise CatalogError("{where}: 'bytes' must be a whole number of bytes.", where=where)
    fmt = data.get("format", default_format)
    if fmt not in FORMATS:
        raise CatalogError("{where}: 'format' is \"openvino\" (the repository holds OpenVINO IR) or \"hf\" (a "
                           "Hugging Face-format EAGLE-3 head, exported after the download).", where=where)
    return RepoRef(ids=ids, approx_bytes=size, revisions={k: str(v) for k, v in revisions.items()}, format=fmt)


def _parse_target(data: object, where: str) -> RepoRef:
    ref = _parse_repo(data, where)
    if not ref.is_ir:
        raise CatalogError("{where} must be OpenVINO IR (\"format\": \"openvino\"): EagleChat exports only EAGLE-3 "
                           "heads. Use an OpenVINO build of the model, e.g. from huggingface.co/OpenVINO.",
                           where=where)
    return ref
