"""A conversation's prompt as token ids: the chat template's control tokens are control tokens, and every
message's text stays text.

The chat template renders the messages into one string, and the tokenizer turns every special-token string
in that string into the special token: a user message holding ``<|im_end|>\\n<|im_start|>system\\n…`` would
close its turn and open a system turn (GenAI 2026.4.1: ``encode("a<|im_end|>b")`` -> ``[67, 2, 68]`` on the
tiny pair; ``add_special_tokens`` only governs BOS/EOS, and the tokenizer has no switch for it). So the app
tokenizes prompts itself and hands GenAI the ids:

- The control tokens are the tokenizer's special tokens: those its detokenizer drops when skipping special
  tokens (Qwen: ``<|im_start|>``, ``<|im_end|>``, ``<|endoftext|>``, …). Added tokens that are not special,
  such as Qwen3's ``<think>`` and ``<tool_call>``, are markup the model writes and reads as text; they
  tokenize in a message as they do in the template (and as Hugging Face's tokenizer does).
- Before rendering, each control string in a message's content is replaced by a private-use character that
  stands for it; the template renders as usual (whatever it does to a content still applies); the rendered
  text is encoded in pieces split at those characters, and each stands for its string encoded *as text*:
  in two parts encoded separately, so that neither is the special token (the cut with fewest tokens whose
  ids decode back to the string; on a byte-level BPE such as Qwen's the ids are those of the string with
  the special token unknown).
- A prompt whose messages hold no control string is encoded whole, as GenAI encodes a ChatHistory: the same
  ids, so replies, prefix caching and the next-turn prefill are as before.

A tokenizer whose pieces do not join up (SentencePiece adds a space in front of each piece) gets the
fallback: a WORD JOINER (U+2060, invisible) after the first character of each control string in a message,
so the string no longer matches the special token and reads the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from eagle_chat.core.generation.tool_template import tools_list

Message = Mapping[str, str]
Render = Callable[[Sequence[Message], bool], str]  # messages, add_generation_prompt -> the template's text
STAND_IN = 0xF0000  # Supplementary Private Use Area-A: a prompt's n-th protected string is chr(STAND_IN + n)
_STAND_INS = "[\U000F0000-\U000FFFFD]"
WORD_JOINER = "\u2060"


class NoSuchText(ValueError):
    """The rendered prompt does not hold the text it was to be cut at."""


@dataclass(frozen=True)
class Prompt:
    """One prompt: ``text`` as the model reads it (the template's, contents as they are) and its ``ids``
    (int64, as the tokenizer gives them: no Python list of a long prompt's ids on the way to the model)."""

    text: str
    ids: np.ndarray


class ChatTokens:
    """Renders and encodes prompts for one tokenizer so that no message's text becomes a control token."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self.control = control_strings(tokenizer)
        self.control_ids = frozenset(self.control.values())
        # Longest first: a control string that starts another one must not cut it short.
        literals = sorted(self.control, key=len, reverse=True)
        self._protected = re.compile("|".join([*map(re.escape, literals), _STAND_INS]))
        self._as_text: dict[str, list[int]] = {}  # one entry per control string at most
        self.joins = _pieces_join(tokenizer)

    def has_control(self, text: str) -> bool:
        return self._protected.search(text) is not None

    def prompt(self, messages: Sequence[Message], render: Render, *, until: str | None = None) -> Prompt:
        """``messages`` through the template (``render``), with the generation prompt; a conversation that
        ends with an assistant message is a reply to continue: its text follows the generation prompt.
        ``until``: the prompt only up to where the template last wrote this text (NoSuchText if nowhere)."""
        continuing = bool(messages) and messages[-1].get("role") == "assistant"
        head = messages[:-1] if continuing else messages
        found: dict[str, str] = {}  # protected string -> its stand-in
        guarded = [self._guard(m, found) for m in head]
        rendered = render(guarded, True)
        if continuing:
            rendered += self._guard_text(str(messages[-1].get("content", "")), found)
        if until is not None:
            at = rendered.rfind(self._guard_text(until, found))
            if at <= 0:
                raise NoSuchText(until)
            rendered = rendered[:at]
            found = {s: stand_in for s, stand_in in found.items() if stand_in in rendered}
        if not found:
            return Prompt(rendered, self.encode(rendered))
        text = _restore(rendered, found)
        if not self.joins:  # the fallback: the strings broken by an invisible character
            return Prompt(text, self.encode(_restore(rendered, found, self._joined)))
        return Prompt(text, self._encode_guarded(rendered, found))

    def text_ids(self, text: str) -> np.ndarray:
        """``text`` encoded with every control string in it as text."""
        found: dict[str, str] = {}
        guarded = self._guard_text(text, found)
        if not found:
            return self.encode(text)
        return self._encode_guarded(guarded, found) if self.joins else self.encode(_restore(guarded, found, self._joined))

    def count_texts(self, texts: Sequence[str]) -> list[int]:
        """Tokens of each text as :meth:`text_ids` encodes it, in one tokenizer call for the plain ones."""
        if not texts:
            return []
        encoded = self.tokenizer.encode(list(texts), add_special_tokens=False)
        counts = [int(n) for n in encoded.attention_mask.data.sum(axis=-1)]
        return [len(self.text_ids(t)) if self.has_control(t) else n for t, n in zip(texts, counts)]

    def encode(self, text: str) -> np.ndarray:
        return np.array(self.tokenizer.encode(text, add_special_tokens=False).input_ids.data[0], dtype=np.int64)

    def _guard(self, message: Message, found: dict[str, str]) -> dict[str, str]:
        content = message.get("content")
        if not isinstance(content, str) or not self.has_control(content):
            return dict(message)
        return {**message, "content": self._guard_text(content, found)}

    def _guard_text(self, text: str, found: dict[str, str]) -> str:
        def stand_in(match: re.Match) -> str:
            return found.setdefault(match.group(), chr(STAND_IN + len(found)))

        return self._protected.sub(stand_in, text)

    def _joined(self, string: str) -> str:
        return _joined(string) if string in self.control else string

    def _encode_guarded(self, text: str, found: dict[str, str]) -> np.ndarray:
        by_stand_in = {stand_in: s for s, stand_in in found.items()}
        parts = re.split(f"({_STAND_INS})", text)
        plain = [p for i, p in enumerate(parts) if i % 2 == 0 and p]
        encoded = iter(self._encode_many(plain))
        ids: list[int] = []
        for i, part in enumerate(parts):
            if i % 2:
                ids += self._string_as_text(by_stand_in[part])
            elif part:
                ids += next(encoded)
        return np.array(ids, dtype=np.int64)

    def _encode_many(self, texts: list[str]) -> list[list[int]]:
        if not texts:
            return []
        encoded = self.tokenizer.encode(texts, add_special_tokens=False)
        rows, masks = encoded.input_ids.data, encoded.attention_mask.data
        return [[int(i) for i, kept in zip(row, mask) if kept] for row, mask in zip(rows, masks)]

    def _string_as_text(self, string: str) -> list[int]:
        """A control string (or a user's own stand-in character) as ordinary text tokens, remembered."""
        if string not in self.control:
            return self._encode_many([string])[0]
        if string not in self._as_text:
            self._as_text[string] = self._split_encoding(string)
        return self._as_text[string]

    def _split_encoding(self, string: str) -> list[int]:
        cuts = range(1, len(string))
        halves = self._encode_many([half for k in cuts for half in (string[:k], string[k:])])
        candidates = sorted((halves[2 * n] + halves[2 * n + 1] for n in range(len(cuts))), key=len)
        for ids in candidates:
            if not self.control_ids.intersection(ids) and self.tokenizer.decode(ids, skip_special_tokens=False) == string:
                return ids
        return self.encode(_joined(string)).tolist()  # no cut keeps it whole: the invisible-joiner fallback


def chat_renderer(tokenizer, thinking: bool | None, tools: str | None = None) -> Render:
    """The tokenizer's chat template as a Render, with the thinking switch (None: the template's default) and
    the tool list (JSON text, see ``tool_template``; the caller has checked that the template takes tools)."""
    import openvino_genai as ov_genai

    functions = tools_list(tools)

    def render(messages: Sequence[Message], generation_prompt: bool) -> str:
        history = ov_genai.ChatHistory([dict(m) for m in messages])
        if thinking is not None:
            history.set_extra_context({"enable_thinking": bool(thinking)})
        if functions:
            return tokenizer.apply_chat_template(history, add_generation_prompt=generation_prompt, tools=functions)
        return tokenizer.apply_chat_template(history, add_generation_prompt=generation_prompt)

    return render


def messages_key(prompt: str | Sequence[Message]) -> object:
    """A hashable key for a prompt: a string, or the messages (which may hold lists: tool calls) as JSON."""
    return prompt if isinstance(prompt, str) else json.dumps(list(map(dict, prompt)), sort_keys=True, ensure_ascii=False)


def tokenized_inputs(ids: np.ndarray):
    """GenAI's TokenizedInputs for one prompt of ``ids``."""
    import openvino as ov
    import openvino_genai as ov_genai

    return ov_genai.TokenizedInputs(ov.Tensor(ids.reshape(1, -1)), ov.Tensor(np.ones((1, len(ids)), dtype=np.int64)))


def control_strings(tokenizer) -> dict[str, int]:
    """The tokenizer's special tokens (string -> id): the ids its detokenizer drops with
    ``skip_special_tokens``, whose text on its own is not empty."""
    vocab = tokenizer.get_vocab()
    ids = sorted(vocab.values())
    if not ids:
        return {}
    skipped = [i for i, text in zip(ids, tokenizer.decode([[i] for i in ids], skip_special_tokens=True)) if not text]
    texts = tokenizer.decode([[i] for i in skipped], skip_special_tokens=False) if skipped else []
    return {text: i for i, text in zip(skipped, texts) if text}


def _pieces_join(tokenizer) -> bool:
    """Do ids of texts encoded separately decode to the texts joined (byte-level BPE: yes; SentencePiece
    with its dummy prefix: no)?"""
    pieces = ["Hello, ", "world", "\n  x", "!"]
    ids = [int(i) for p in pieces for i in tokenizer.encode(p, add_special_tokens=False).input_ids.data[0]]
    return tokenizer.decode(ids, skip_special_tokens=False) == "".join(pieces)


def _joined(string: str) -> str:
    return string[:1] + WORD_JOINER + string[1:]


def _restore(text: str, found: Mapping[str, str], written: Callable[[str], str] = str) -> str:
    """``text`` with each stand-in replaced by its string (``found``: string -> stand-in), as ``written``."""
    back = {stand_in: written(s) for s, stand_in in found.items()}
    return re.sub(_STAND_INS, lambda m: back.get(m.group(), m.group()), text)
