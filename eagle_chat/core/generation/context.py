"""The context budget: what of a conversation is sent to the model, so a long chat never hits a wall.

What is sent = the system prompt + the newest turns that fit. The prompt may take at most
``prompt_limit`` = min(the device's prompt limit, context - max new tokens - margin) tokens, counted with
the pipeline's own tokenizer and chat template (thinking switch applied). Max new tokens is then clamped
to what the context has left.

Old turns are dropped whole exchanges at a time (the cut always falls before a user message), and in
chunks of about a quarter of the prompt limit: the cut point only moves when the kept part has grown by
that much again. Between two moves every turn's prompt starts with the same tokens, so the prefix cache
(CPU/GPU) keeps serving all but the newest exchange; a cut that moved by one exchange every turn would
change the prompt's start, and so cost a full prefill, at every turn.

The limits per device (see ``docs/context.md``):

- CPU/GPU: context = min(the model's ``max_position_embeddings``, the KV cache's capacity); the margin
  leaves room for the draft tokens a verification step appends beyond the last accepted one.
- NPU: GenAI's stateful path compiles a fixed KV length, MAX_PROMPT_LEN + MIN_RESPONSE_LEN, and refuses
  prompts over MAX_PROMPT_LEN; it re-prefills the whole conversation every turn (nothing is reused
  between calls), so trimming the history is the only way a long chat keeps going there. The EAGLE-3
  margin is 2 x align8(max(MAX_ASSISTANT_TOKENS + 1, MAX_TREE_DEPTH x MAX_BRANCHING_FACTOR)) for the
  draft tree windows NPUW appends (the GenAI defaults 7 / 4 / 2 give 16).
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Message = Mapping[str, str]
CountPrompt = Callable[[Sequence[Message]], int]  # templated prompt tokens (generation prompt included)
CountTexts = Callable[[Sequence[str]], list[int]]  # plain tokens of each text

CPU_MARGIN = 32  # > the largest verification step (16 draft tokens + 1) with room to spare
NPU_COMPILED_ASSISTANT_TOKENS, NPU_COMPILED_TREE_DEPTH, NPU_COMPILED_BRANCHING = 7, 4, 2  # GenAI's defaults
MIN_REPLY_TOKENS = 16  # below this a reply is not worth starting: the message itself is too long
MIN_PROMPT_SHARE = 4  # however large max new tokens is, a quarter of the context stays for the prompt
CHUNK_SHARE = 4  # old turns are dropped about prompt_limit / 4 tokens at a time
_OVERHEADS: "weakref.WeakKeyDictionary[object, dict]" = weakref.WeakKeyDictionary()
_TEXT_TOKENS: "weakref.WeakKeyDictionary[object, TokenCounts]" = weakref.WeakKeyDictionary()
TOKEN_COUNTS_BYTES = 8 << 20  # the texts whose tokens are remembered, per pipeline: ~16 conversations of 128k tokens


@dataclass(frozen=True)
class ContextLimits:
    """How many tokens a pipeline holds: ``context`` in all, of which at most ``max_prompt`` prompt."""

    context: int
    max_prompt: int
    margin: int = CPU_MARGIN


@dataclass(frozen=True)
class ContextPlan:
    """What one reply sends: ``messages`` (system prompt first), ``prompt_tokens`` of them after the
    template, ``max_new_tokens`` clamped to what is left of ``requested_new_tokens``; ``dropped`` earlier
    messages are left out, and the earlier turns that are sent take ``history_tokens`` of the prompt."""

    messages: list[dict[str, str]]
    prompt_tokens: int
    max_new_tokens: int
    requested_new_tokens: int
    prompt_limit: int
    dropped: int = 0
    history_tokens: int = 0


class ContextTooSmall(Exception):
    """Even the newest message alone (with the system prompt) does not fit: ``tokens`` against ``limit``."""

    def __init__(self, tokens: int, limit: int):
        super().__init__(tokens, limit)
        self.tokens, self.limit = tokens, limit


def npu_limits(max_prompt_len: int, min_response_len: int, *, speculative: bool) -> ContextLimits:
    """The NPU's compiled limits: GenAI stops (or, with EAGLE-3, fails) at MAX_PROMPT_LEN + MIN_RESPONSE_LEN."""
    margin = 1
    if speculative:
        window = max(NPU_COMPILED_ASSISTANT_TOKENS + 1, NPU_COMPILED_TREE_DEPTH * NPU_COMPILED_BRANCHING)
        margin = 2 * (-(-window // 8) * 8)
    return ContextLimits(max_prompt_len + min_response_len, max_prompt_len, margin)


def cpu_limits(max_context: int | None, kv_capacity: int | None) -> ContextLimits:
    """CPU/GPU: the model's context, or less when the KV cache holds fewer tokens."""
    known = [n for n in (max_context, kv_capacity) if n]
    context = min(known) if known else 1 << 30
    return ContextLimits(context, context, CPU_MARGIN)


def limits_for(plan, npu) -> ContextLimits:
    """The limits of a pipeline built from ``plan`` (an engine LoadPlan) with NPU options ``npu``."""
    if plan.device == "NPU":
        return npu_limits(npu.max_prompt_len, npu.min_response_len, speculative=plan.draft_dir is not None)
    max_context = plan.target.max_context if plan.target is not None else None
    return cpu_limits(max_context, plan.kv_cache.capacity_tokens if plan.kv_cache is not None else None)


def plan_for(engine, prompt: str | Sequence[Message], max_new_tokens: int, thinking: bool | None,
             tools: str | None = None) -> ContextPlan:
    """``fit`` with an engine's tokenizer and chat template (thinking switch and tool list applied) and its
    limits. The per-message overhead is measured without tools: the tool list sits in the system turn, which
    is counted whole."""
    messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt

    def count(chosen: Sequence[Message]) -> int:
        return engine.count_prompt_tokens(chosen, thinking, tools)

    def count_plain(chosen: Sequence[Message]) -> int:
        return engine.count_prompt_tokens(chosen, thinking)

    known = _TEXT_TOKENS.get(engine)
    if known is None:
        known = _TEXT_TOKENS[engine] = TokenCounts(engine.count_text_tokens)
    overheads = _OVERHEADS.setdefault(engine, {})
    if thinking not in overheads:  # measured once per pipeline and thinking switch
        overheads[thinking] = message_overhead(count_plain, known.count)
    return fit(messages, max_new_tokens, engine.context_limits, count, known.count, overhead=overheads[thinking])


class TokenCounts:
    """Tokens of each text, remembered so that a conversation's old messages are counted once, not every
    turn; at most ``max_bytes`` of texts (their size in memory), the least recently used going first.

    Bounded in bytes, not entries: agents send a distinct large history with every request (20,000
    remembered 20 kB texts were 400 MB)."""

    def __init__(self, count_texts: CountTexts, max_bytes: int = TOKEN_COUNTS_BYTES):
        self._count_texts, self.max_bytes = count_texts, max_bytes
        self._known: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0

    def count(self, texts: Sequence[str]) -> list[int]:
        with self._lock:  # the budget may be worked out on more than one thread
            known = self._known
            missing = [t for t in dict.fromkeys(texts) if t not in known]
            counts = dict(zip(missing, self._count_texts(missing))) if missing else {}
            for text in texts:
                if text in known:
                    known.move_to_end(text)
                    counts.setdefault(text, known[text])
            for text in missing:
                known[text] = counts[text]
                self.bytes += _entry_bytes(text)
            while self.bytes > self.max_bytes:
                text, _ = known.popitem(last=False)
                self.bytes -= _entry_bytes(text)
            return [counts[t] for t in texts]


def _entry_bytes(text: str) -> int:
    """What remembering ``text`` costs: the string and its share of the dictionary (~100 bytes)."""
    return sys.getsizeof(text) + 100


def prompt_limit(limits: ContextLimits, max_new_tokens: int) -> int:
    """The most prompt tokens a reply of ``max_new_tokens`` leaves room for."""
    usable = limits.context - limits.margin
    reserve = min(max_new_tokens, usable - usable // MIN_PROMPT_SHARE)
    return max(1, min(limits.max_prompt, usable - reserve))


def fit(
    messages: Sequence[Message],
    max_new_tokens: int,
    limits: ContextLimits,
    count_prompt: CountPrompt,
    count_texts: CountTexts,
    *,
    overhead: int = 4,
) -> ContextPlan:
    """Choose what of ``messages`` (an optional system message, earlier turns, the new user message last)
    to send. ``overhead`` is what the chat template adds around one message (see ``message_overhead``).
    Raises ContextTooSmall when the new message alone cannot be answered."""
    copies = [dict(m) for m in messages]
    system = copies[:1] if copies and copies[0].get("role") == "system" else []
    turns = copies[len(system):]
    # The new message goes whole; a reply to continue (an assistant message last) keeps its question.
    tail = 2 if len(turns) >= 2 and turns[-1].get("role") == "assistant" else 1
    history, new = turns[:-tail], turns[-tail:]
    limit = prompt_limit(limits, max_new_tokens)
    fixed = count_prompt(system + new)
    sizes = [n + overhead for n in count_texts([m["content"] for m in history])] if history else []
    # Counting a long conversation exactly costs a tokenizer pass over all of it: only when it may fit (and
    # a first message is what was just counted: a render and a tokenizer call less before the first token).
    if not history:
        total = fixed
    else:
        total = count_prompt(copies) if fixed + sum(sizes) <= limit + limit // 8 else limit + 1
    cut = 0
    if total > limit and history:
        cut, total = _cut(system, history, new, sizes, limit, count_prompt)
    if not history[cut:]:
        total = fixed
    room = limits.context - limits.margin - total
    if total > limits.max_prompt or room < min(MIN_REPLY_TOKENS, max_new_tokens):
        raise ContextTooSmall(total, min(limits.max_prompt, limits.context - limits.margin - MIN_REPLY_TOKENS))
    return ContextPlan(
        messages=system + history[cut:] + new,
        prompt_tokens=total,
        max_new_tokens=max(1, min(max_new_tokens, room)),
        requested_new_tokens=max_new_tokens,
        prompt_limit=limit,
        dropped=cut,
        history_tokens=max(0, total - fixed),
    )


def message_overhead(count_prompt: CountPrompt, count_texts: CountTexts) -> int:
    """Tokens the chat template adds around one message (role markers, separators)."""
    probe = "hello"
    one = count_prompt([{"role": "user", "content": probe}])
    three = count_prompt([{"role": "user", "content": probe}, {"role": "assistant", "content": probe},
                          {"role": "user", "content": probe}])
    return max(1, (three - one) // 2 - count_texts([probe])[0])


def _cut(system, history, new, sizes, limit, count_prompt) -> tuple[int, int]:
    """The first history message to send (an index into ``history``) and the prompt's tokens from there.

    ``sizes`` estimates each message (its text's tokens plus the template's overhead), which places every
    message at a fixed position from the conversation's start. The cut for drop target k x chunk is the
    first exchange boundary at or past that position: it does not move as the conversation grows. The
    smallest k whose remainder fits (counted exactly) wins.
    """
    starts = [0]
    for size in sizes:
        starts.append(starts[-1] + size)
    boundaries = [i for i, m in enumerate(history) if m.get("role") == "user" and i > 0] + [len(history)]
    chunk = max(1, limit // CHUNK_SHARE)
    k = max(1, (starts[-1] - limit) // chunk)  # no smaller k can fit: skip counting those exactly
    while True:
        cut = next(b for b in boundaries if starts[b] >= k * chunk or b == len(history))
        total = count_prompt(system + history[cut:] + new)
        if total <= limit or cut == len(history):
            return cut, total
        k = starts[cut] // chunk + 1
