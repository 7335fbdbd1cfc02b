"""Cutting sections of text into overlapping chunks sized in the embedding model's tokens.

Text is split into words (whitespace kept with the word before it, each CJK character a word of its own),
each word's token count is taken from the embedder's tokenizer (cached: WordPiece and byte-level BPE pieces
do not cross whitespace, so a word's count does not depend on its neighbours, up to a token at a join), and
words are packed greedily up to ``max_tokens`` and a chunk that must be cut ends after the last sentence in its
second half (so a fact is not split between two chunks, each holding half of it); the next chunk starts ``overlap`` tokens before the end of
the previous one. A chunk never crosses a page: page numbers stay exact for citations.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from eagle_chat.core.documents.readers import Section

DEFAULT_MAX_TOKENS = 256
DEFAULT_OVERLAP = 32

# What ends a sentence: a word ending in one of these (CJK full stops stand alone as one-character words).
_SENTENCE_END = re.compile(r"[.!?;。！？；…]['\"”’)）]*\s*$|\n\s*$")

# A run of non-space, non-CJK characters with its trailing whitespace, or one CJK character (+ whitespace).
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]\s*|"
                   r"[^\s\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+\s*|\s+")


@dataclass(frozen=True)
class Chunk:
    text: str
    page: int | None
    tokens: int


class TokenCounter:
    """Token counts per word, through ``count`` (a batch function, e.g. ``Embedder.count_tokens``), cached."""

    def __init__(self, count: Callable[[list[str]], list[int]], cache_limit: int = 200_000):
        self._count = count
        self._cache: dict[str, int] = {}
        self._limit = cache_limit

    def counts(self, words: list[str]) -> list[int]:
        missing = list({w.strip() for w in words if w.strip() and w.strip() not in self._cache})
        for start in range(0, len(missing), 512):
            batch = missing[start:start + 512]
            if len(self._cache) > self._limit:
                self._cache.clear()
            self._cache.update(zip(batch, self._count(batch)))
        return [self._cache.get(w.strip(), 0) if w.strip() else 0 for w in words]


def chunk_sections(sections: Iterable[Section], counter: TokenCounter, *, max_tokens: int = DEFAULT_MAX_TOKENS,
                   overlap: int = DEFAULT_OVERLAP) -> list[Chunk]:
    if max_tokens < 1 or not 0 <= overlap < max_tokens:
        raise ValueError("need max_tokens >= 1 and 0 <= overlap < max_tokens")
    chunks: list[Chunk] = []
    for section in sections:
        words = _WORD.findall(section.text)
        if not words:
            continue
        counts = counter.counts(words)
        start = 0
        while start < len(words):
            end, total = start, 0
            while end < len(words) and (total + counts[end] <= max_tokens or end == start):
                total += counts[end]
                end += 1
            if end < len(words):
                end = _sentence_end(words, start, end)
                total = sum(counts[start:end])
            text = "".join(words[start:end]).strip()
            if text:
                chunks.append(Chunk(text, section.page, total))
            if end >= len(words):
                break
            # Step back ``overlap`` tokens, but always move forward by at least one word.
            back, kept = end, 0
            while back > start + 1 and kept + counts[back - 1] <= overlap:
                back -= 1
                kept += counts[back]
            start = back
    return chunks


def _sentence_end(words: list[str], start: int, end: int) -> int:
    """Where a chunk of ``words[start:end]`` that must be cut ends: after the last sentence ending in its second
    half, else at ``end``."""
    for index in range(end - 1, start + (end - start) // 2 - 1, -1):
        if _SENTENCE_END.search(words[index]):
            return index + 1
    return end
