"""The embedder's own process (what `serve --embedder` runs): loads, embeds like the in-process pipeline,
and says in one sentence why a folder cannot be used."""

from __future__ import annotations

import numpy as np
import pytest

from eagle_chat.core.documents.embed_host import EmbeddingHost
from eagle_chat.core.documents.embedder import EmbedderError, OpenVinoEmbedder
from tests.documents.test_index import EMBEDDER_DIR


def test_the_child_embeds_as_the_pipeline_does_and_ends_with_close():
    host = EmbeddingHost(EMBEDDER_DIR)
    host.start()
    try:
        assert (host.id, host.dimensions) == ("tiny-embedder", 64)
        vectors, tokens = host.embed(["one text", "another text here"])
        reference = OpenVinoEmbedder(EMBEDDER_DIR)
        assert np.allclose(vectors, reference.embed_documents(["one text", "another text here"]), atol=1e-5)
        assert tokens == sum(reference.count_tokens(["one text", "another text here"]))
        process = host._process
    finally:
        host.close()
    assert not process.is_alive()


def test_a_missing_folder_and_a_folder_without_a_model_are_one_sentence_each(tmp_path):
    with pytest.raises(EmbedderError, match="There is no embedding model folder"):
        EmbeddingHost(tmp_path / "nowhere").start()
    with pytest.raises(EmbedderError, match=r"The embedding model in .* cannot be loaded"):
        EmbeddingHost(tmp_path).start()


def test_a_registered_folder_runs_with_its_registered_pooling(tmp_path):
    import shutil

    from eagle_chat.core.models.document_models import DocumentModel, DocumentModelRegistry

    folder = shutil.copytree(EMBEDDER_DIR, tmp_path / "cls-embedder")
    DocumentModelRegistry().add(DocumentModel(name="cls-embedder", kind="embedding", model_dir=str(folder),
                                              pooling="cls"))
    host = EmbeddingHost(folder)
    host.start()
    try:
        vectors, _ = host.embed(["one text", "another text here"])
    finally:
        host.close()
    cls = OpenVinoEmbedder(folder, pooling="cls").embed_documents(["one text", "another text here"])
    mean = OpenVinoEmbedder(folder).embed_documents(["one text", "another text here"])
    assert np.allclose(vectors, cls, atol=1e-5) and not np.allclose(vectors, mean, atol=1e-3)
