"""Reranking passages for a query with OpenVINO GenAI's ``TextRerankPipeline`` (a cross-encoder).

A folder exported with ``optimum-cli export openvino --task text-classification`` whose tokenizer outputs
``token_type_ids`` (BERT-style: bge-reranker-base does). OpenVINO is imported only when one is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from eagle_chat.core.documents.embedder import EmbedderError


class Reranker(Protocol):
    name: str

    def rerank(self, query: str, texts: list[str]) -> list[tuple[int, float]]: ...


class OpenVinoReranker:
    """Scores one passage per pipeline call. Batched calls corrupt the heap here (openvino-tokenizers
    2026.4.1, the tiny test reranker): a ``rerank`` of 3 or more passages aborts the process with "free():
    corrupted unsorted chunks", or raises "Check 'out_offset <= flat_out_size' failed" in the tokenizer's
    CombineSegments, deterministically, while 300 single-passage calls of 1 to 1,166 tokens all worked. A
    cross-encoder reads every pair in full anyway, so batching saves little; whether real rerankers' tokenizers
    share the bug was not checked (none could be downloaded here)."""

    def __init__(self, model_dir: Path, device: str = "CPU", *, max_length: int = 512):
        import openvino_genai as ov_genai

        model_dir = Path(model_dir)
        config = ov_genai.TextRerankPipeline.Config()
        config.max_length = max_length
        config.top_n = 1
        try:
            self._pipe = ov_genai.TextRerankPipeline(str(model_dir), device, config)
        except RuntimeError as error:
            raise EmbedderError("The reranker in {path} cannot be loaded: {reason}", path=str(model_dir),
                                reason=str(error).strip().splitlines()[0] if str(error).strip() else "?") from None
        self.name = model_dir.name

    def rerank(self, query: str, texts: list[str]) -> list[tuple[int, float]]:
        """(index into ``texts``, score) for every text, best first; equal scores keep the given order."""
        scored: list[tuple[int, float]] = []
        try:
            for index, text in enumerate(texts):
                (_, score), = self._pipe.rerank(query, [text])
                scored.append((index, float(score)))
        except RuntimeError as error:
            raise EmbedderError("The reranker failed: {reason}",
                                reason=(str(error).strip().splitlines() or ["?"])[0]) from None
        return sorted(scored, key=lambda item: (-item[1], item[0]))
