"""Download one model repository into a folder — run as a child process, never imported by the app.

    python -m eagle_chat.core.download_worker --source hf --repo OpenVINO/Qwen3-8B-int4-ov --dest DIR
        [--revision main] [--endpoint URL] [--exclude PATTERN ...]

Why a process: neither hub client can be cancelled cleanly from inside, and a process can always be
killed. Killing it at any moment is safe: the next run with the same ``--dest`` resumes (finished files are
kept, a half-transferred file continues from its last byte with an HTTP Range request) and nothing is ever
called finished until every file matches the size and hash the hub lists.

Output is one JSON object per line on stdout (see :mod:`eagle_chat.core.worker_events`)::

    {"event": "start", "repo": ..., "files": 12, "total": 4800000000, "present": 0}
    {"event": "progress", "done": ..., "total": ..., "speed": 1.2e7, "eta": 380.0, "file": "openvino_model.bin"}
    {"event": "verifying", "file": ...}
    {"event": "done", "total": ..., "files": 12}
    {"event": "error", "kind": "space|integrity|not_found|network|missing_client|other", "message": ...}

Exit status 0 means the folder is complete and verified; anything else means it is not. The Hugging Face
endpoint comes from ``--endpoint`` or ``HF_ENDPOINT``; ModelScope's from ``--endpoint`` or
``MODELSCOPE_ENDPOINT``. Telemetry switches are set before any hub client is imported.
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("MODELSCOPE_DOWNLOAD_TOTAL_TIMEOUT", str(7 * 24 * 3600))  # default 1 h per file

from eagle_chat.core import staging  # noqa: E402 - after the environment switches
from eagle_chat.core.staging import Manifest, RemoteFile, StagingError  # noqa: E402
from eagle_chat.core.worker_events import Emitter  # noqa: E402

DEFAULT_EXCLUDES = (".gitattributes",)
HF_DEFAULT_ENDPOINT = "https://huggingface.co"
MS_DEFAULT_ENDPOINT = "https://www.modelscope.cn"


class WorkerError(RuntimeError):
    def __init__(self, kind: str, message: str):
        super().__init__(message)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eagle_chat.core.download_worker")
    parser.add_argument("--source", choices=["hf", "modelscope"], required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--revision")
    parser.add_argument("--dest", type=Path, required=True)
    parser.add_argument("--endpoint")
    parser.add_argument("--exclude", action="append", default=[])
    args = parser.parse_args(argv)
    emit = Emitter()
    signal.signal(signal.SIGTERM, _exit_on_signal)
    args.dest.mkdir(parents=True, exist_ok=True)
    excludes = list(DEFAULT_EXCLUDES) + args.exclude
    try:
        if args.source == "hf":
            download_hf(args.repo, args.revision or "main", args.dest, args.endpoint, excludes, emit)
        else:
            download_modelscope(args.repo, args.revision or "master", args.dest, args.endpoint, excludes, emit)
    except WorkerError as error:
        emit("error", kind=error.kind, message=str(error))
        return 1
    except staging.NotEnoughSpaceError as error:
        emit("error", kind="space", message=str(error))
        return 1
    except StagingError as error:
        emit("error", kind="integrity", message=str(error))
        return 1
    except KeyboardInterrupt:
        emit("error", kind="cancelled", message="The download was stopped; start it again to resume.")
        return 130
    except Exception as error:  # noqa: BLE001 - the parent needs a message, never a silent death
        emit("error", kind="other", message=f"The download failed: {type(error).__name__}: {error}")
        return 1
    return 0


def _exit_on_signal(signum, frame):
    raise KeyboardInterrupt


# -- shared steps ---------------------------------------------------------------------------------------


def _prepare(dest: Path, source: str, repo: str, revision: str, commit: str | None,
             files: list[RemoteFile], excludes: list[str], emit: Emitter) -> tuple[Manifest, int]:
    """Write the manifest for this listing, drop stale partial files, check free space. Returns (manifest, done)."""
    files = [f for f in files if not any(fnmatch.fnmatch(f.path, pattern) for pattern in excludes)]
    for remote in files:
        remote.check_path()
    if not files:
        raise WorkerError("not_found", f"The repository {repo} has no files to download.")
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


def _finish(dest: Path, manifest: Manifest, meter: ProgressMeter, emit: Emitter) -> None:
    for remote in manifest.files:
        if remote.path not in manifest.verified:
            emit("verifying", file=remote.path)
            _verify_or_delete(dest / remote.path, remote, manifest.repo)
            manifest.verified.append(remote.path)
    manifest.complete = True
    staging.write_manifest(dest, manifest)
    partial = dest / staging.META_DIR / staging.PARTIAL_DIR
    if partial.is_dir():
        shutil.rmtree(partial, ignore_errors=True)
    meter.set_done(manifest.total_bytes)
    emit("done", total=manifest.total_bytes, files=len(manifest.files))


def _verify_or_delete(path: Path, remote: RemoteFile, repo: str) -> None:
    try:
        staging.check_file(path, remote, repo)
    except StagingError:
        path.unlink(missing_ok=True)
        raise


# -- Hugging Face ---------------------------------------------------------------------------------------


def download_hf(repo: str, revision: str, dest: Path, endpoint: str | None, excludes: list[str],
                emit: Emitter) -> None:
    """Download through huggingface_hub (its API client, file metadata and HTTP session), file by file.

    ``snapshot_download`` is not used on purpose: huggingface_hub 1.x writes each file to a process-unique
    temporary name, deletes it on failure and reads in 10 MB pieces, so after a kill or a dropped
    connection a multi-GB file starts again from zero. Here each file goes to a fixed ``.part`` path in
    writes as the bytes arrive, and every new attempt — a retry here or a later run — asks for the rest with ``Range``.
    """
    try:
        import httpx
        from huggingface_hub import HfApi, constants
        from huggingface_hub import errors as hf_errors
        from huggingface_hub.file_download import get_hf_file_metadata, hf_hub_url
        from huggingface_hub.utils import build_hf_headers, get_session
    except ImportError:
        raise WorkerError(
            "missing_client",
            f"Downloading from Hugging Face needs the huggingface-hub package: {sys.executable} -m pip install "
            "'huggingface-hub>=1.5,<2'",
        ) from None
    endpoint = (endpoint or constants.ENDPOINT or HF_DEFAULT_ENDPOINT).rstrip("/")
    try:
        info = HfApi(endpoint=endpoint, library_name="eagle-chat").model_info(
            repo, revision=revision, files_metadata=True
        )
    except hf_errors.GatedRepoError:
        raise WorkerError("not_found", f"{repo} is gated: accept its terms on the hub's web page, then log in "
                                       "with `hf auth login` and try again.") from None
    except hf_errors.RepositoryNotFoundError:
        raise WorkerError("not_found", f"The repository {repo} was not found on {endpoint}. Check the name "
                                       "(and the mirror setting), or log in with `hf auth login` if it is "
                                       "private.") from None
    except hf_errors.RevisionNotFoundError:
        raise WorkerError("not_found", f"{repo} has no revision {revision!r} on {endpoint}.") from None
    except (httpx.HTTPError, hf_errors.HfHubHTTPError) as error:
        raise WorkerError("network", _network_message(endpoint, error)) from None
    files = [
        RemoteFile(
            path=s.rfilename,
            size=int(s.lfs.size if s.lfs else (s.size or 0)),
            sha256=s.lfs.sha256 if s.lfs else None,
            git_sha1=None if s.lfs else s.blob_id,
        )
        for s in (info.siblings or [])
    ]
    manifest, present = _prepare(dest, "hf", repo, revision, info.sha, files, excludes, emit)
    meter = ProgressMeter(emit, manifest.total_bytes, done=present)
    headers = build_hf_headers(library_name="eagle-chat")
    session = get_session()
    for remote in manifest.files:
        if remote.path in manifest.verified:
            continue
        target = dest / remote.path
        part = staging.partial_path(dest, remote.path)
        part.parent.mkdir(parents=True, exist_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        meter.start_file(remote.path)
        url = hf_hub_url(repo, remote.path, revision=info.sha or revision, endpoint=endpoint)

        def locate(url=url, remote=remote) -> tuple[str, dict]:
            """Where the bytes are now: large files redirect to a signed CDN address that expires."""
            metadata = get_hf_file_metadata(url, headers=dict(headers), endpoint=endpoint)
            if metadata.size is not None and metadata.size != remote.size:
                raise WorkerError("integrity", f"The hub lists {remote.path} of {repo} with two different sizes "
                                               f"({remote.size:,} and {metadata.size:,}); try again later.")
            location = metadata.location or url
            return location, (dict(headers) if _same_host(location, url) else {})

        try:
            with part.open("ab") as handle:
                _transfer(session, locate, handle, remote, meter, httpx)
        except (httpx.HTTPError, hf_errors.HfHubHTTPError) as error:
            raise WorkerError("network", _network_message(endpoint, error)) from None
        emit("verifying", file=remote.path)
        _verify_or_delete(part, remote, repo)
        os.replace(part, target)
        manifest.verified.append(remote.path)
        staging.write_manifest(dest, manifest)
    _finish(dest, manifest, meter, emit)


TRANSFER_RETRIES = 5


def _transfer(session, locate, handle, remote: RemoteFile, meter: ProgressMeter, httpx) -> None:
    """Append the rest of ``remote`` to ``handle`` (opened for appending), resuming after dropped connections.

    Each attempt asks ``locate()`` for the current address and asks only for the bytes not yet written; at
    most ``TRANSFER_RETRIES`` attempts in a row may fail without new bytes. A server that ignores ``Range``
    and sends the whole file again is handled by starting the file over.
    """
    from huggingface_hub.errors import HfHubHTTPError
    from huggingface_hub.utils import hf_raise_for_status

    failures = 0
    if handle.tell() > remote.size:  # longer than the file: not a prefix of it
        meter.add(-handle.tell())
        handle.truncate(0)
    while handle.tell() < remote.size:
        offset = handle.tell()
        try:
            url, headers = locate()
            request_headers = {**headers, "Accept-Encoding": "identity"}
            if offset:
                request_headers["Range"] = f"bytes={offset}-"
            with session.stream("GET", url, headers=request_headers, follow_redirects=True,
                                timeout=httpx.Timeout(60.0, connect=20.0)) as response:
                hf_raise_for_status(response)
                if offset and response.status_code != 206:
                    handle.truncate(0)
                    meter.add(-offset)
                for chunk in response.iter_bytes():  # as received: a dropped link loses nothing written
                    if handle.tell() + len(chunk) > remote.size:
                        raise WorkerError("integrity", f"The server sent more than the {remote.size:,} bytes "
                                                       f"listed for {remote.path}; try again later.")
                    handle.write(chunk)
                    meter.add(len(chunk))
                    failures = 0
        except (httpx.TransportError, HfHubHTTPError) as error:
            status = getattr(getattr(error, "response", None), "status_code", None)
            if status in (401, 404):  # not there or not allowed: retrying will not help
                raise
            failures += 1
            if failures > TRANSFER_RETRIES:
                raise
            print(f"transfer of {remote.path} interrupted ({error}); resuming", file=sys.stderr, flush=True)
            time.sleep(min(2 ** (failures - 1), 20))


def _same_host(a: str, b: str) -> bool:
    return urlsplit(a).netloc == urlsplit(b).netloc


def _network_message(endpoint: str, error: BaseException) -> str:
    return (f"Could not download from {endpoint} ({type(error).__name__}: {error}). Check the network "
            "connection and the mirror setting, then start the download again — it resumes where it stopped.")


# -- ModelScope -----------------------------------------------------------------------------------------


def download_modelscope(repo: str, revision: str, dest: Path, endpoint: str | None, excludes: list[str],
                        emit: Emitter) -> None:
    """Download through ModelScope's own client (``modelscope_hub``), which resumes its ``.incomplete``
    files with Range requests and checks SHA-256 itself; the result is checked again here."""
    os.environ.setdefault("MODELSCOPE_DOWNLOAD_PARALLEL_WORKERS", "1")  # one stream: resumable, no merge copy
    os.environ.setdefault("MODELSCOPE_DOWNLOAD_INTRA_CLOUD", "false")  # no region probe: a desktop app
    try:
        from modelscope_hub import HubApi, ProgressCallback
        from modelscope_hub import errors as ms_errors
    except ImportError:
        raise WorkerError(
            "missing_client",
            f"Downloading from ModelScope needs the modelscope-hub package: {sys.executable} -m pip install "
            "'modelscope-hub>=0.5'",
        ) from None
    endpoint = (endpoint or os.environ.get("MODELSCOPE_ENDPOINT") or MS_DEFAULT_ENDPOINT).rstrip("/")
    api = HubApi(endpoint=endpoint)
    try:
        listing = api.list_repo_files(repo, "model", revision=revision, recursive=True)
    except ms_errors.NotExistError:
        raise WorkerError("not_found", f"The repository {repo} (revision {revision}) was not found on "
                                       f"{endpoint}. Check the name and the endpoint setting.") from None
    except Exception as error:  # noqa: BLE001 - the client raises many network error types
        raise WorkerError("network", _network_message(endpoint, error)) from None
    files = [RemoteFile(path=f.path, size=int(f.size or 0), sha256=f.sha256 or None)
             for f in listing if not f.is_dir]
    manifest, present = _prepare(dest, "modelscope", repo, revision, None, files, excludes, emit)
    # ModelScope's callbacks report the bytes of a resumed .incomplete file themselves, so start from the
    # finished files only.
    finished = sum(f.size for f in manifest.files if f.path in manifest.verified)
    meter = ProgressMeter(emit, manifest.total_bytes, done=finished)

    class _Callback(ProgressCallback):
        def __init__(self, filename: str, file_size: int):
            super().__init__(filename, file_size)
            meter.start_file(filename)

        def update(self, size: int) -> None:
            meter.add(size)

    todo = [{"Path": f.path, "Size": f.size, "Sha256": f.sha256} for f in manifest.files
            if f.path not in manifest.verified]
    try:
        api.download_repo(repo, "model", revision=revision, local_dir=dest, max_workers=1,
                          progress_callbacks=[_Callback], file_list=todo)
    except ms_errors.FileIntegrityError as error:
        raise WorkerError("integrity", f"A file of {repo} arrived damaged ({error}) even after retries; it was "
                                       "not kept. Try again later or use another source.") from None
    except ms_errors.HubError as error:
        failed = getattr(error, "failed_files", None) or {}
        if any(isinstance(e, ms_errors.FileIntegrityError) for e in failed.values()):
            names = ", ".join(p for p, e in failed.items() if isinstance(e, ms_errors.FileIntegrityError))
            raise WorkerError("integrity", f"{names} of {repo} arrived damaged even after retries and "
                                           "were not kept. Try again later or use another source.") from None
        raise WorkerError("network", _network_message(endpoint, error)) from None
    _finish(dest, manifest, meter, emit)


if __name__ == "__main__":
    sys.exit(main())
