"""``POST /v1/embeddings`` in OpenAI's shape, answered by the embedder's own child process
(:class:`eagle_chat.core.documents.embed_host.EmbeddingHost`), started by ``eagle-chat serve --embedder DIR``.

``input`` is a string or a list of strings (token-id arrays are refused: the ids would be another model's);
``encoding_format`` "float" (default) or "base64" (little-endian float32, what the official SDKs decode);
``dimensions`` only when it equals the model's. The vectors are L2-normalised.
"""

from __future__ import annotations

import asyncio
import base64
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from eagle_chat.core.serving.errors import ApiError, invalid

MAX_INPUTS = 2048
MAX_INPUT_CHARS = 100_000
FIELDS = {"model", "input", "encoding_format", "dimensions", "user"}


class Embeddings(Protocol):
    id: str
    dimensions: int

    def embed(self, texts: list[str]) -> tuple[np.ndarray, int]: ...


@dataclass(frozen=True)
class EmbeddingRequest:
    texts: list[str]
    base64: bool


def parse_embeddings(body, embeddings: Embeddings) -> EmbeddingRequest:
    if not isinstance(body, dict):
        raise invalid("The request body must be a JSON object.")
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        raise invalid(f"Unrecognized request argument supplied: {unknown[0]}.", param=unknown[0])
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise invalid(f"'model' is required: send '{embeddings.id}' (GET /v1/models lists it).", param="model")
    if model != embeddings.id:
        raise ApiError(404, f"The embedding model '{model}' does not exist here; this server embeds with "
                            f"'{embeddings.id}'.", param="model", code="model_not_found")
    raw = body.get("input")
    texts = [raw] if isinstance(raw, str) else raw
    if not isinstance(texts, list) or not texts:
        raise invalid("'input' must be a string or a non-empty list of strings.", param="input")
    if len(texts) > MAX_INPUTS:
        raise invalid(f"'input' has {len(texts)} items; at most {MAX_INPUTS} per request.", param="input")
    for n, text in enumerate(texts):
        if not isinstance(text, str):
            raise invalid(f"input[{n}] is not a string; token arrays are not accepted, send text.", param="input")
        if not text:
            raise invalid(f"input[{n}] is empty; send text to embed.", param="input")
        if len(text) > MAX_INPUT_CHARS:
            raise invalid(f"input[{n}] has {len(text)} characters; at most {MAX_INPUT_CHARS}.", param="input")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise invalid(f"input[{n}] is not valid Unicode text (a lone surrogate).", param="input") from None
    encoding = body.get("encoding_format", "float")
    if encoding not in ("float", "base64"):
        raise invalid("'encoding_format' must be 'float' or 'base64'.", param="encoding_format")
    dimensions = body.get("dimensions")
    if dimensions is not None and (isinstance(dimensions, bool) or dimensions != embeddings.dimensions):
        raise invalid(f"'dimensions' can only be {embeddings.dimensions} for '{embeddings.id}' (it cannot be "
                      "shortened).", param="dimensions")
    return EmbeddingRequest(list(texts), encoding == "base64")


async def embed(request: EmbeddingRequest, embeddings: Embeddings) -> dict:
    from eagle_chat.core.errors import UserError

    loop = asyncio.get_running_loop()
    try:
        vectors, tokens = await loop.run_in_executor(None, embeddings.embed, request.texts)
    except UserError as error:
        raise ApiError(503, error.message, type="server_error", code="embedder_unavailable") from None
    data = []
    for index, vector in enumerate(vectors):
        vector = np.asarray(vector, dtype="<f4")
        value = base64.b64encode(vector.tobytes()).decode("ascii") if request.base64 else vector.tolist()
        data.append({"object": "embedding", "index": index, "embedding": value})
    return {"object": "list", "data": data, "model": embeddings.id,
            "usage": {"prompt_tokens": int(tokens), "total_tokens": int(tokens)}}


def model_entry(embeddings: Embeddings) -> dict:
    return {"id": embeddings.id, "object": "model", "created": 0, "owned_by": "eagle-chat",
            "capabilities": {"embeddings": True},
            "eagle_chat": {"kind": "embedding", "dimensions": embeddings.dimensions}}
