"""The documents tests' fixtures: the tiny embedder (loaded once per module) and an empty index per test."""

from __future__ import annotations

import pytest

from eagle_chat.core.documents.store import DocumentStore
from tests.conftest import MODELS_DIR

EMBEDDER_DIR = MODELS_DIR / "tiny-embedder"


@pytest.fixture(scope="module")
def embedder():
    from eagle_chat.core.documents.embedder import OpenVinoEmbedder

    return OpenVinoEmbedder(EMBEDDER_DIR)


@pytest.fixture
def store(tmp_path):
    s = DocumentStore(tmp_path / "documents.sqlite3")
    yield s
    s.close()
