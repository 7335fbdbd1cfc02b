"""The steps of a pull, each one child process: download, export, verify (see :mod:`.pulls`)."""

from __future__ import annotations

import os
import shutil
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.acquisition import eagle3_converter, staging
from eagle_chat.core.acquisition.child_process import worker_env
from eagle_chat.core.acquisition.draft_export import (
    DraftExportError,
    export_command,
    export_env,
    export_tools_error,
    finish_export,
    head_for_export,
)
from eagle_chat.core.acquisition.eagle3_weights import HeadFormatError, read_config
from eagle_chat.core.acquisition.protocol import error_from_event, parse_event
from eagle_chat.core.errors import UserError
from eagle_chat.core.files import move_aside_for_deletion
from eagle_chat.core.models import folders
from eagle_chat.core.models.catalog import SOURCE_LABELS, ExportOptions

STDERR_TAIL_LINES = 30


class AcquireError(UserError):
    """Getting a model failed or cannot start; ``str(error)`` tells the user what happened and what to do."""


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



@dataclass
class StepCommand:
    argv: list[str]
    env: dict[str, str]


class Step:
    """One child process of a pull. Subclasses fill in the command and what success means."""

    title = ""
    merge_stderr = False  # True: the process's stderr is read as part of its stdout

    def __init__(self) -> None:
        self.last_error: UserError | str | None = None  # what the worker's error event said
        self.last_error_kind: str | None = None  # its kind: "network", "space", "integrity", "not_found", …
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
            self.last_error = error_from_event(event)
            self.last_error_kind = str(event.get("kind") or "other")  # e.g. "network": the hub was not reached
            return Progress(self.title, message=str(self.last_error))
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

    def failure_detail(self, returncode: int) -> UserError | str:
        """Why the process failed: its error event (a user error, translatable), else its last stderr lines."""
        return self.last_error or "\n".join(list(self.stderr_tail)[-8:]) or f"exit status {returncode}"


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
        argv = [sys.executable, "-m", "eagle_chat.core.acquisition.download_worker", "--source", self.source,
                "--repo", self.repo, "--revision", self.revision, "--dest", str(self.staging_dir)]
        if self.endpoint:
            argv += ["--endpoint", self.endpoint]
        return StepCommand(argv, worker_env(self.source, self.endpoint))

    def finish(self, returncode: int) -> None:
        if returncode != 0:
            raise AcquireError("Downloading {repo} failed: {detail}", repo=self.repo,
                               detail=self.failure_detail(returncode))
        try:
            staging.verify_folder(self.staging_dir)
        except staging.StagingError as error:
            raise AcquireError.from_error(error) from None
        self.complete(self.staging_dir)
        move_into_place(self.staging_dir, self.final_dir)

    def complete(self, folder: Path) -> None:
        """Last touches on a verified download before it moves into place (nothing for a plain download)."""


class IrDraftDownloadStep(DownloadStep):
    """Download a draft that its repository already holds as OpenVINO IR: no export, no PyTorch.

    Before it moves into place the folder gets the target's OpenVINO tokenizer if it has none (drafts
    share the target's) and must pass the same EAGLE-3 and pair checks as an exported draft. The target is
    downloaded first, so its folder is there.
    """

    def __init__(self, source: str, repo: str, revision: str, staging_dir: Path, final_dir: Path,
                 target_dir: Path, endpoint: str | None = None, approx_bytes: int = 0):
        super().__init__(source, repo, revision, staging_dir, final_dir, endpoint, approx_bytes)
        self.target_dir = target_dir

    def complete(self, folder: Path) -> None:
        try:
            finish_export(folder, self.target_dir)
        except DraftExportError as error:
            raise AcquireError("{repo} does not hold a usable OpenVINO EAGLE-3 draft. {error}",
                               repo=self.repo, error=error) from None


class ExportStep(Step):
    """Convert a Hugging Face-format EAGLE-3 head to OpenVINO IR in a child process.

    EagleChat's own converter (:mod:`.eagle3_converter`, no PyTorch) builds every head whose layout it knows;
    a head it does not know goes to ``optimum-cli export openvino`` when optimum-intel is installed, and
    otherwise fails with the converter's message, which names the architecture it found.
    """

    def __init__(self, head_dir: Path, out_dir: Path, final_dir: Path, target_dir: Path,
                 options: ExportOptions, approx_bytes: int = 0):
        super().__init__()
        self.head_dir, self.out_dir, self.final_dir, self.target_dir = head_dir, out_dir, final_dir, target_dir
        self.export_dir = head_dir  # what optimum-cli reads: the head, or a copy with a patched config.json
        self.options = options
        self.approx_bytes = approx_bytes
        self.route = "converter"  # or "optimum", decided in prepare() once the head is on disk
        written = eagle3_converter.effective_format(options)
        self.title = f"Exporting the EAGLE-3 draft to OpenVINO ({written})"
        if written != options.weight_format:  # int4/int8 need NNCF, which EagleChat does not depend on
            self.title += (f" — NNCF is not installed, so the draft keeps 16-bit weights (about "
                           f"{staging.format_bytes(approx_bytes)} instead of roughly a third of that as int4)")

    def is_done(self) -> bool:
        try:
            folders.inspect_draft(self.final_dir)
        except folders.ModelFolderError:
            return False
        return True

    def prepare(self) -> None:
        if self.out_dir.exists():
            shutil.rmtree(self.out_dir)  # a half-written export cannot be resumed
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        staging.ensure_free_space(self.out_dir.parent, self.approx_bytes, "exporting the draft")
        try:
            read_config(self.head_dir)
            self.route = "converter"
            return
        except HeadFormatError as unknown:
            if getattr(sys, "frozen", False):  # the bundle carries no optimum-intel (nor torch) to fall back on
                raise AcquireError(
                    "{error} The standalone EagleChat cannot try optimum-intel instead. Export the draft with a "
                    "Python that has optimum-intel: {command} — then add the pair with `eagle-chat models import "
                    "TARGET_DIR DRAFT_DIR`.", error=unknown, command=folders.DRAFT_EXPORT_HINT) from None
            if export_tools_error() is not None:
                raise AcquireError("{error} optimum-intel, which could try it instead, is not installed.",
                                   error=unknown) from None
        self.route = "optimum"
        self.title = f"Exporting the EAGLE-3 draft with optimum-intel ({self.options.weight_format})"
        try:
            self.export_dir = head_for_export(self.head_dir, self.out_dir.with_name(self.out_dir.name + "-head"))
        except DraftExportError as error:
            raise AcquireError.from_error(error) from None

    def command(self) -> StepCommand:
        if self.route == "converter":
            return StepCommand(eagle3_converter.command(self.head_dir, self.out_dir, self.options), export_env())
        return StepCommand(export_command(self.export_dir, self.out_dir, self.options), export_env())

    merge_stderr = True  # optimum logs to stderr; its last line is the best progress there is

    def handle_line(self, line: str | bytes) -> Progress | None:
        self.handle_stderr(line)
        if isinstance(line, bytes):
            line = line.decode("utf-8", errors="replace")
        line = line.strip()
        if line.startswith("{"):
            return super().handle_line(line)
        return Progress(self.title, message=line[:200]) if line else None

    def finish(self, returncode: int) -> None:
        if returncode != 0:
            tool = "EagleChat's converter" if self.route == "converter" else "optimum-cli"
            raise AcquireError("Exporting the draft with {tool} failed: {detail}", tool=tool,
                               detail=self.failure_detail(returncode))
        try:
            finish_export(self.out_dir, self.target_dir)
        except DraftExportError as error:
            raise AcquireError.from_error(error) from None
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
        argv = [sys.executable, "-m", "eagle_chat.core.acquisition.verify_worker", "--target", str(self.target_dir),
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
            raise AcquireError(
                "The test run of the downloaded pair failed: {detail} The files are kept but not registered: register "
                "them anyway with `eagle-chat models import {target_dir} {draft_dir} --name {name}`, or delete them "
                "with `eagle-chat models remove {name}`.", detail=self.failure_detail(returncode),
                target_dir=self.target_dir, draft_dir=self.draft_dir, name=self.pair_name or "NAME",
            )


class DocumentModelCheckStep(Step):
    """Run a downloaded embedding model or reranker once in a child process before it is registered."""

    def __init__(self, model_dir: Path, kind: str, device: str = "CPU", *, pooling: str = "mean",
                 max_length: int = 512):
        super().__init__()
        self.model_dir, self.kind, self.device = model_dir, kind, device
        self.pooling, self.max_length = pooling, max_length
        self.title = "Checking that the embedding model works" if kind == "embedding" else \
            "Checking that the reranker works"
        self.result: dict | None = None

    def command(self) -> StepCommand:
        argv = [sys.executable, "-m", "eagle_chat.core.acquisition.document_model_worker", "--kind", self.kind,
                "--dir", str(self.model_dir), "--device", self.device, "--pooling", self.pooling,
                "--max-length", str(self.max_length)]
        return StepCommand(argv, worker_env(None, None, offline=True))

    def handle_line(self, line: str | bytes) -> Progress | None:
        event = parse_event(line)
        if event is not None and event["event"] == "result":
            self.result = event
            what = (f"{event.get('dimensions')} dimensions" if self.kind == "embedding"
                    else f"scores {event.get('scores')}")
            return Progress(self.title, message=f"It works on {event.get('device')}: {what}.")
        return super().handle_line(line)

    def finish(self, returncode: int) -> None:
        if returncode != 0 or self.result is None:
            raise AcquireError("The test run of the downloaded model in {folder} failed: {detail} The files are "
                               "kept but not registered; use the folder directly (--embedder DIR / --rerank DIR) "
                               "or delete it with `eagle-chat models remove {name}`.", folder=self.model_dir,
                               detail=self.failure_detail(returncode), name=self.model_dir.name)


def move_into_place(source: Path, destination: Path) -> None:
    """Move a finished folder to its final place (same disk: a rename). An older copy is replaced: moved aside
    in one rename first, so Windows' refusal (the older copy is loaded: its weights are memory-mapped) leaves
    it whole and the new download kept, rather than the older copy half-deleted."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    older = None
    if destination.exists():
        try:
            older = move_aside_for_deletion(destination)
        except OSError as error:
            raise AcquireError(
                "The older copy in {folder} cannot be replaced now ({error}); it is unchanged and the download is "
                "kept. A program may have a file in it open — on Windows, a loaded model: unload it or close "
                "EagleChat, then pull again.", folder=str(destination), error=error.strerror or str(error),
            ) from error
    try:
        os.replace(source, destination)
    except OSError:
        if older is not None:
            os.replace(older, destination)
        raise
    if older is not None:
        shutil.rmtree(older, ignore_errors=True)
