"""Next-turn prefill: put a conversation through the model as the next turn will send it, before it is sent.

Prefix caching (CPU/GPU) reuses the KV blocks of earlier *prompts* only. Measured on GenAI 2026.4.1 with
the speed-demo pair (``benchmarks/next_turn_prefill.py``): the blocks a reply *generated* are not reused
by the next turn, even without a draft and with a tokenization identical to the generated ids, so every
turn prefilled the whole previous reply again (a 512-token reply: ~0.6 s on a 50M model, seconds on an 8B
one); and with an EAGLE-3 draft, GenAI reuses only the prefix the draft has cached too, which a prompt
gets only once a drafting step has run on it (a call of 1-2 new tokens caches nothing in the draft).

So after a reply, while the user reads it and types, the app runs the conversation once more in the
background: the system prompt and the turns the context budget will send, the reply just written, and the
template's opening of the next user message — cut where that message's text will start — for a few
tokens, enough for a drafting step. The next turn's prompt starts with exactly that text, so only the new
message is prefilled when it is sent. When the budget's cut moves, the new window is what gets prefilled:
that cost moves out of the user's wait too.

What the model reads does not change: the prefill renders the same messages with the same template; its
output is thrown away. After a reply that called tools (an agent's turn through the API) the next message is a
tool result, so the probe is one (``<tool_response>`` in Qwen3's template) rather than a user message.

:class:`Prefilled` keeps the prefill's prompt until the request after it, which reports how many of its first
prompt tokens the prefill had put through the model (``GenerationStats.prefilled_tokens``): an observable of
the prefill that does not depend on timing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from eagle_chat.core.generation.chat_tokens import NoSuchText

NEW_MESSAGE = "\u2063next-turn\u2063"  # stands for the user's next message; templates copy it as it is
EXTRA_STEPS = 3  # new tokens beyond K: the draft caches the prompt on its first drafting step


class NoPrefill(Exception):
    """Nothing to prefill: the template does not show where the next message's text would begin."""


def next_turn_prompt(engine, history: Sequence[Mapping[str, str]], settings):
    """The prompt the next turn will start with, for ``history`` (system prompt first, the reply just
    written last): what the context budget would send with a new user message, through the chat template,
    up to where that message's text begins — as text and as the ids sent (a Prompt)."""
    last = history[-1] if history else {}
    calls = last.get("role") == "assistant" and last.get("tool_calls")
    probe = [*(dict(m) for m in history), {"role": "tool", "tool_call_id": "next-turn", "content": NEW_MESSAGE}
             if calls else {"role": "user", "content": NEW_MESSAGE}]
    plan = engine.plan_context(probe, settings)
    try:
        return engine.prompt(plan.messages, settings.thinking, until=NEW_MESSAGE, tools=settings.tools)
    except NoSuchText:
        raise NoPrefill from None


def run_settings(settings):
    """How the prefill itself runs: a few tokens, same mode and K."""
    tokens = settings.num_assistant_tokens + EXTRA_STEPS if settings.speculative else 1
    return replace(settings, next_turn=False, max_new_tokens=max(1, tokens))


class Prefilled:
    """The prompt ids the last next-turn prefill ran, kept until the request after it."""

    def __init__(self):
        self.ids = None

    def after(self, ids, next_turn: bool) -> int | None:
        """Note a prefill's prompt (``next_turn``: None), or for any other request the number of its first
        prompt tokens that the prefill just before it ran (0: none ran, or it rendered something else)."""
        if next_turn:
            self.ids = ids
            return None
        last, self.ids = self.ids, None
        if last is None:
            return 0
        n = min(len(last), len(ids))
        differ = np.flatnonzero(np.asarray(last[:n]) != np.asarray(ids[:n]))
        return int(differ[0]) if len(differ) else n
