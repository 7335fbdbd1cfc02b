"""File safety in one place: atomic JSON writes and moving a damaged file aside.

Every file the app rewrites (settings, the model registry, download manifests) goes through
:func:`write_json_atomic`: the data is written to a temporary file in the same folder, flushed and fsync'd,
then renamed over the old file, so a crash or power loss leaves the old file or the new one, never half of
one. A file that cannot be read is kept for the user under a timestamped name by :func:`move_aside` rather
than deleted or silently overwritten.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any


def write_json_atomic(path: Path, data: Any, *, indent: int | None = 2, mode: int | None = None,
                      durable: bool = True) -> None:
    """Write ``data`` as JSON to ``path`` atomically (see :func:`write_text_atomic`); it is serialised first,
    so data that cannot be written leaves the old file and no temporary one."""
    write_text_atomic(path, json.dumps(data, indent=indent, ensure_ascii=False), mode=mode, durable=durable)


def write_text_atomic(path: Path, text: str, *, mode: int | None = None, durable: bool = True) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: temp file + fsync + rename (+ folder fsync). ``mode``
    (e.g. 0o600 for a secret) is set on the temporary file before it takes the name, so the data is never
    readable wider. ``durable=False`` skips the fsyncs: the file then survives the process dying (the OS
    has it) but not the machine losing power, for a cheap marker written on the GUI thread."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        if mode is not None:
            os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        retry_if_shared(os.replace, tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if durable:
        _fsync_dir(path.parent)


# Pauses between tries of an operation Windows refused with a sharing violation (PermissionError): an
# antivirus scanner, the search indexer or a backup tool opens new files for a moment. About 0.8 s in all.
SHARING_PAUSES_S = (0.02, 0.05, 0.1, 0.2, 0.4)


def retry_if_shared(operation, *args, **kwargs):
    """``operation(*args, **kwargs)``, tried again after a PermissionError for up to about a second."""
    for pause in SHARING_PAUSES_S:
        try:
            return operation(*args, **kwargs)
        except PermissionError:
            time.sleep(pause)
    return operation(*args, **kwargs)


def move_aside(path: Path, tag: str = "broken", *, companions: tuple[str, ...] = ()) -> Path | None:
    """Rename a damaged ``path`` to ``<name>.<tag>-YYYYmmdd-HHMMSS`` beside it; returns the new path, or
    ``None`` when it could not be moved (it is then left exactly as it was).

    ``companions`` are suffixes of files that belong to it (SQLite's ``-wal`` and ``-shm``): each one that
    exists moves with it, under the same new name plus its suffix.
    """
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    backup = path.with_name(f"{path.name}.{tag}-{stamp}")
    n = 1
    while backup.exists():
        backup = path.with_name(f"{path.name}.{tag}-{stamp}-{n}")
        n += 1
    try:
        os.replace(path, backup)
    except OSError:  # includes PermissionError on Windows when another process holds the file open
        return None
    for suffix in companions:
        source = Path(f"{path}{suffix}")
        if source.exists():
            try:
                os.replace(source, f"{backup}{suffix}")
            except OSError:
                pass  # the main file is safe; a stale companion is ignored by SQLite without its main file
    return backup


def move_aside_for_deletion(folder: Path) -> Path:
    """Rename ``folder`` to a hidden sibling in one step, to delete it after: its new path. On Windows the
    rename is refused while any file in the folder is open (a loaded model's memory-mapped weights), and then
    nothing has changed — unlike a delete, which would stop half-way."""
    aside = folder.with_name(f".{folder.name}.deleting-{os.getpid()}")
    if aside.exists():
        shutil.rmtree(aside, ignore_errors=True)
    os.replace(folder, aside)
    return aside


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable where the OS allows opening a folder (not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
