"""Load an embedding model or a reranker and run it once — run as a child process.

    python -m eagle_chat.core.acquisition.document_model_worker --kind embedding|reranker --dir DIR
        [--device CPU] [--pooling mean] [--max-length 512]

The last step before a pulled document model is registered: the folder loads in OpenVINO GenAI
(``TextEmbeddingPipeline`` / ``TextRerankPipeline``) and gives a finite vector or scores. Output: JSON lines
like the other workers', ending with ``{"event": "result", ...}`` (exit 0) or ``{"event": "error", ...}``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import eagle_chat  # noqa: F401 - telemetry off before openvino is imported
from eagle_chat.core.acquisition.protocol import Emitter, error_fields
from eagle_chat.core.errors import UserError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eagle_chat.core.acquisition.document_model_worker")
    parser.add_argument("--kind", choices=["embedding", "reranker"], required=True)
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--device", default="CPU")
    parser.add_argument("--pooling", default="mean")
    parser.add_argument("--max-length", type=int, default=512)
    args = parser.parse_args(argv)
    emit = Emitter()
    emit("status", message=f"Loading the {args.kind} model on {args.device}…")
    try:
        import numpy as np

        if args.kind == "embedding":
            from eagle_chat.core.documents.embedder import OpenVinoEmbedder

            embedder = OpenVinoEmbedder(args.dir, args.device, pooling=args.pooling, max_length=args.max_length)
            vectors = embedder.embed_documents(["A short passage to check the model.", "一段用于检查模型的文字。"])
            if not np.isfinite(vectors).all():
                raise UserError("The embedding model gave vectors that are not numbers; the files look damaged.")
            emit("result", kind=args.kind, device=args.device, dimensions=int(embedder.dimensions))
        else:
            from eagle_chat.core.documents.reranker import OpenVinoReranker

            reranker = OpenVinoReranker(args.dir, args.device, max_length=args.max_length)
            scores = reranker.rerank("a question", ["a passage", "another passage"])
            if len(scores) != 2 or not all(np.isfinite(s) for _, s in scores):
                raise UserError("The reranker gave no usable scores; the files look damaged.")
            emit("result", kind=args.kind, device=args.device, scores=[float(s) for _, s in scores])
    except UserError as error:
        emit("error", kind="load", **error_fields(error))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
