"""The streamer OpenVINO GenAI calls during a reply: text to the callback, and the per-step record.

GenAI calls ``write`` once per target step with that step's tokens (see :mod:`steps`); on CPU/GPU on its
own thread, on NPU on the caller's. Nothing here may raise into C++, and all of it costs the streaming
thread time, which at 1,000+ tokens/s is the speed the user sees: the characters of each step come from
cached per-token text lengths (no decoding once a token has been seen), falling back to decoding only
where a token's text is not whole on its own (a UTF-8 character split across tokens) or the tokenizer's
text is not the concatenation of its tokens' texts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from eagle_chat.core.generation.metrics import Chunk
from eagle_chat.core.generation.steps import StepRecord

ChunkCallback = Callable[[Chunk], None]
REPLACEMENT = "\ufffd"
# Spaces before punctuation and doubled spaces: a tokenizer that tidies those up when decoding a sequence
# (clean_up_tokenization_spaces) or strips a leading space per call (SentencePiece) fails this check.
_CONCAT_SAMPLE = "Hello , world! it 's def f(x):\n    return x + 1  # done .\n\nA  b"


class TokenLengths:
    """Characters of each token's text on its own, cached for the life of a pipeline's tokenizer."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self._cache: dict[int, int] = {}  # -1: the token's text is not whole on its own
        # GenAI pads a batch of unequal sequences with the pad token, which can be -1 (no pad token): a
        # batch is padded here with a special token instead, which decodes to nothing.
        self._filler = next((int(t) for t in (tokenizer.get_eos_token_id(), tokenizer.get_pad_token_id())
                             if int(t) >= 0), None)
        encoded = tokenizer.encode(_CONCAT_SAMPLE, add_special_tokens=False).input_ids
        ids = [int(i) for i in encoded.data[0]]
        lengths = self.lengths(ids)
        self.concatenative = -1 not in lengths and sum(lengths) == len(self.decode(ids))

    def decode(self, ids: Sequence[int]) -> str:
        return self.tokenizer.decode(list(ids)) if ids else ""

    def decode_many(self, sequences: list[list[int]]) -> list[str]:
        """One decoding call for several sequences (each call has a fixed cost of ~0.2 ms here)."""
        longest = max((len(s) for s in sequences), default=0)
        if longest == 0:
            return [""] * len(sequences)
        if self._filler is None:
            return [self.decode(s) for s in sequences]
        return list(self.tokenizer.decode([list(s) + [self._filler] * (longest - len(s)) for s in sequences]))

    def lengths(self, ids: Sequence[int]) -> list[int]:
        unknown = sorted({i for i in ids if i not in self._cache})
        for token, text in zip(unknown, self.decode_many([[i] for i in unknown])):
            self._cache[token] = -1 if REPLACEMENT in text else len(text)
        return [self._cache[i] for i in ids]


def token_lengths(tokenizer) -> TokenLengths | None:
    """Per-token text lengths for the step record; a tokenizer that cannot give them costs only the
    record's characters, never the reply."""
    try:
        return TokenLengths(tokenizer)
    except Exception:  # noqa: BLE001
        return None


class StepText:
    """How many characters each step adds to the reply, split into its drafted part and its last token."""

    def __init__(self, lengths: TokenLengths):
        self._lengths = lengths
        self.tokens: list[int] = []
        self._anchor = 0  # tokens before it have been counted as whole text
        self._anchor_chars = 0
        self._counted = 0  # characters handed out so far

    def add(self, tokens: Sequence[int]) -> tuple[int, int]:
        start = len(self.tokens)
        self.tokens.extend(int(t) for t in tokens)
        if self._lengths.concatenative and self._anchor == start:
            lengths = self._lengths.lengths(self.tokens[start:])
            if -1 not in lengths:
                drafted, own = sum(lengths[:-1]), lengths[-1]
                self._counted += drafted + own
                self._anchor, self._anchor_chars = len(self.tokens), self._counted
                return drafted, own
        return self._decode_from_anchor()

    def finish(self) -> int:
        """Characters still held back (text that never became whole); the caller adds them to the last step."""
        if self._anchor == len(self.tokens):
            return 0
        context = self.tokens[self._anchor - 1:self._anchor]
        base, text = self._lengths.decode_many([context, context + self.tokens[self._anchor:]])
        rest = self._anchor_chars + len(text) - len(base) - self._counted
        self._anchor, self._anchor_chars = len(self.tokens), self._anchor_chars + len(text) - len(base)
        self._counted += max(0, rest)
        return max(0, rest)

    def _decode_from_anchor(self) -> tuple[int, int]:
        # One token of context before the anchor, so a tokenizer that treats the start of a text specially
        # (SentencePiece drops a leading space) decodes the pending tokens as they read in the reply.
        context = self.tokens[self._anchor - 1:self._anchor]
        pending = self.tokens[self._anchor:]
        base, before_last, whole = self._lengths.decode_many([context, context + pending[:-1], context + pending])
        complete = not whole.endswith(REPLACEMENT)
        upto_all = len(whole.rstrip(REPLACEMENT)) - len(base)
        upto_drafted = min(len(before_last.rstrip(REPLACEMENT)) - len(base), upto_all)
        drafted = max(0, self._anchor_chars + upto_drafted - self._counted)
        own = max(0, self._anchor_chars + upto_all - self._counted - drafted)
        self._counted += drafted + own
        if complete:
            self._anchor, self._anchor_chars = len(self.tokens), self._counted
        return drafted, own


def exact_step_chars(lengths: TokenLengths, tokens: list[int], sizes: list[int]) -> tuple[list[int], list[int]]:
    """Drafted and own characters per step by decoding every prefix (one call; only used to repair a record
    whose counts do not add up to the reply)."""
    ends, position = [], 0
    for size in sizes:
        ends += [position + size - 1, position + size]
        position += size
    texts = lengths.decode_many([tokens[:end] for end in ends])
    drafted, own, previous = [], [], 0
    for index in range(0, len(texts), 2):
        after_drafted, after_all = len(texts[index]), len(texts[index + 1])
        drafted.append(max(0, after_drafted - previous))
        own.append(max(0, after_all - max(after_drafted, previous)))
        previous = max(previous, after_all)
    return drafted, own


class ChunkStreamer:
    """Counts tokens per decoding step, records the steps, and hands decoded text to the callback, never
    raising into C++.

    GenAI's ``TextStreamer`` does the incremental detokenisation (holding back incomplete UTF-8); this
    wrapper adds token counts, the step record and arrival times, the stop flag, and catches any exception
    from the callback (an exception escaping into OpenVINO's thread would be printed and lost, or worse).
    A list that arrives after the stop flag is set is neither shown nor counted.
    """

    def __init__(self, tokenizer, on_chunk: ChunkCallback | None, stop: threading.Event,
                 lengths: TokenLengths | None = None):
        import openvino_genai as ov_genai

        class _Streamer(ov_genai.StreamerBase):
            def write(inner, token):  # noqa: N805 - bound to the GenAI base class
                return self._write(token)

            def end(inner):  # noqa: N805
                self._end()

        self.streamer = _Streamer()
        self._text_streamer = ov_genai.TextStreamer(tokenizer, self._on_text)
        self._running = ov_genai.StreamingStatus.RUNNING
        self._stop_status = ov_genai.StreamingStatus.STOP
        self._on_chunk = on_chunk
        self._stop = stop
        self._t0 = 0.0
        self._lengths = lengths
        self._step_text = StepText(lengths) if lengths is not None else None
        self._sent_steps = 0
        self.record = StepRecord(drafted_chars=[] if lengths is not None else None,
                                 own_chars=[] if lengths is not None else None)
        self.tokens = 0
        self.parts: list[str] = []
        self.chunks: list[Chunk] = []
        self.error: BaseException | None = None

    def start(self) -> None:
        self._t0 = time.perf_counter()

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def finish_record(self, text: str) -> StepRecord:
        """The step record of the reply whose final text is ``text``: characters that were held back go to
        the last step, and counts that do not add up to ``text`` are recomputed exactly (or dropped)."""
        record = self.record
        if self._step_text is None or self._lengths is None or record.own_chars is None or not record.sizes:
            return record
        try:
            record.own_chars[-1] += self._step_text.finish()
            if record.chars != len(text):
                record.drafted_chars, record.own_chars = exact_step_chars(
                    self._lengths, self._step_text.tokens, record.sizes)
            if record.chars != len(text):
                record.drafted_chars = record.own_chars = None
        except Exception:  # noqa: BLE001 - a record without characters beats a failed reply
            record.drafted_chars = record.own_chars = None
        return record

    def _write(self, token):
        try:
            if self._stop.is_set():
                return self._stop_status
            tokens = token if isinstance(token, list) else [token]
            if tokens:
                drafted, own = self._step_text.add(tokens) if self._step_text is not None else (None, None)
                self.record.add(len(tokens), drafted, own)
            self.tokens += len(tokens)
            self._text_streamer.write(token)
            return self._stop_status if self._stop.is_set() else self._running
        except BaseException as error:  # noqa: BLE001 - must never reach OpenVINO's thread
            self.error = self.error or error
            return self._stop_status

    def _end(self) -> None:
        try:
            self._text_streamer.end()
        except BaseException as error:  # noqa: BLE001
            self.error = self.error or error

    def _on_text(self, text: str):
        record, sent = self.record, self._sent_steps
        steps = tuple(
            (record.sizes[i], record.drafted_chars[i] if record.drafted_chars is not None else None,
             record.own_chars[i] if record.own_chars is not None else None)
            for i in range(sent, len(record.sizes))
        )
        self._sent_steps = len(record.sizes)
        chunk = Chunk(text, self.tokens, time.perf_counter() - self._t0, steps)
        self.parts.append(text)
        self.chunks.append(chunk)
        if self._on_chunk is not None:
            self._on_chunk(chunk)
        return self._running
