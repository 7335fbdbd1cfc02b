"""What a download folder holds besides the model, and how it is checked before it becomes a model.

A repository is downloaded into a staging folder (under ``paths.staging_dir()``). Next to the files the
download worker keeps ``.eagle-chat/manifest.json`` — the hub's list of files with their sizes and hashes
(SHA-256 for large files; the git blob SHA-1 for small Hugging Face files) and whether the worker verified
them — and, for Hugging Face, the partly transferred files under ``.eagle-chat/partial/`` so that a later
run resumes them where they stopped. ModelScope's client keeps its own ``*.incomplete`` files beside the
targets for the same purpose.

Only a folder whose manifest is complete and whose files all match it is moved into place; this module
never imports a hub client, so the app process can check folders without network code.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from eagle_chat.core.errors import UserError
from eagle_chat.core.files import write_json_atomic

META_DIR = ".eagle-chat"
MANIFEST = "manifest.json"
PARTIAL_DIR = "partial"
FREE_SPACE_MARGIN = 256 * 1024 * 1024  # keep some room for the OS and the app's own files
HASH_BLOCK = 4 * 1024 * 1024


class StagingError(UserError):
    """A download folder is incomplete or damaged; the message says what and what to do."""


class NotEnoughSpaceError(StagingError):
    """There is not enough free disk space for what is about to be written."""


@dataclass(frozen=True)
class RemoteFile:
    """One file of a hub repository as its listing describes it."""

    path: str
    size: int
    sha256: str | None = None
    git_sha1: str | None = None

    def check_path(self) -> None:
        parts = Path(self.path).parts
        if Path(self.path).is_absolute() or ".." in parts or not parts or parts[0] == META_DIR:
            raise StagingError("The hub listed a file with an unsafe name ({path!r}); the download stopped.",
                               path=self.path)


@dataclass
class Manifest:
    source: str
    repo: str
    revision: str
    commit: str | None
    files: list[RemoteFile]
    verified: list[str] = field(default_factory=list)  # paths whose size and hash the worker checked
    complete: bool = False

    @property
    def total_bytes(self) -> int:
        return sum(f.size for f in self.files)

    def to_json(self) -> dict:
        return {**asdict(self), "files": [asdict(f) for f in self.files]}

    @classmethod
    def from_json(cls, data: dict) -> "Manifest":
        return cls(
            source=data["source"],
            repo=data["repo"],
            revision=data["revision"],
            commit=data.get("commit"),
            files=[RemoteFile(**f) for f in data["files"]],
            verified=list(data.get("verified", [])),
            complete=bool(data.get("complete", False)),
        )


def manifest_path(folder: Path) -> Path:
    return folder / META_DIR / MANIFEST


def partial_path(folder: Path, rel: str) -> Path:
    return folder / META_DIR / PARTIAL_DIR / f"{rel}.part"


def read_manifest(folder: Path) -> Manifest | None:
    try:
        return Manifest.from_json(json.loads(manifest_path(folder).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_manifest(folder: Path, manifest: Manifest) -> None:
    write_json_atomic(manifest_path(folder), manifest.to_json(), indent=1)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def git_blob_sha1_file(path: Path) -> str:
    """The git object id of a file (what the hub lists as ``blobId`` for files not stored in LFS)."""
    digest = hashlib.sha1(b"blob %d\0" % path.stat().st_size)
    with path.open("rb") as handle:
        while block := handle.read(HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def check_file(path: Path, remote: RemoteFile, repo: str) -> None:
    """Raise StagingError unless ``path`` has the size and hash the hub listed for it."""
    if not path.is_file():
        raise StagingError("{path} from {repo} is missing; download the model again.", path=remote.path, repo=repo)
    size = path.stat().st_size
    if size != remote.size:
        raise StagingError(
            "{path} from {repo} has {size:,} bytes but the hub lists {listed:,}; the transfer was cut short or "
            "changed. Download the model again.", path=remote.path, repo=repo, size=size, listed=remote.size,
        )
    # The hub lists a SHA-256 for LFS files and a git blob hash for the others.
    kind, listed, digest = (
        ("SHA-256", remote.sha256, sha256_file) if remote.sha256 else ("git hash", remote.git_sha1, git_blob_sha1_file)
    )
    if listed:
        actual = digest(path)
        if actual != listed:
            raise StagingError(
                "{path} from {repo} is damaged: its {kind} is {actual}… but the hub lists {listed}…. The damaged "
                "copy was deleted; download the model again.",
                path=remote.path, repo=repo, kind=kind, actual=actual[:12], listed=listed[:12],
            )


def verify_folder(folder: Path) -> Manifest:
    """Check a finished download: the manifest is complete and every listed file has its listed size.

    The hashes were checked by the download worker as each file arrived (``Manifest.verified``); here
    every file must be listed as verified and still have its size, which is cheap even for 5 GB models.
    Raises StagingError with a sentence for the user.
    """
    manifest = read_manifest(folder)
    if manifest is None:
        raise StagingError("The download in {folder} has no manifest; it did not finish. Start it again.",
                           folder=folder)
    if not manifest.complete:
        raise StagingError("The download of {repo} did not finish. Start it again to resume.", repo=manifest.repo)
    verified = set(manifest.verified)
    for remote in manifest.files:
        path = folder / remote.path
        if remote.path not in verified:
            raise StagingError("{path} from {repo} was not verified; download the model again.",
                               path=remote.path, repo=manifest.repo)
        if not path.is_file() or path.stat().st_size != remote.size:
            raise StagingError(
                "{path} from {repo} is missing or has the wrong size; download the model again.",
                path=remote.path, repo=manifest.repo
            )
    return manifest


def present_bytes(folder: Path, manifest: Manifest | None) -> int:
    """Bytes already on disk for a download (finished files plus partial ones), for resume and space checks."""
    if manifest is None:
        return 0
    done = 0
    for remote in manifest.files:
        for candidate in (folder / remote.path, partial_path(folder, remote.path),
                          folder / f"{remote.path}.incomplete"):
            if candidate.is_file():
                done += min(candidate.stat().st_size, remote.size)
                break
    return done


def free_bytes(folder: Path) -> int:
    """Free space on the disk holding ``folder`` (the nearest existing parent)."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return shutil.disk_usage(probe).free


def ensure_free_space(folder: Path, needed: int, what: str) -> None:
    """Raise NotEnoughSpaceError if writing ``needed`` more bytes under ``folder`` would fill the disk."""
    free = free_bytes(folder)
    if needed + FREE_SPACE_MARGIN > free:
        raise NotEnoughSpaceError(
            "Not enough free disk space for {what}: it needs {needed} more in {folder}, but only {free} are free "
            "(EagleChat keeps {margin} spare). Free some space, or keep models on a larger disk with `--home DIR`.",
            what=what, needed=format_bytes(needed), folder=folder, free=format_bytes(free),
            margin=format_bytes(FREE_SPACE_MARGIN),
        )


def format_bytes(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if abs(n) < 1000 or unit == "TB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000.0
    return f"{n:.1f} TB"
