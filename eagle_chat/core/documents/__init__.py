"""Ask your documents: reading files, chunking them in the embedder's tokens, a hybrid (vectors + BM25) index
in SQLite, and the embedder itself (OpenVINO GenAI's TextEmbeddingPipeline, imported only where used)."""
