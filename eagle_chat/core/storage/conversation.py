"""Messages and conversations as plain data (no Qt, no SQL).

A conversation is a tree: each message follows its ``parent_id``; a regenerated reply or an edited message
is a sibling of the one it replaces. ``messages`` is the visible path through it (what the window shows
and the model is sent), ``all_messages`` every branch; :mod:`eagle_chat.core.storage.branches` moves
between them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage.sources import grounded_question

# A message's life: an assistant reply is "streaming" while it is written, then "complete"; a reply cut
# short by the user is "stopped", one whose app died mid-way is "interrupted", one that errored "failed".
STATUSES = ("complete", "streaming", "stopped", "interrupted", "failed")
DEFAULT_TITLE = "New conversation"


@dataclass
class Message:
    role: str  # "system", "user" or "assistant"
    content: str
    id: int | None = None
    created: float = field(default_factory=time.time)
    status: str = "complete"
    stats: GenerationStats | None = None
    error: str | None = None
    thinking: str = ""  # an assistant reply's reasoning, kept apart from its answer (``content``)
    parent_id: int | None = None  # the message this one follows (None: the first of its conversation)
    made_with: dict | None = None  # a reply's model and generation settings (see branches.made_with)
    # an agent reply's tool steps, in order: {"content": the step's prose, "calls": [{"id", "name",
    # "arguments", "server", "tool", "status", "result", "is_error", "seconds"}]}; ``content`` is the answer
    tool_steps: list[dict] | None = None
    # a grounded reply's numbered passages (see core.storage.sources); the question before it goes with them
    sources: list[dict] | None = None


@dataclass
class Conversation:
    title: str = DEFAULT_TITLE
    system_prompt: str = ""
    id: int | None = None
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    messages: list[Message] = field(default_factory=list)  # the visible path, first to last
    all_messages: list[Message] = field(default_factory=list)  # every branch, oldest first

    def history(self) -> list[dict[str, str]]:
        """The chat history to send: system prompt first, then every finished or partial turn of the
        visible path. Replies go as their answers only: earlier thinking is never sent back (Qwen3's
        template strips it too).

        A failed turn — the reply failed, e.g. because the message was too long — is left out with the
        message that caused it, so one bad turn does not break every later one; it stays on screen and on
        disk. A stopped or interrupted reply is kept, as the user saw it. A question whose reply was given
        document passages goes with them (:func:`~eagle_chat.core.storage.sources.grounded_question`).
        """
        turns = [{"role": "system", "content": self.system_prompt}] if self.system_prompt.strip() else []
        following = {id(m): n for m, n in zip(self.messages, self.messages[1:])}
        for message in self._sent(len(self.messages)):
            turns += tool_turns(message)
            if message.content or not message.tool_steps:
                reply = following.get(id(message))
                sources = reply.sources if message.role == "user" and reply is not None else None
                content = grounded_question(message.content, sources) if sources else message.content
                turns.append({"role": message.role, "content": content})
        return turns

    def memory_start(self) -> Message | None:
        """The first message the latest reply's context still held, when the context budget left earlier
        ones out (its stats say how many of ``history()``'s messages were dropped); else None."""
        for index in range(len(self.messages) - 1, -1, -1):
            latest = self.messages[index]
            if latest.role == "assistant" and latest.stats is not None:
                dropped = latest.stats.history_dropped
                sent = self._sent(index) if dropped else []
                return sent[dropped] if dropped < len(sent) else None
        return None

    def _sent(self, end: int) -> list[Message]:
        """The messages before index ``end`` that ``history()`` sends."""
        sent = []
        for index, message in enumerate(self.messages[:end]):
            following = self.messages[index + 1] if index + 1 < len(self.messages) else None
            if message.role == "user" and following is not None and following.status == "failed":
                continue
            if message.role == "assistant" and (message.status == "failed"
                                                or not (message.content or message.tool_steps)):
                continue
            sent.append(message)
        return sent

    def title_from(self, text: str, limit: int = 48) -> str:
        """A title made from the first user message."""
        line = " ".join(text.split())
        return (line[: limit - 1] + "…") if len(line) > limit else (line or DEFAULT_TITLE)


def tool_turns(message: Message) -> list[dict]:
    """An agent reply's tool steps as the chat template reads them: per step the assistant's calls, then one
    ``tool`` message per call with its result (what the model read then: a denied call says so)."""
    turns: list[dict] = []
    for step in message.tool_steps or []:
        calls = step.get("calls", [])
        turns.append({"role": "assistant", "content": step.get("content", ""), "tool_calls": [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c.get("arguments") or "{}"}}
            for c in calls]})
        turns += [{"role": "tool", "tool_call_id": c["id"], "content": c.get("result", "")} for c in calls]
    return turns
