"""Getting a model pair onto the disk: download, draft export, a test load, registration.

``plan_pull`` turns a catalog entry into a :class:`PullPlan`: a list of steps, each one child process —

1. download the target (OpenVINO IR) from Hugging Face or ModelScope (:mod:`.download_worker`),
2. download the EAGLE-3 head in its Hugging Face format,
3. export the head to OpenVINO IR with ``optimum-cli export openvino`` (:mod:`.draft_export`;
   optimum-intel is the optional ``build-models`` extra),
4. load the pair and write a short greedy reply; the draft must get tokens accepted (:mod:`.verify_worker`),

and then :meth:`PullPlan.register` adds it to the registry. Child processes because none of this can be
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

import os
import shutil
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core import models, staging
from eagle_chat.core.catalog import SOURCE_LABELS, Catalog, CatalogEntry, ExportOptions, Variant, load_catalog
from eagle_chat.core.child_process import new_process_group_kwargs, terminate_process_tree, worker_env
from eagle_chat.core.draft_export import (
    DraftExportError,
    export_command,
    export_env,
    export_tools_problem,
    finish_export,
)
from eagle_chat.core.registry import ModelPair, ModelRegistry, RegistryError
from eagle_chat.core.worker_events import parse_event

STDERR_TAIL_LINES = 30


class AcquireError(RuntimeError):
    """Getting a model failed or cannot start; ``str(error)`` tells the user what happened and what to do."""


class ExportToolsMissing(AcquireError):
    """optimum-intel (or one of its heavy dependencies) is not installed; the message says what to install."""


class Cancelled(AcquireError):
    """The user stopped the pull; finished steps and partial downloads are kept for the next attempt."""


@dataclass
class Progress:
    """One update for a progress display. Byte fields are None for steps without byte progress."""

    step: str  # the step's title, e.g. "Downloading OpenVINO/Qwen3-8B-int4-ov"
    done: int | None = None
    total: int | None = None
    speed: float | None = None  # bytes per second
    eta: float | None = None  # seconds
    file: str = ""
    message: str = ""

    @property
    def fraction(self) -> float | None:
        return self.done / self.total if self.done is not None and self.total else None

    def text(self) -> str:
        """A one-line description: ``1.2 GB of 4.8 GB · 11.3 MB/s · 5 min 20 s left · openvino_model.bin``."""
        if self.done is None or not self.total:
            return self.message or self.step
        parts = [f"{staging.format_bytes(self.done)} of {staging.format_bytes(self.total)}"]
        if self.speed:
            parts.append(f"{staging.format_bytes(self.speed)}/s")
        if self.eta is not None and self.done < self.total:
            parts.append(f"{format_duration(self.eta)} left")
        if self.file:
            parts.append(self.file)
        return " · ".join(parts)


@dataclass
class StepCommand:
    argv: list[str]
    env: dict[str, str]


class Step:
    """One child process of a pull. Subclasses fill in the command and what success means."""

    title = ""
    merge_stderr = False  # True: the process's stderr is read as part of its stdout

    def __init__(self) -> None:
        self.last_error: str | None = None
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL_LINES)

    def is_done(self) -> bool:
        """True if an earlier pull already finished this step (it is then skipped)."""
        return False

    def prepare(self) -> None:
        """Checks and clean-up right before the process starts (free space, stale output)."""

    def command(self) -> StepCommand:
        raise NotImplementedError

    def handle_line(self, line: str | bytes) -> Progress | None:
        """Turn one stdout line into progress; remembers the worker's error message."""
        event = parse_event(line)
        if event is None:
            return None
        kind = event["event"]
        if kind == "error":
            self.last_error = str(event.get("message", ""))
            return Progress(self.title, message=self.last_error)
        if kind in ("progress", "start", "done"):
            done = event.get("done", event.get("present", event.get("total")))
            return Progress(self.title, done=done, total=event.get("total"), speed=event.get("speed"),
                            eta=event.get("eta"), file=str(event.get("file", "")))
        if kind == "verifying":
            return Progress(self.title, message=f"Checking {event.get('file', '')}…")
        return Progress(self.title, message=str(event.get("message", "")))

    def handle_stderr(self, line: str | bytes) -> None:
        if isinstance(line, bytes):
            line = line.decode("utf-8", errors="replace")
        if line.strip():
            self.stderr_tail.append(line.rstrip())

    def finish(self, returncode: int) -> None:
        """Called after the process ended: check and move the result into place, or raise AcquireError."""
        raise NotImplementedError

    def failure(self, what: str, returncode: int) -> AcquireError:
        detail = self.last_error or "\n".join(list(self.stderr_tail)[-8:]) or f"exit status {returncode}"
        return AcquireError(f"{what} failed: {detail}")


class DownloadStep(Step):
    """Download one repository into ``staging_dir``; on success move it to ``final_dir``."""

    def __init__(self, source: str, repo: str, revision: str, staging_dir: Path, final_dir: Path,
                 endpoint: str | None = None, approx_bytes: int = 0,
                 needed_until: Callable[[], bool] | None = None):
        super().__init__()
        self.source, self.repo, self.revision = source, repo, revision
        self.needed_until = needed_until  # e.g. the head is only needed until the export is done
        self.staging_dir, self.final_dir = staging_dir, final_dir
        self.endpoint = endpoint or None
        self.approx_bytes = approx_bytes
        self.title = f"Downloading {repo} from {SOURCE_LABELS[source]}"

    def is_done(self) -> bool:
        if self.needed_until is not None and self.needed_until():
            return True
        try:
            manifest = staging.verify_folder(self.final_dir)
        except staging.StagingError:
            return False
        return manifest.repo == self.repo and manifest.source == self.source

    def remaining_bytes(self) -> int:
        """Approximate bytes still to download (the catalog's size less what is on disk)."""
        if self.is_done():
            return 0
        on_disk = staging.present_bytes(self.staging_dir, staging.read_manifest(self.staging_dir))
        return max(self.approx_bytes - on_disk, 0)

    def prepare(self) -> None:
        staging.ensure_free_space(self.staging_dir, self.remaining_bytes(), f"downloading {self.repo}")
        self.staging_dir.mkdir(parents=True, exist_ok=True)

    def command(self) -> StepCommand:
        argv = [sys.executable, "-m", "eagle_chat.core.download_worker", "--source", self.source,
                "--repo", self.repo, "--revision", self.revision, "--dest", str(self.staging_dir)]
        if self.endpoint:
            argv += ["--endpoint", self.endpoint]
        return StepCommand(argv, worker_env(self.source, self.endpoint))

    def finish(self, returncode: int) -> None:
        if returncode != 0:
            raise self.failure(f"Downloading {self.repo}", returncode)
        try:
            staging.verify_folder(self.staging_dir)
        except staging.StagingError as error:
            raise AcquireError(str(error)) from None
        move_into_place(self.staging_dir, self.final_dir)


class ExportStep(Step):
    """Export a Hugging Face-format EAGLE-3 head to OpenVINO IR with optimum-intel, in a child process."""

    def __init__(self, head_dir: Path, out_dir: Path, final_dir: Path, target_dir: Path,
                 options: ExportOptions, approx_bytes: int = 0):
        super().__init__()
        self.head_dir, self.out_dir, self.final_dir, self.target_dir = head_dir, out_dir, final_dir, target_dir
        self.options = options
        self.approx_bytes = approx_bytes
        self.title = f"Exporting the EAGLE-3 draft to OpenVINO ({options.weight_format})"

    def is_done(self) -> bool:
        try:
            models.inspect_draft(self.final_dir)
        except models.ModelFolderError:
            return False
        return True

    def prepare(self) -> None:
        problem = export_tools_problem()
        if problem:
            raise ExportToolsMissing(problem)
        if self.out_dir.exists():
            shutil.rmtree(self.out_dir)  # a half-written export cannot be resumed
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        staging.ensure_free_space(self.out_dir.parent, self.approx_bytes, "exporting the draft")

    def command(self) -> StepCommand:
        return StepCommand(export_command(self.head_dir, self.out_dir, self.options), export_env())

    merge_stderr = True  # optimum logs to stderr; its last line is the best progress there is

    def handle_line(self, line: str | bytes) -> Progress | None:
        self.handle_stderr(line)
        if isinstance(line, bytes):
            line = line.decode("utf-8", errors="replace")
        line = line.strip()
        return Progress(self.title, message=line[:200]) if line else None

    def finish(self, returncode: int) -> None:
        if returncode != 0:
            raise self.failure("Exporting the draft with optimum-cli", returncode)
        try:
            finish_export(self.out_dir, self.target_dir)
        except DraftExportError as error:
            raise AcquireError(str(error)) from None
        move_into_place(self.out_dir, self.final_dir)


class VerifyStep(Step):
    """Load the pair in a child process and check that a short greedy reply gets draft tokens accepted."""

    def __init__(self, target_dir: Path, draft_dir: Path, device: str = "CPU", k: int = 3, pair_name: str = ""):
        super().__init__()
        self.target_dir, self.draft_dir, self.device, self.k = target_dir, draft_dir, device, k
        self.pair_name = pair_name
        self.title = "Checking that the model and its draft work together"
        self.result: dict | None = None

    def command(self) -> StepCommand:
        argv = [sys.executable, "-m", "eagle_chat.core.verify_worker", "--target", str(self.target_dir),
                "--draft", str(self.draft_dir), "--device", self.device, "--k", str(self.k),
                "--cache-dir", str(paths.compiled_cache_dir())]
        return StepCommand(argv, worker_env(None, None, offline=True))

    def handle_line(self, line: str | bytes) -> Progress | None:
        event = parse_event(line)
        if event is not None and event["event"] == "result":
            self.result = event
            rate = event.get("acceptance")
            share = f" ({rate:.0%} of {event.get('draft_tokens')} drafted)" if rate is not None else ""
            return Progress(self.title, message=f"It works on {event.get('device')}: the draft got "
                                                f"{event.get('accepted')} tokens accepted{share}.")
        return super().handle_line(line)

    def finish(self, returncode: int) -> None:
        if returncode != 0 or self.result is None:
            error = self.failure("The test run of the downloaded pair", returncode)
            raise AcquireError(
                f"{error} The files are kept but not registered: register them anyway with `eagle-chat models "
                f"import {self.target_dir} {self.draft_dir} --name {self.pair_name or 'NAME'}`, or delete them "
                f"with `eagle-chat models remove {self.pair_name or 'NAME'}`."
            )


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
            raise AcquireError(f"{self.variant.entry.title} is not complete ({'; '.join(missing)}); "
                               "it was not registered.")
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


def plan_pull(
    entry: CatalogEntry | str,
    *,
    source: str = "hf",
    device: str = "CPU",
    endpoint: str | None = None,
    registry: ModelRegistry | None = None,
    catalog: Catalog | None = None,
    verify_device: str | None = None,
) -> PullPlan:
    """Work out the steps for ``entry`` and run the checks that can fail before anything is written.

    Raises AcquireError (CatalogError for an entry that has no build for the device or source): the pair
    is already registered, the export tools are missing, or the disk is too full for what remains.
    """
    registry = registry or ModelRegistry()
    if isinstance(entry, str):
        entry = (catalog or load_catalog()).get(entry)
    variant = entry.variant(device, source)
    try:
        registry.get(variant.pair_name)
    except RegistryError:
        pass
    else:
        raise AcquireError(f"{variant.pair_name} is already installed. Remove it first with "
                           f"`eagle-chat models remove {variant.pair_name}` to download it again.")
    pair_dir = paths.models_dir() / variant.pair_name
    partial_dir = paths.staging_dir() / variant.pair_name
    target_ref, draft_ref = variant.target, variant.draft
    head_dir = partial_dir / "draft-hf"
    plan = PullPlan(variant, source, endpoint, registry, pair_dir, partial_dir)
    export_step = ExportStep(head_dir, partial_dir / "draft-export", pair_dir / "draft", pair_dir / "target",
                             variant.export, approx_bytes=draft_ref.approx_bytes)
    plan.steps = [
        DownloadStep(source, target_ref.repo_id(source), target_ref.revision(source), partial_dir / "target",
                     pair_dir / "target", endpoint, target_ref.approx_bytes),
        DownloadStep(source, draft_ref.repo_id(source), draft_ref.revision(source), partial_dir / "draft-hf-dl",
                     head_dir, endpoint, draft_ref.approx_bytes, needed_until=export_step.is_done),
        export_step,
        VerifyStep(pair_dir / "target", pair_dir / "draft", verify_device or variant.device,
                   variant.start_k.get(variant.device, 3), pair_name=variant.pair_name),
    ]
    if not export_step.is_done():
        problem = export_tools_problem()
        if problem:
            raise ExportToolsMissing(problem)
    needed = sum(s.remaining_bytes() for s in plan.steps if isinstance(s, DownloadStep))
    needed += 0 if export_step.is_done() else draft_ref.approx_bytes
    staging.ensure_free_space(paths.models_dir(), needed, f"{entry.title} ({variant.device})")
    return plan


def run_plan(
    plan: PullPlan,
    on_progress: Callable[[Progress], None] = lambda p: None,
    should_cancel: Callable[[], bool] = lambda: False,
) -> ModelPair:
    """Run every pending step as a child process (blocking), then register. For the CLI and scripts.

    ``should_cancel`` is polled a few times a second; when it returns True the running process group is
    ended and Cancelled is raised. KeyboardInterrupt does the same.
    """
    for step in plan.steps:
        if step.is_done():
            on_progress(Progress(step.title, message="Already done."))
            continue
        run_step(step, on_progress, should_cancel)
    return plan.register()


def run_step(step: Step, on_progress: Callable[[Progress], None] = lambda p: None,
             should_cancel: Callable[[], bool] = lambda: False) -> None:
    """Run one step's process to its end, feeding its output to the step; raise on failure or cancel."""
    step.prepare()
    on_progress(Progress(step.title, message="Starting…"))
    cmd = step.command()
    process = subprocess.Popen(
        cmd.argv, env=cmd.env, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
        stderr=subprocess.STDOUT if step.merge_stderr else subprocess.PIPE,
        **new_process_group_kwargs(),
    )
    stderr_reader = threading.Thread(
        target=lambda: [step.handle_stderr(line) for line in (process.stderr or ())], daemon=True
    )
    stderr_reader.start()
    lines: deque[bytes] = deque()
    stdout_reader = threading.Thread(target=lambda: [lines.append(line) for line in process.stdout], daemon=True)
    stdout_reader.start()
    try:
        while True:
            while lines:
                progress = step.handle_line(lines.popleft())
                if progress is not None:
                    on_progress(progress)
            if process.poll() is not None and not stdout_reader.is_alive():
                break
            if should_cancel():
                raise Cancelled("Stopped.")
            time.sleep(0.05)
    except (Cancelled, KeyboardInterrupt):
        terminate_process_tree(process)
        raise Cancelled(
            "Stopped. What was downloaded so far is kept; run the same download again to resume."
        ) from None
    stderr_reader.join(timeout=5)
    while lines:
        progress = step.handle_line(lines.popleft())
        if progress is not None:
            on_progress(progress)
    step.finish(process.returncode)


# -- import, leftovers ----------------------------------------------------------------------------------


def import_pair(target_dir: Path, draft_dir: Path, *, name: str | None = None, device: str = "CPU",
                registry: ModelRegistry | None = None) -> ModelPair:
    """Register folders the user already has, after the same checks the app makes before loading them.

    Raises ModelFolderError (folder problems) or RegistryError (name problems). The files stay the user's:
    the pair is not ``owned``.
    """
    registry = registry or ModelRegistry()
    target = models.inspect_target(target_dir)
    draft = models.inspect_draft(draft_dir)
    models.check_pair(target, draft)
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
    registered = {p.name for p in registry.pairs()}
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


def move_into_place(source: Path, destination: Path) -> None:
    """Move a finished folder to its final place (same disk: a rename). An older copy is replaced."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    if destination.exists():
        shutil.rmtree(destination)
    os.replace(source, destination)


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
