"""Getting a model pair onto the disk: download, draft export, a test load, registration.

``plan_pull`` turns a catalog entry into a :class:`PullPlan`: a list of steps, each one child process —

1. download the target (OpenVINO IR) from Hugging Face or ModelScope (:mod:`.download_worker`),
2. download the EAGLE-3 head in its Hugging Face format,
3. convert the head to OpenVINO IR with EagleChat's own converter (:mod:`.eagle3_converter`, no PyTorch;
   in the frozen bundle too), or, for a head it does not know, ``optimum-cli export openvino``
   (:mod:`.draft_export`; optimum-intel is the optional ``build-models`` extra, never in the bundle),
4. load the pair and write a short greedy reply; the draft must get tokens accepted (:mod:`.verify_worker`),

— or, for a draft whose repository already holds OpenVINO IR (``"format": "openvino"`` in the catalog),
2–3 are one download of the IR draft, and nothing needs PyTorch or optimum-intel (nor is it imported),

and then :meth:`PullPlan.register` adds it to the registry. An embedding model or a reranker (a catalog entry
of kind ``embedding`` / ``reranker``) is one IR download and a test run of it (:mod:`.document_model_worker`),
then registered in the document models' registry (:class:`DocumentModelPlan`). Child processes because none of this can be
interrupted from inside (a hub client mid-transfer, an export, an OpenVINO compile) and a process can: a
cancel ends the process group (:mod:`.child_process`). Each step's ``command()`` is run by the
caller — ``subprocess`` in the CLI (:func:`run_plan`), ``QProcess`` in the Get models dialog — which feeds
the output lines to ``step.handle_line`` and calls ``step.finish`` at the end. Nothing here imports Qt.

Safety: before a step writes, the free disk space is checked; a download is only moved to its final
folder after every file matched the hub's size and hash; a step that already finished (a previous,
interrupted pull) is skipped, and an interrupted download resumes. Nothing is registered unless every
step succeeded. The app itself never contacts the network: only these child processes do, and only when
the user starts a pull. Hugging Face telemetry is switched off in their environment.
"""


from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.acquisition import staging
from eagle_chat.core.acquisition.pull_steps import (
    AcquireError,
    DocumentModelCheckStep,
    DownloadStep,
    ExportStep,
    IrDraftDownloadStep,
    Step,
    VerifyStep,
)
from eagle_chat.core.models import folders
from eagle_chat.core.models.catalog import (
    Catalog,
    CatalogEntry,
    DocumentModelEntry,
    Variant,
    load_catalog,
)
from eagle_chat.core.models.document_models import DocumentModel, DocumentModelRegistry
from eagle_chat.core.models.registry import ModelPair, ModelRegistry, RegistryError


@dataclass
class PullPlan:
    """Everything ``models pull`` / the Get models dialog will do for one catalog entry."""

    variant: Variant
    source: str
    endpoint: str | None
    registry: ModelRegistry
    pair_dir: Path
    partial_dir: Path
    steps: list[Step] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.variant.pair_name

    @property
    def target_dir(self) -> Path:
        return self.pair_dir / "target"

    @property
    def draft_dir(self) -> Path:
        return self.pair_dir / "draft"

    def pending_steps(self) -> list[Step]:
        return [s for s in self.steps if not s.is_done()]

    def register(self) -> ModelPair:
        """Add the pair to the registry (after every step succeeded) and drop the intermediate files."""
        missing = [s.title for s in self.steps if not isinstance(s, VerifyStep) and not s.is_done()]
        if missing:
            raise AcquireError("{title} is not complete ({steps}); it was not registered.",
                               title=self.variant.entry.title, steps="; ".join(missing))
        pair = self.registry.add(ModelPair(
            name=self.name,
            target_dir=str(self.target_dir),
            draft_dir=str(self.draft_dir),
            source=f"{self.source}:{self.variant.target.repo_id(self.source)}",
            draft_source=f"{self.source}:{self.variant.draft.repo_id(self.source)}",
            owned=True,
            device=self.variant.device,
            start_k=dict(self.variant.start_k),
        ))
        shutil.rmtree(self.partial_dir, ignore_errors=True)
        return pair


@dataclass
class DocumentModelPlan:
    """``models pull`` for an embedding model or a reranker: download its IR, run it once, register it."""

    entry: DocumentModelEntry
    source: str
    registry: DocumentModelRegistry
    model_dir: Path
    partial_dir: Path
    steps: list[Step] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.entry.name

    def pending_steps(self) -> list[Step]:
        return [s for s in self.steps if not s.is_done()]

    def register(self) -> DocumentModel:
        if not self.steps[0].is_done():
            raise AcquireError("{title} is not complete ({steps}); it was not registered.",
                               title=self.entry.title, steps=self.steps[0].title)
        model = self.registry.add(DocumentModel(
            name=self.entry.name, kind=self.entry.kind, model_dir=str(self.model_dir),
            source=f"{self.source}:{self.entry.model.repo_id(self.source)}", pooling=self.entry.pooling,
            max_length=self.entry.max_length, query_instruction=self.entry.query_instruction, owned=True))
        shutil.rmtree(self.partial_dir, ignore_errors=True)
        return model


def plan_document_model_pull(entry: DocumentModelEntry, *, source: str = "hf", endpoint: str | None = None,
                             registry: DocumentModelRegistry | None = None,
                             device: str = "CPU") -> DocumentModelPlan:
    """The steps for an embedding model or a reranker; raises AcquireError if it is already there or the disk
    is too full, CatalogError if ``source`` does not carry it."""
    registry = registry or DocumentModelRegistry()
    entry.check_source(source)
    if registry.get(entry.name) is not None:
        raise AcquireError("{pair_name} is already installed. Remove it first with `eagle-chat models remove "
                           "{pair_name}` to download it again.", pair_name=entry.name)
    model_dir = paths.models_dir() / entry.name
    partial_dir = paths.staging_dir() / entry.name
    ref = entry.model
    repo = ref.repo_id(source)
    assert repo is not None  # check_source refused a source without one
    download = DownloadStep(source, repo, ref.revision(source), partial_dir / "model", model_dir,
                            endpoint, ref.approx_bytes)
    check = DocumentModelCheckStep(model_dir, entry.kind, device, pooling=entry.pooling,
                                   max_length=entry.max_length)
    plan = DocumentModelPlan(entry, source, registry, model_dir, partial_dir, [download, check])
    staging.ensure_free_space(paths.models_dir(), download.remaining_bytes(), entry.title)
    return plan


def plan_pull(
    entry: CatalogEntry | str,
    *,
    source: str = "hf",
    device: str = "CPU",
    endpoint: str | None = None,
    registry: ModelRegistry | None = None,
    catalog: Catalog | None = None,
    verify_device: str | None = None,
) -> PullPlan | DocumentModelPlan:
    """Work out the steps for ``entry`` and run the checks that can fail before anything is written.

    Raises AcquireError (CatalogError for an entry that has no build for the device or source): the pair
    is already registered, the export tools are missing, or the disk is too full for what remains.
    """
    if isinstance(entry, str):
        catalog = catalog or load_catalog()
        document_model = catalog.document_model(entry)
        if document_model is not None:
            return plan_document_model_pull(document_model, source=source, endpoint=endpoint,
                                            device=verify_device or device)
        entry = catalog.get(entry)
    registry = registry or ModelRegistry()
    variant = entry.variant(device, source)
    try:
        registry.get(variant.pair_name)
    except RegistryError:
        pass
    else:
        raise AcquireError("{pair_name} is already installed. Remove it first with `eagle-chat models remove "
                           "{pair_name}` to download it again.", pair_name=variant.pair_name)
    pair_dir = paths.models_dir() / variant.pair_name
    partial_dir = paths.staging_dir() / variant.pair_name
    target_ref, draft_ref = variant.target, variant.draft
    target_repo, draft_repo = target_ref.repo_id(source), draft_ref.repo_id(source)
    assert target_repo is not None and draft_repo is not None  # entry.variant checked the source has both
    plan = PullPlan(variant, source, endpoint, registry, pair_dir, partial_dir)
    target_step = DownloadStep(source, target_repo, target_ref.revision(source),
                               partial_dir / "target", pair_dir / "target", endpoint, target_ref.approx_bytes)
    verify_step = VerifyStep(pair_dir / "target", pair_dir / "draft", verify_device or variant.device,
                             variant.start_k.get(variant.device, 3), pair_name=variant.pair_name)
    if not variant.needs_export:
        draft_step = IrDraftDownloadStep(source, draft_repo, draft_ref.revision(source),
                                         partial_dir / "draft", pair_dir / "draft", pair_dir / "target",
                                         endpoint, draft_ref.approx_bytes)
        plan.steps = [target_step, draft_step, verify_step]
        needed = target_step.remaining_bytes() + draft_step.remaining_bytes()
        staging.ensure_free_space(paths.models_dir(), needed, f"{entry.title} ({variant.device})")
        return plan
    head_dir = partial_dir / "draft-hf"
    export_step = ExportStep(head_dir, partial_dir / "draft-export", pair_dir / "draft", pair_dir / "target",
                             variant.export, approx_bytes=draft_ref.approx_bytes)
    plan.steps = [
        target_step,
        DownloadStep(source, draft_repo, draft_ref.revision(source), partial_dir / "draft-hf-dl",
                     head_dir, endpoint, draft_ref.approx_bytes, needed_until=export_step.is_done),
        export_step,
        verify_step,
    ]
    needed = sum(s.remaining_bytes() for s in plan.steps if isinstance(s, DownloadStep))
    needed += 0 if export_step.is_done() else draft_ref.approx_bytes
    staging.ensure_free_space(paths.models_dir(), needed, f"{entry.title} ({variant.device})")
    return plan


def export_problem(entry: CatalogEntry) -> str | None:
    """Why ``entry`` cannot be pulled here, before anything is downloaded; None when it can.

    Always None now: EagleChat's converter (numpy and OpenVINO only) runs with this Python, the frozen
    bundle included, and optimum-intel is only its fallback for a head it does not know — which shows only
    once the head is downloaded (:meth:`.ExportStep.prepare` then says what it found)."""
    del entry
    return None


def import_pair(target_dir: Path, draft_dir: Path, *, name: str | None = None, device: str = "CPU",
                registry: ModelRegistry | None = None) -> ModelPair:
    """Register folders the user already has, after the same checks the app makes before loading them.

    Raises ModelFolderError (folder problems) or RegistryError (name problems). The files stay the user's:
    the pair is not ``owned``.
    """
    registry = registry or ModelRegistry()
    target = folders.inspect_target(target_dir)
    draft = folders.inspect_draft(draft_dir)
    folders.check_pair(target, draft)
    return registry.add(ModelPair(
        name=name or target.path.name,
        target_dir=str(target.path),
        draft_dir=str(draft.path),
        source="import",
        owned=False,
        device=device.upper(),
        start_k={"CPU": 3, "GPU": 3, "NPU": 3},
    ))


def leftovers(registry: ModelRegistry | None = None) -> dict[str, list[Path]]:
    """Unfinished pulls: folders under the models folder that belong to no registered pair, by name."""
    registry = registry or ModelRegistry()
    registered = {p.name for p in registry.pairs()} | {m.name for m in DocumentModelRegistry().models()}
    found: dict[str, list[Path]] = {}
    for root in (paths.models_dir(), paths.staging_dir()):
        for folder in sorted(root.iterdir()):
            if folder.is_dir() and not folder.name.startswith(".") and folder.name not in registered:
                found.setdefault(folder.name, []).append(folder)
    return found


def delete_leftover(name: str) -> list[Path]:
    """Delete an unfinished pull's folders (the app made them, so no question is asked)."""
    deleted = []
    for root in (paths.models_dir(), paths.staging_dir()):
        folder = root / name
        if name and not name.startswith(".") and folder.is_dir() and folder.parent == root:
            shutil.rmtree(folder)
            deleted.append(folder)
    return deleted


# -- helpers ----------------------------------------------------------------------------------------------
