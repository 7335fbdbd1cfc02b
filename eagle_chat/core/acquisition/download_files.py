"""What every hub download shares: progress metering, the manifest before and the checks after.

Used by :mod:`.hub_clients` inside the download worker process."""

from __future__ import annotations

import collections
import fnmatch
import shutil
import threading
import time
from pathlib import Path

from eagle_chat.core.acquisition import staging
from eagle_chat.core.acquisition.protocol import Emitter
from eagle_chat.core.acquisition.staging import Manifest, RemoteFile, StagingError
from eagle_chat.core.errors import UserError


class WorkerError(UserError):
    """A download failed in a way the user can act on; ``kind`` tells the parent which (see the protocol)."""

    def __init__(self, template: str, /, *, kind: str, **params):
        super().__init__(template, **params)
        self.kind = kind


class ProgressMeter:
    """Bytes done of total, with speed over the last few seconds and an ETA; emits at most 5 times a second."""

    def __init__(self, emit: Emitter, total: int, done: int = 0, interval: float = 0.2, window: float = 4.0):
        self.emit = emit
        self.total = total
        self.done = done
        self.file = ""
        self._interval = interval
        self._window = window
        self._samples: collections.deque[tuple[float, int]] = collections.deque([(time.monotonic(), done)])
        self._last_emit = 0.0
        self._lock = threading.Lock()

    def start_file(self, name: str) -> None:
        with self._lock:
            self.file = name
        self.flush(force=True)

    def add(self, n: int) -> None:
        with self._lock:
            self.done += n
        self.flush()

    def set_done(self, done: int) -> None:
        with self._lock:
            self.done = done
        self.flush(force=True)

    def speed(self) -> float:
        now = time.monotonic()
        with self._lock:
            self._samples.append((now, self.done))
            while len(self._samples) > 2 and now - self._samples[0][0] > self._window:
                self._samples.popleft()
            t0, d0 = self._samples[0]
            return (self.done - d0) / (now - t0) if now - t0 > 0.05 else 0.0

    def flush(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last_emit < self._interval:
            return
        self._last_emit = now
        speed = self.speed()
        remaining = max(self.total - self.done, 0)
        eta = remaining / speed if speed > 0 else None
        self.emit("progress", done=self.done, total=self.total, speed=round(speed, 1),
                  eta=None if eta is None else round(eta, 1), file=self.file)


# -- shared steps ---------------------------------------------------------------------------------------


def prepare(dest: Path, source: str, repo: str, revision: str, commit: str | None,
             files: list[RemoteFile], excludes: list[str], emit: Emitter) -> tuple[Manifest, int]:
    """Write the manifest for this listing, drop stale partial files, check free space. Returns (manifest, done)."""
    files = [f for f in files if not any(fnmatch.fnmatch(f.path, pattern) for pattern in excludes)]
    for remote in files:
        remote.check_path()
    if not files:
        raise WorkerError("The repository {repo} has no files to download.", repo=repo, kind="not_found")
    old = staging.read_manifest(dest)
    listed = {f.path: f for f in files}
    verified = []
    if old is not None:
        for previous in old.files:
            if listed.get(previous.path) != previous:  # changed upstream: its bytes on disk are stale
                staging.partial_path(dest, previous.path).unlink(missing_ok=True)
                (dest / f"{previous.path}.incomplete").unlink(missing_ok=True)
                if previous.path in old.verified:
                    (dest / previous.path).unlink(missing_ok=True)
            elif previous.path in old.verified and (dest / previous.path).is_file() \
                    and (dest / previous.path).stat().st_size == previous.size:
                verified.append(previous.path)
    manifest = Manifest(source, repo, revision, commit, files, verified=verified, complete=False)
    staging.write_manifest(dest, manifest)
    present = staging.present_bytes(dest, manifest)
    staging.ensure_free_space(dest, manifest.total_bytes - present, f"downloading {repo}")
    emit("start", repo=repo, source=source, files=len(files), total=manifest.total_bytes, present=present)
    return manifest, present


def finish(dest: Path, manifest: Manifest, meter: ProgressMeter, emit: Emitter) -> None:
    for remote in manifest.files:
        if remote.path not in manifest.verified:
            emit("verifying", file=remote.path)
            verify_or_delete(dest / remote.path, remote, manifest.repo)
            manifest.verified.append(remote.path)
    manifest.complete = True
    staging.write_manifest(dest, manifest)
    partial = dest / staging.META_DIR / staging.PARTIAL_DIR
    if partial.is_dir():
        shutil.rmtree(partial, ignore_errors=True)
    meter.set_done(manifest.total_bytes)
    emit("done", total=manifest.total_bytes, files=len(manifest.files))


def verify_or_delete(path: Path, remote: RemoteFile, repo: str) -> None:
    try:
        staging.check_file(path, remote, repo)
    except StagingError:
        path.unlink(missing_ok=True)
        raise
