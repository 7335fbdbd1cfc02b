"""The two hubs' transfers, file by file with resume: Hugging Face and ModelScope (run in the download worker)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

from eagle_chat.core.acquisition import staging
from eagle_chat.core.acquisition.download_files import (
    ProgressMeter,
    WorkerError,
    finish,
    prepare,
    verify_or_delete,
)
from eagle_chat.core.acquisition.protocol import Emitter
from eagle_chat.core.acquisition.staging import RemoteFile

HF_DEFAULT_ENDPOINT = "https://huggingface.co"
MS_DEFAULT_ENDPOINT = "https://www.modelscope.cn"



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
            "Downloading from Hugging Face needs the huggingface-hub package: {executable} -m pip install "
            "'huggingface-hub>=1.5,<2'", executable=sys.executable, kind="missing_client"
        ) from None
    endpoint = (endpoint or constants.ENDPOINT or HF_DEFAULT_ENDPOINT).rstrip("/")
    try:
        info = HfApi(endpoint=endpoint, library_name="eagle-chat").model_info(
            repo, revision=revision, files_metadata=True
        )
    except hf_errors.GatedRepoError:
        raise WorkerError("{repo} is gated: accept its terms on the hub's web page, then log in with `hf auth login` "
                          "and try again.", repo=repo, kind="not_found") from None
    except hf_errors.RepositoryNotFoundError:
        raise WorkerError("The repository {repo} was not found on {endpoint}. Check the name (and the mirror "
                          "setting), or log in with `hf auth login` if it is private.",
                          repo=repo, endpoint=endpoint, kind="not_found") from None
    except hf_errors.RevisionNotFoundError:
        raise WorkerError("{repo} has no revision {revision!r} on {endpoint}.",
                          repo=repo, revision=revision, endpoint=endpoint, kind="not_found") from None
    except (httpx.HTTPError, hf_errors.HfHubHTTPError) as error:
        raise _network_error(endpoint, error) from None
    files = [
        RemoteFile(
            path=s.rfilename,
            size=int(s.lfs.size if s.lfs else (s.size or 0)),
            sha256=s.lfs.sha256 if s.lfs else None,
            git_sha1=None if s.lfs else s.blob_id,
        )
        for s in (info.siblings or [])
    ]
    manifest, present = prepare(dest, "hf", repo, revision, info.sha, files, excludes, emit)
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
                raise WorkerError("The hub lists {path} of {repo} with two different sizes ({size:,} and "
                                  "{other_size:,}); try again later.", path=remote.path, repo=repo,
                                  size=remote.size, other_size=metadata.size, kind="integrity")
            location = metadata.location or url
            return location, (dict(headers) if _same_host(location, url) else {})

        try:
            with part.open("ab") as handle:
                _transfer(session, locate, handle, remote, meter, httpx)
        except (httpx.HTTPError, hf_errors.HfHubHTTPError) as error:
            raise _network_error(endpoint, error) from None
        emit("verifying", file=remote.path)
        verify_or_delete(part, remote, repo)
        os.replace(part, target)
        manifest.verified.append(remote.path)
        staging.write_manifest(dest, manifest)
    finish(dest, manifest, meter, emit)


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
                        raise WorkerError("The server sent more than the {size:,} bytes listed for {path}; try again "
                                          "later.", size=remote.size, path=remote.path, kind="integrity")
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


def _network_error(endpoint: str, error: BaseException) -> WorkerError:
    return WorkerError("Could not download from {endpoint} ({type}: {error}). Check the network connection and the "
                       "mirror setting, then start the download again — it resumes where it stopped.",
                       endpoint=endpoint, type=type(error).__name__, error=error, kind="network")


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
            "Downloading from ModelScope needs the modelscope-hub package: {executable} -m pip install "
            "'modelscope-hub>=0.5'", executable=sys.executable, kind="missing_client"
        ) from None
    endpoint = (endpoint or os.environ.get("MODELSCOPE_ENDPOINT") or MS_DEFAULT_ENDPOINT).rstrip("/")
    api = HubApi(endpoint=endpoint)
    try:
        listing = api.list_repo_files(repo, "model", revision=revision, recursive=True)
    except ms_errors.NotExistError:
        raise WorkerError("The repository {repo} (revision {revision}) was not found on {endpoint}. Check the name "
                          "and the endpoint setting.",
                          repo=repo, revision=revision, endpoint=endpoint, kind="not_found") from None
    except Exception as error:  # noqa: BLE001 - the client raises many network error types
        raise _network_error(endpoint, error) from None
    files = [RemoteFile(path=f.path, size=int(f.size or 0), sha256=f.sha256 or None)
             for f in listing if not f.is_dir]
    manifest, present = prepare(dest, "modelscope", repo, revision, None, files, excludes, emit)
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
        raise WorkerError("A file of {repo} arrived damaged ({error}) even after retries; it was not kept. Try again "
                          "later or use another source.", repo=repo, error=error, kind="integrity") from None
    except ms_errors.HubError as error:
        failed = getattr(error, "failed_files", None) or {}
        if any(isinstance(e, ms_errors.FileIntegrityError) for e in failed.values()):
            names = ", ".join(p for p, e in failed.items() if isinstance(e, ms_errors.FileIntegrityError))
            raise WorkerError("{names} of {repo} arrived damaged even after retries and were not kept. Try again "
                              "later or use another source.", names=names, repo=repo, kind="integrity") from None
        raise _network_error(endpoint, error) from None
    finish(dest, manifest, meter, emit)
