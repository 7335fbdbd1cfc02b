"""Windows' refusal to delete or rename a file another program holds open (a loaded model's memory-mapped
.bin), and a folder that holds one, reproduced on Linux by wrapping os.unlink / os.rename / os.replace."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest


class WindowsLocks:
    def __init__(self) -> None:
        self.names: set[str] = set()  # file names (any folder) held open by "another program"
        # file name or suffix -> how many more times it is refused (a scanner's brief look)
        self.busy: dict[str, int] = {}
        self.refused: list[str] = []

    def _held(self, path) -> bool:
        path = Path(os.fsdecode(path))
        if path.name in self.names:
            return True
        for key in (path.name, path.suffix):
            if self.busy.get(key, 0) > 0:
                self.busy[key] -= 1
                return True
        return path.is_dir() and any(p.name in self.names for p in path.rglob("*"))

    def refuse(self, path) -> None:
        self.refused.append(os.fsdecode(path))
        raise PermissionError(errno.EACCES, "The process cannot access the file because it is being used by "
                              "another process", os.fsdecode(path))


@pytest.fixture
def windows_locks(monkeypatch) -> WindowsLocks:
    locks = WindowsLocks()
    real_unlink, real_rename, real_replace = os.unlink, os.rename, os.replace

    def unlink(path, *args, **kwargs):
        if locks._held(path):
            locks.refuse(path)
        return real_unlink(path, *args, **kwargs)

    def rename(src, dst, *args, **kwargs):
        if locks._held(src):
            locks.refuse(src)
        return real_rename(src, dst, *args, **kwargs)

    def replace(src, dst, *args, **kwargs):
        if locks._held(src):
            locks.refuse(src)
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    monkeypatch.setattr(os, "remove", unlink)
    monkeypatch.setattr(os, "rename", rename)
    monkeypatch.setattr(os, "replace", replace)
    return locks
