"""The list of POSIX-only test files (tests/conftest.py) names files that exist, so a rename cannot drop one
silently and let it fail on Windows."""

from __future__ import annotations

from tests.conftest import POSIX_ONLY_FILES, ROOT_DIR


def test_every_posix_only_file_exists():
    assert sorted(f for f in POSIX_ONLY_FILES if not (ROOT_DIR / f).is_file()) == []
