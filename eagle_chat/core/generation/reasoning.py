"""Reasoning ("thinking") apart from the answer: an incremental ``<think>…</think>`` splitter for streamed text.

Reasoning models (Qwen3, QwQ, DeepSeek-R1 distills) write their thinking between ``<think>`` and
``</think>`` before the answer. Where the open tag comes from depends on the chat template:

- Qwen3 (hybrid): with thinking on (or unset) the prompt ends ``<|im_start|>assistant\\n`` and the *model*
  writes ``<think>`` first; with ``enable_thinking=False`` the template closes an empty block in the
  prompt (``<think>\\n\\n</think>\\n\\n``) and the reply has no tags.
- QwQ-style templates open ``<think>`` in the prompt: the reply starts inside the thinking and only
  ``</think>`` appears in it.

:func:`prompt_opens_reasoning` tells the two apart from the rendered prompt; :class:`ReasoningSplitter`
takes streamed text in chunks of any size (a tag may be split across chunks, ``</thi`` + ``nk>``) and
hands back reasoning and answer deltas. Only a ``<think>`` at the very start of a reply opens reasoning, so
an answer that talks about the tags keeps them, and a reply without tags is all answer (GenAI 2026.4.1's
``ReasoningIncrementalParser`` with ``expect_open_tag=True`` shows nothing at all for such a reply, and by
default keeps the tags in the content; hence this module, which also costs ~1 µs per chunk instead of
12–19 µs — ``benchmarks/reasoning_split.py``).

Plain Python, no Qt, no OpenVINO: the GUI splits the stream live, the engine splits the final text, and
an OpenAI-style server can fill ``reasoning_content`` with the same class.
"""

from __future__ import annotations

from dataclasses import dataclass

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"


@dataclass(frozen=True)
class Split:
    """A whole reply split: ``thinking`` (without tags or surrounding blank lines) and ``answer``.

    ``closed`` says the thinking ended with the close tag (False: the reply stopped while thinking).
    ``reasoning_chars`` is how many characters of the raw text the thinking took, tags included (what
    its token count is measured on)."""

    thinking: str
    answer: str
    closed: bool
    reasoning_chars: int = 0

    @property
    def has_thinking(self) -> bool:
        return bool(self.thinking) or self.reasoning_chars > 0


class ReasoningSplitter:
    """Feed streamed text with :meth:`feed`; read ``thinking`` and ``answer`` (all so far) or the deltas.

    ``inside=True`` when the prompt already opened ``<think>`` (see :func:`prompt_opens_reasoning`): the
    reply starts as thinking. ``continuing=True`` for the rest of a cut reply: the text goes on exactly
    where the cut left it (inside the thinking or in the answer), blanks included. Text that could still be
    the start of a tag is held back until the next chunk (or :meth:`finish`) decides; so are the blank
    lines around the thinking, which are dropped.
    """

    __slots__ = ("state", "thinking", "answer", "raw_chars", "reasoning_chars", "_held", "_open", "_close")

    def __init__(self, *, inside: bool = False, continuing: bool = False, open_tag: str = OPEN_TAG,
                 close_tag: str = CLOSE_TAG):
        # "start": before the reply's first non-blank text; "lead": thinking's leading blank lines;
        # "thinking"; "gap": blank lines after the close tag; "answer".
        if continuing:
            self.state = "thinking" if inside else "answer"
        else:
            self.state = "lead" if inside else "start"
        self.thinking = ""
        self.answer = ""
        self.raw_chars = 0  # raw characters fed so far
        self.reasoning_chars = 0  # raw characters up to the end of the close tag (0 until it is seen)
        self._held = ""  # raw text not yet assigned (a possible tag prefix, or trailing blanks)
        self._open = open_tag
        self._close = close_tag

    @property
    def thinking_open(self) -> bool:
        """True while the reply is (still) thinking."""
        return self.state in ("lead", "thinking")

    @property
    def closed(self) -> bool:
        return self.state in ("gap", "answer") and self.reasoning_chars > 0

    def feed(self, text: str) -> tuple[str, str]:
        """Take the next chunk of raw text; returns (thinking delta, answer delta)."""
        self.raw_chars += len(text)
        text = self._held + text
        self._held = ""
        thinking, answer = [], []
        while text:
            state = self.state
            if state == "answer":
                answer.append(text)
                break
            if state == "start":
                stripped = text.lstrip()
                if not stripped:
                    self._held = text
                    break
                if stripped.startswith(self._open):
                    self.state, text = "lead", stripped[len(self._open):]
                elif self._open.startswith(stripped):
                    self._held = text  # "<thi": may still become the open tag
                    break
                else:
                    self.state = "answer"
            elif state in ("lead", "gap"):
                stripped = text.lstrip()
                if not stripped:
                    break  # blank lines before the thinking / after the close tag are dropped
                text = stripped
                self.state = "thinking" if state == "lead" else "answer"
            else:  # thinking
                end = text.find(self._close)
                if end >= 0:
                    thinking.append(text[:end].rstrip())
                    text = text[end + len(self._close):]
                    self.reasoning_chars = self.raw_chars - len(text)
                    self.state = "gap"
                    continue
                keep = _partial_suffix(text, self._close)
                body = text[: len(text) - keep] if keep else text
                # Trailing blanks are held too: they belong to the thinking only if more of it follows.
                kept_blank = len(body) - len(body.rstrip())
                self._held = text[len(body) - kept_blank:]
                thinking.append(body[: len(body) - kept_blank])
                break
        delta_thinking, delta_answer = "".join(thinking), "".join(answer)
        self.thinking += delta_thinking
        self.answer += delta_answer
        return delta_thinking, delta_answer

    def finish(self) -> tuple[str, str]:
        """The reply ended: hand out what was held back (a partial tag is text after all)."""
        held, self._held = self._held, ""
        if not held:
            return "", ""
        if self.state == "start":  # "<thi" and nothing more: it was answer text
            if not held.strip():
                return "", ""
            self.state = "answer"
            self.answer += held
            return "", held
        if self.state == "thinking":
            tail = held.rstrip()
            self.thinking += tail
            return tail, ""
        return "", ""

    def result(self) -> Split:
        return Split(self.thinking, self.answer, self.closed, self.reasoning_chars)


def split_reasoning(text: str, *, inside: bool = False, continuing: bool = False) -> Split:
    """Split a whole reply (``inside``: the prompt opened ``<think>``; ``continuing``: the rest of a cut
    reply, see :class:`ReasoningSplitter`)."""
    splitter = ReasoningSplitter(inside=inside, continuing=continuing)
    splitter.feed(text)
    splitter.finish()
    return splitter.result()


def prompt_opens_reasoning(prompt: str, *, open_tag: str = OPEN_TAG, close_tag: str = CLOSE_TAG) -> bool:
    """True if the rendered prompt leaves a ``<think>`` open, so the reply starts inside the thinking
    (QwQ-style templates, or a cut reply being continued mid-thought). A Qwen3 prompt with thinking off
    closes its empty block and says False; with thinking on it has no tag and says False too."""
    return prompt.rfind(open_tag) > prompt.rfind(close_tag)


def join_reasoning(thinking: str, answer: str, *, closed: bool = True) -> str:
    """The raw text a model would have written for ``thinking`` + ``answer`` (Qwen3's layout): what a
    reply being continued is fed back as."""
    if not thinking:
        return answer
    if not closed:
        return f"{OPEN_TAG}\n{thinking}"
    return f"{OPEN_TAG}\n{thinking}\n{CLOSE_TAG}\n\n{answer}"


def thinking_figures(text: str, split: Split, chunks, count_tokens, generated_tokens: int) -> tuple[int, float]:
    """(thinking tokens, ms until the answer began) for a reply ``text`` streamed as ``chunks``.

    Tokens: the thinking's raw text, tags included, re-encoded with ``count_tokens`` (exact for Qwen3's
    single-token tags; the step lists the streamer sees can mix the last thought and the first answer
    tokens); time: when the chunk that closed the thinking arrived. A reply that never closed its
    thinking was thinking all along."""
    if not split.closed:
        return generated_tokens, (chunks[-1].t * 1000.0 if chunks else 0.0)
    tokens = min(count_tokens(text[: split.reasoning_chars]), generated_tokens)
    seen = 0
    for chunk in chunks:
        seen += len(chunk.text)
        if seen >= split.reasoning_chars:
            return tokens, chunk.t * 1000.0
    return tokens, (chunks[-1].t * 1000.0 if chunks else 0.0)


def _partial_suffix(text: str, tag: str) -> int:
    """Length of the longest end of ``text`` that is a proper start of ``tag`` (``"</thi"`` → 5)."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:size]):
            return size
    return 0
