"""The engine host gathers streamed chunks into messages at most every 15 ms, except the first that shows text."""

from __future__ import annotations

from eagle_chat.core.generation.metrics import Chunk
from eagle_chat.core.generation.chunk_batcher import CHUNK_INTERVAL_S, ChunkBatcher


def batched(pieces: list[tuple[str, float]]) -> list[tuple[str, float]]:
    sent: list[tuple[str, float]] = []
    batcher = ChunkBatcher(lambda text, tokens, t: sent.append((text, t)))
    for n, (text, t) in enumerate(pieces, 1):
        batcher.add(Chunk(text, n, t))
    live = list(sent)
    batcher.flush()
    assert "".join(text for text, _t in sent) == "".join(text for text, _t in pieces)  # nothing lost
    return live


def test_the_first_visible_text_goes_at_once_when_the_reply_opens_with_a_bare_think_tag():
    # What the tiny pair streams for one of tests/prompts.txt: the tag alone, then text 10 ms later.
    gap = CHUNK_INTERVAL_S / 3
    sent = batched([("<think>\n", 0.028), ("The user wants _", 0.028 + gap), ("get", 0.028 + 2 * gap),
                    ("_format", 0.028 + 2.5 * gap)])
    assert sent == [("<think>\n", 0.028), ("The user wants _", 0.028 + gap)]  # the rest waits for the interval


def test_blank_openings_wait_for_text_and_later_chunks_keep_the_interval():
    step = CHUNK_INTERVAL_S / 4
    sent = batched([("\n", 0.010), ("\n", 0.010 + step), ("Hello", 0.010 + 2 * step), (" world", 0.010 + 3 * step),
                    ("!", 0.010 + 2 * step + CHUNK_INTERVAL_S)])
    assert [text for text, _t in sent] == ["\n", "\nHello", " world!"]


def test_a_reply_that_shows_text_at_once_costs_no_extra_signal():
    step = CHUNK_INTERVAL_S / 4
    sent = batched([("Hello", 0.010), (" there", 0.010 + step), (",", 0.010 + 2 * step)])
    assert sent == [("Hello", 0.010)]
