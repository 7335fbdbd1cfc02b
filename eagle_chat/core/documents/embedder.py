"""Text embeddings with OpenVINO GenAI's ``TextEmbeddingPipeline``, plus the token counts chunking needs.

OpenVINO is imported only when an :class:`OpenVinoEmbedder` is made, so importing this module costs nothing:
the ``docs`` commands make one in their own process, the server in a child process it owns
(:mod:`eagle_chat.core.documents.embed_host`); the window never does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import numpy as np

from eagle_chat.core.errors import UserError


class EmbedderError(UserError):
    """The embedding model cannot be loaded or run."""


class Embedder(Protocol):
    name: str
    dimensions: int

    def count_tokens(self, texts: list[str]) -> list[int]: ...

    def embed_documents(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray | None: ...  # None: no vectors (keyword search only)


class OpenVinoEmbedder:
    """A folder exported with ``optimum-cli export openvino --task feature-extraction``, pooled as its model
    card says (mean by default; bge: CLS; Qwen3-Embedding: last token) and L2-normalised, so a dot product is
    the cosine similarity."""

    def __init__(self, model_dir: Path, device: str = "CPU", *, pooling: str = "mean", max_length: int = 512,
                 batch_size: int = 16, query_instruction: str = ""):
        import openvino_genai as ov_genai

        model_dir = Path(model_dir)
        config = ov_genai.TextEmbeddingPipeline.Config()
        config.pooling_type = {"mean": ov_genai.TextEmbeddingPipeline.PoolingType.MEAN,
                               "cls": ov_genai.TextEmbeddingPipeline.PoolingType.CLS,
                               "last": ov_genai.TextEmbeddingPipeline.PoolingType.LAST_TOKEN}[pooling]
        config.normalize = True
        config.max_length = max_length
        config.pad_to_max_length = False
        if pooling == "last":
            config.padding_side = "left"  # the last token of every row is then a real one
        if query_instruction:
            config.query_instruction = query_instruction  # e.g. Qwen3-Embedding's "Instruct: …\nQuery: "
        try:
            self._pipe = ov_genai.TextEmbeddingPipeline(str(model_dir), device, config)
            self._tokenizer = ov_genai.Tokenizer(str(model_dir))
        except RuntimeError as error:
            raise EmbedderError("The embedding model in {path} cannot be loaded: {reason}", path=str(model_dir),
                                reason=str(error).strip().splitlines()[0] if str(error).strip() else "?") from None
        self.name = model_dir.name
        self.max_length = max_length
        self._batch = batch_size
        self.dimensions = int(self.embed_query("dimensions").shape[0])

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Tokens per text, without the special tokens the pipeline adds."""
        if not texts:
            return []
        encoded = self._tokenizer.encode(texts, add_special_tokens=False)
        mask = np.asarray(encoded.attention_mask.data)
        return [int(n) for n in mask.sum(axis=1)]

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dimensions", 0)), dtype=np.float32)
        out = []
        for start in range(0, len(texts), self._batch):
            out.append(np.asarray(self._pipe.embed_documents(texts[start:start + self._batch]), dtype=np.float32))
        return np.concatenate(out, axis=0)

    def embed_query(self, text: str) -> np.ndarray:
        return np.asarray(self._pipe.embed_query(text), dtype=np.float32)


class KeywordOnly:
    """No embedding model: the index holds no vectors and search is BM25 alone. What EagleChat uses until an
    embedder is pulled — the bundled tiny one has random weights, and its vectors would vote noise. Chunks are
    measured in estimated tokens (~4 ASCII characters or one other character each)."""

    name = "keyword-only"
    dimensions = 0

    def count_tokens(self, texts: list[str]) -> list[int]:
        return [estimate_tokens(text) for text in texts]

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return np.zeros((len(texts), 0), dtype=np.float32)

    def embed_query(self, text: str) -> None:
        return None


def estimate_tokens(text: str) -> int:
    """A generous token count without a tokenizer: ~4 ASCII characters a token, any other character one."""
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return ascii_chars // 4 + (len(text) - ascii_chars) + 1
