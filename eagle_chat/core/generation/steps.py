"""The per-step record of a reply: how many tokens each target step emitted, and which text they wrote.

Where the steps come from. OpenVINO GenAI hands the streamer one token list per target inference
(``StreamerBase.write(list)``; one ``handle->read()`` and one ``write`` per loop, never merged). The first
list is the token the prefill produced (length 1). Every later list is one verification step: the first
``n - 1`` tokens are drafted tokens the target accepted, the last is the target's own token (its
correction, or the bonus token after a fully accepted draft). A plain (baseline) reply has lists of 1.
A tree draft emits at most ``tree_depth + 1`` per step, a chain at most ``K + 1``.

How the record relates to GenAI's own figures (2026.4.1 wheel; measured on every run tried, see
/work/research/genai-facts.md section 4):

- ``sum(sizes)`` is ``perf_metrics.get_num_generated_tokens()``, and ``len(sizes)`` is the number of
  main-model inferences, ``len(main_model_metrics.raw_metrics.m_durations)``; so the mean of ``sizes`` is
  GenAI's tokens per step. (A stopped reply keeps only the lists whose text reached the reply.)
- Accepted tokens. On CPU/GPU (continuous batching) GenAI counts a step's accepted tokens only while the
  request is still listed, and a request that finishes in a step (max_new_tokens, EOS, a stop string) has
  already left the list: its **last step is never counted**. So
  ``get_num_accepted_tokens() == sum(n - 1 for n in sizes[:-1])`` (the prefill list adds 0). The lists of
  the shared notes' example, ``[1, 6, 4, 1, 5, 6, 6, 1, 6, 6, 6, 6, 4, 2, 4]``, hold 49 accepted tokens;
  GenAI reports 46 because the last step's 3 are left out. On NPU (the stateful EAGLE-3 pipeline) the
  last step is counted: ``get_num_accepted_tokens() == sum(sizes) - len(sizes)``.
  :meth:`StepRecord.genai_accepted` gives GenAI's figure for a device; :meth:`StepRecord.accepted`
  counts every verification step, which is what the text's tinting and the acceptance panel show.
- Draft tokens. GenAI counts K per counted step (``K * (len(sizes) - 2)`` for a chain on CPU); the record
  cannot know how many were drafted in a step that accepted all, so it does not try.

Characters. ``drafted_chars[i]`` and ``own_chars[i]`` are how many characters of the reply text (Python
``str`` indices) step ``i``'s accepted draft tokens and its own token wrote, in order, so the UI can tint
exactly the drafted text. They are None when unknown (baseline replies, older messages).

Stored compactly with the message (``GenerationStats.to_dict``): ``"steps": "1,6,4,1*3,6"`` (runs of four
or more equal sizes as ``size*count``; a 1,000-token baseline reply is ``"1*1000"``) and
``"step_chars": "3,14+2,9+1"`` (``drafted+own`` per step, just ``own`` when nothing was drafted).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

RUN_MIN = 4  # runs of at least this many equal sizes are written as size*count


@dataclass(frozen=True)
class DraftedSpan:
    """The text of one step's accepted draft tokens: ``text[start:end]``, step ``step`` (0 = the prefill),
    ``accepted`` drafted tokens the target kept in that step."""

    start: int
    end: int
    step: int
    accepted: int


@dataclass
class StepRecord:
    """Tokens per target step (``sizes``) and the characters each step wrote; see the module docstring."""

    sizes: list[int] = field(default_factory=list)
    drafted_chars: list[int] | None = None
    own_chars: list[int] | None = None

    # --- building -----------------------------------------------------------------------------------
    def add(self, size: int, drafted_chars: int | None = None, own_chars: int | None = None) -> None:
        """Append one step; characters are kept only while every step so far has them."""
        if not self.sizes and drafted_chars is not None and own_chars is not None:
            self.drafted_chars, self.own_chars = [], []
        self.sizes.append(int(size))
        if self.drafted_chars is not None and self.own_chars is not None:
            if drafted_chars is None or own_chars is None:
                self.drafted_chars = self.own_chars = None
            else:
                self.drafted_chars.append(int(drafted_chars))
                self.own_chars.append(int(own_chars))

    def extend(self, steps: Sequence[tuple[int, int | None, int | None]]) -> None:
        for size, drafted, own in steps:
            self.add(size, drafted, own)

    def copy(self) -> StepRecord:
        return StepRecord(list(self.sizes), None if self.drafted_chars is None else list(self.drafted_chars),
                          None if self.own_chars is None else list(self.own_chars))

    # --- figures ------------------------------------------------------------------------------------
    @property
    def generated(self) -> int:
        return sum(self.sizes)

    @property
    def verification_steps(self) -> int:
        """Steps that checked drafted tokens: every list after the prefill's."""
        return max(0, len(self.sizes) - 1)

    def accepted_lengths(self) -> list[int]:
        """Accepted draft tokens of each verification step (the prefill is not one)."""
        return [n - 1 for n in self.sizes[1:]]

    def accepted(self) -> int:
        """Accepted draft tokens over every verification step (the tinted text)."""
        return sum(self.accepted_lengths())

    def genai_accepted(self, device: str) -> int:
        """What ``get_num_accepted_tokens()`` reports for these lists: the last step left out on CPU/GPU,
        counted on NPU."""
        if not self.sizes:
            return 0
        if device.upper().startswith("NPU"):
            return self.accepted()
        return self.accepted() - (self.sizes[-1] - 1 if len(self.sizes) > 1 else 0)

    def tokens_per_step(self) -> float | None:
        return self.generated / len(self.sizes) if self.sizes else None

    def mean_accepted(self) -> float | None:
        lengths = self.accepted_lengths()
        return sum(lengths) / len(lengths) if lengths else None

    def histogram(self, max_accepted: int) -> list[int]:
        """Verification steps by accepted length 0..max_accepted (longer if a step accepted more); the counts
        add up to ``verification_steps``."""
        lengths = self.accepted_lengths()
        counts = [0] * (max(max_accepted, max(lengths, default=0)) + 1)
        for length in lengths:
            counts[length] += 1
        return counts

    def position_acceptance(self, max_accepted: int) -> list[float]:
        """For draft positions 1..max_accepted, the share of verification steps whose drafted token at that
        position was accepted (a step accepts a prefix of its draft, so this only falls)."""
        lengths = self.accepted_lengths()
        if not lengths:
            return [0.0] * max_accepted
        return [sum(1 for n in lengths if n >= position) / len(lengths) for position in range(1, max_accepted + 1)]

    def drafted_spans(self) -> Iterator[DraftedSpan]:
        """Character ranges of the reply text that came from accepted draft tokens, in order."""
        if self.drafted_chars is None or self.own_chars is None:
            return
        position = 0
        for step, (size, drafted, own) in enumerate(zip(self.sizes, self.drafted_chars, self.own_chars)):
            if size > 1 and drafted > 0:
                yield DraftedSpan(position, position + drafted, step, size - 1)
            position += drafted + own

    def step_at(self, offset: int) -> tuple[int, bool] | None:
        """Which step wrote character ``offset`` of the reply, and whether it was a drafted token."""
        if self.drafted_chars is None or self.own_chars is None:
            return None
        position = 0
        for step, (drafted, own) in enumerate(zip(self.drafted_chars, self.own_chars)):
            if offset < position + drafted + own:
                return step, offset < position + drafted
            position += drafted + own
        return None

    @property
    def chars(self) -> int | None:
        """Characters of reply text the record covers (None without character counts)."""
        if self.drafted_chars is None or self.own_chars is None:
            return None
        return sum(self.drafted_chars) + sum(self.own_chars)

    # --- compact form -------------------------------------------------------------------------------
    def encode_sizes(self) -> str:
        parts: list[str] = []
        index = 0
        while index < len(self.sizes):
            run = index
            while run < len(self.sizes) and self.sizes[run] == self.sizes[index]:
                run += 1
            count = run - index
            if count >= RUN_MIN:
                parts.append(f"{self.sizes[index]}*{count}")
            else:
                parts.extend(str(n) for n in self.sizes[index:run])
            index = run
        return ",".join(parts)

    def encode_chars(self) -> str | None:
        if self.drafted_chars is None or self.own_chars is None:
            return None
        return ",".join(f"{d}+{o}" if d else str(o) for d, o in zip(self.drafted_chars, self.own_chars))

    @classmethod
    def decode(cls, sizes: str | None, chars: str | None = None) -> StepRecord | None:
        """The record from its compact form; None if ``sizes`` is missing or damaged (never raises).
        Damaged character counts drop only the characters."""
        if not isinstance(sizes, str) or not sizes:
            return None
        try:
            values: list[int] = []
            for part in sizes.split(","):
                size, _, count = part.partition("*")
                values.extend([int(size)] * (int(count) if count else 1))
            if any(n < 1 for n in values):
                return None
        except ValueError:
            return None
        record = cls(values)
        if isinstance(chars, str) and chars:
            try:
                pairs = [part.partition("+") for part in chars.split(",")]
                counts = [(int(d), int(o)) if sep else (0, int(d)) for d, sep, o in pairs]
            except ValueError:
                counts = []
            if len(counts) == len(values) and all(d >= 0 and o >= 0 for d, o in counts):
                record.drafted_chars = [d for d, _ in counts]
                record.own_chars = [o for _, o in counts]
        return record

    def summary(self, max_accepted: int) -> dict:
        """The record and its histogram as plain data, for JSON exports."""
        return {
            "steps": list(self.sizes),
            "drafted_chars": self.drafted_chars,
            "own_chars": self.own_chars,
            "verification_steps": self.verification_steps,
            "accepted_histogram": self.histogram(max_accepted),
            "position_acceptance": [round(rate, 4) for rate in self.position_acceptance(max_accepted)],
            "mean_accepted": self.mean_accepted(),
        }


def histogram_text(counts: Sequence[int]) -> str:
    """``"0:3 1:0 2:5"``: a histogram in one CSV cell."""
    return " ".join(f"{length}:{count}" for length, count in enumerate(counts))
