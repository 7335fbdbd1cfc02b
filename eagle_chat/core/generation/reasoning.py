"""Thinking models: the reasoning a reply starts with, apart from the answer.

Qwen3 (and the models trained like it) write ``<think>…</think>`` before the answer when thinking is on;
with it off their chat template puts an empty pair in the prompt, so the reply is all answer.
:func:`split_reasoning` is the one place that knows the tags: the API's ``reasoning_content`` and the
window's thinking display both build on it. :class:`ReasoningStream` applies it to a reply as it streams.
"""

from __future__ import annotations

from dataclasses import dataclass

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"


@dataclass(frozen=True)
class ReasoningSplit:
    """``reasoning`` is None when the text has no thinking part; ``open`` while ``</think>`` is still to come."""

    reasoning: str | None
    content: str
    open: bool = False


def split_reasoning(text: str, *, started_thinking: bool = False) -> ReasoningSplit:
    """Split a reply (whole, or as far as it has streamed) into reasoning and answer.

    The reply thinks when it starts with ``<think>`` (leading whitespace aside), or when
    ``started_thinking`` says the prompt already opened the tag (templates that end the generation
    prompt with ``<think>``). The reasoning is stripped of surrounding whitespace, the answer of the
    newlines that follow ``</think>``. A reply whose ``</think>`` never came is all reasoning, ``open``.
    """
    if started_thinking:
        body = text
    else:
        lead = text.lstrip()
        if not lead.startswith(THINK_OPEN):
            return ReasoningSplit(None, text)
        body = lead[len(THINK_OPEN):]
    end = body.find(THINK_CLOSE)
    if end < 0:
        return ReasoningSplit(body.strip(), "", open=True)
    return ReasoningSplit(body[:end].strip(), body[end + len(THINK_CLOSE):].lstrip("\r\n"))


class ReasoningStream:
    """Feed streamed text, get ``(reasoning_delta, content_delta)`` pairs that add up to the final split.

    Text that could still turn into a tag (``<thi`` at the start, ``</thi`` inside the reasoning) and
    trailing whitespace of the reasoning are held back until the next piece decides them, so what was
    sent never has to be taken back.
    """

    def __init__(self, *, started_thinking: bool = False):
        self._started = started_thinking
        self._text = ""
        self._sent_reasoning = 0
        self._sent_content = 0

    def feed(self, piece: str) -> tuple[str, str]:
        self._text += piece
        lead = self._text.lstrip()
        if not self._started and lead and len(lead) < len(THINK_OPEN) and THINK_OPEN.startswith(lead):
            return "", ""  # may still become <think>
        split = split_reasoning(self._text, started_thinking=self._started)
        reasoning = split.reasoning or ""
        if split.open:
            reasoning = _without_partial_tag(reasoning, THINK_CLOSE).rstrip()
        return self._deltas(reasoning, split.content)

    def finish(self) -> tuple[str, str]:
        """The held-back rest, once the reply has ended."""
        split = split_reasoning(self._text, started_thinking=self._started)
        return self._deltas(split.reasoning or "", split.content)

    @property
    def text(self) -> str:
        return self._text

    @property
    def has_reasoning(self) -> bool:
        """The reply so far has a thinking part."""
        return split_reasoning(self._text, started_thinking=self._started).reasoning is not None

    def _deltas(self, reasoning: str, content: str) -> tuple[str, str]:
        r, c = reasoning[self._sent_reasoning:], content[self._sent_content:]
        self._sent_reasoning = max(self._sent_reasoning, len(reasoning))
        self._sent_content = max(self._sent_content, len(content))
        return r, c


def _without_partial_tag(text: str, tag: str) -> str:
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:size]):
            return text[:-size]
    return text
