"""``stop`` sequences, applied to the text as it streams.

The scan runs on the decoded text, not in the engine: text that could be the start of a stop sequence is
held back until the next piece decides it, so a client never receives part of a stop sequence. When one
matches, the caller sets the request's stop event and the engine ends within a decoding step.
"""

from __future__ import annotations


class StopScanner:
    def __init__(self, stops: tuple[str, ...] = ()):
        self.stops = tuple(s for s in stops if s)
        self._hold = max((len(s) for s in self.stops), default=1) - 1
        self._pending = ""
        self.hit = False
        self.text = ""  # everything let through so far

    def feed(self, piece: str) -> str:
        """The part of ``piece`` (with what was held back) that is certainly not a stop sequence."""
        if self.hit:
            return ""
        buffer = self._pending + piece
        found = [i for i in (buffer.find(s) for s in self.stops) if i >= 0]
        if found:
            self.hit = True
            self._pending = ""
            return self._emit(buffer[: min(found)])
        keep = min(self._hold, len(buffer))
        self._pending = buffer[len(buffer) - keep:] if keep else ""
        return self._emit(buffer[: len(buffer) - keep])

    def finish(self) -> str:
        """The held-back rest, once the reply has ended without a match."""
        rest, self._pending = ("" if self.hit else self._pending), ""
        return self._emit(rest)

    def _emit(self, text: str) -> str:
        self.text += text
        return text
