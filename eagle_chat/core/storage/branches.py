"""Branches of a conversation: alternatives kept side by side, and the visible path through them.

Regenerating a reply adds a sibling reply under the same user message; editing a message adds a sibling
message under the same parent. Nothing is overwritten: ``‹ 2/3 ›`` moves between siblings, and the path
shown (``conversation.messages``) is what the model is sent. Moving to a sibling shows that sibling's
newest continuation: from it, the newest child at each step down. Plain data, no SQL: the store persists
what these functions decide.
"""

from __future__ import annotations

from dataclasses import asdict, is_dataclass, replace

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.generation.reasoning import join_reasoning
from eagle_chat.core.storage.conversation import Conversation, Message

CUT_STATUSES = ("stopped", "interrupted")


def nodes(conversation: Conversation) -> list[Message]:
    """Every message on every branch, oldest first (a conversation built as a plain list has one branch)."""
    return conversation.all_messages or conversation.messages


def children(conversation: Conversation, parent_id: int | None) -> list[Message]:
    return [m for m in nodes(conversation) if m.parent_id == parent_id]


def siblings(conversation: Conversation, message: Message) -> list[Message]:
    """``message`` and its alternatives (same parent, same role), oldest first."""
    if not conversation.all_messages:
        return [message]
    return [m for m in children(conversation, message.parent_id) if m.role == message.role]


def position(conversation: Conversation, message: Message) -> tuple[int, int]:
    """(1-based place among its siblings, how many there are): ``(2, 3)`` is shown as ``‹ 2/3 ›``."""
    group = siblings(conversation, message)
    ids = [m.id for m in group]
    return (ids.index(message.id) + 1 if message.id in ids else 1), max(len(group), 1)


def repeats(conversation: Conversation, message: Message) -> int | None:
    """The place (1-based, as ``position`` counts) of an older version that ``message`` repeats word for
    word, if ``message`` is a finished reply decoded greedily (None otherwise). Greedy decoding gives the
    same answer to the same conversation every time, so a regenerated reply repeats the one it replaces;
    the window says why instead of leaving the user to wonder."""
    if message.role != "assistant" or message.status != "complete" or not (message.content or message.thinking):
        return None
    if ((message.made_with or {}).get("settings") or {}).get("do_sample"):
        return None
    group = siblings(conversation, message)
    for place, other in enumerate(group, start=1):
        if other is message or other.id == message.id:
            return None  # only older versions
        if (other.content, other.thinking) == (message.content, message.thinking):
            return place
    return None


def path_to(conversation: Conversation, message_id: int | None) -> list[Message]:
    """The messages from the first one down to ``message_id``."""
    by_id = {m.id: m for m in nodes(conversation)}
    path, seen = [], set()
    current = by_id.get(message_id)
    while current is not None and current.id not in seen:  # a damaged parent loop ends the walk
        seen.add(current.id)
        path.append(current)
        current = by_id.get(current.parent_id)
    return path[::-1]


def newest_leaf(conversation: Conversation, message: Message) -> Message:
    """Where a branch leads: from ``message``, the newest child at each step down."""
    seen = {message.id}
    while True:
        below = [m for m in children(conversation, message.id) if m.id not in seen]
        if not below:
            return message
        message = below[-1]
        seen.add(message.id)


def show(conversation: Conversation, message: Message) -> None:
    """Make the branch through ``message`` (and its newest continuation) the visible path."""
    conversation.messages = path_to(conversation, newest_leaf(conversation, message).id)


def switch(conversation: Conversation, message: Message, step: int) -> Message | None:
    """Show the sibling ``step`` places away (-1 previous, +1 next); returns it, or None at either end."""
    group = siblings(conversation, message)
    ids = [m.id for m in group]
    if message.id not in ids:
        return None
    index = ids.index(message.id) + step
    if not 0 <= index < len(group):
        return None
    show(conversation, group[index])
    return group[index]


def cut_before(conversation: Conversation, message: Message) -> None:
    """End the visible path just before ``message``: what is added next becomes its sibling."""
    conversation.messages = path_to(conversation, message.parent_id)


def subtree(conversation: Conversation, message: Message) -> list[Message]:
    """``message`` and everything that follows it on any branch."""
    ids, found = {message.id}, [message]
    for candidate in nodes(conversation):  # oldest first: a parent always precedes its children
        if candidate.parent_id in ids and candidate.id not in ids:
            ids.add(candidate.id)
            found.append(candidate)
    return found


def remove(conversation: Conversation, message: Message) -> list[Message]:
    """Take ``message`` and all that follows it out of the conversation; returns what was removed.

    The visible path moves to the previous sibling (or the next one, if it was the first), else ends at
    the parent."""
    gone = subtree(conversation, message)
    gone_ids = {m.id for m in gone}
    group = siblings(conversation, message)
    place = [m.id for m in group].index(message.id) if message in group else 0
    others = [m for m in group if m.id not in gone_ids]
    conversation.all_messages = [m for m in nodes(conversation) if m.id not in gone_ids]
    if others:
        show(conversation, others[max(place - 1, 0)])
    else:
        conversation.messages = path_to(conversation, message.parent_id)
    return gone


def is_cut(message: Message) -> bool:
    """A reply that ended before the model finished it: stopped, interrupted, or at its token limit."""
    if message.role != "assistant" or message.status == "failed":
        return False
    if message.status in CUT_STATUSES:
        return True
    made_with = message.made_with or {}
    if "hit_limit" in made_with:
        return bool(made_with["hit_limit"])
    limit = (made_with.get("settings") or {}).get("max_new_tokens")
    return bool(message.stats is not None and limit and message.stats.generated_tokens >= limit)


def continuation_history(conversation: Conversation, reply: Message) -> list[dict[str, str]]:
    """What to send to continue ``reply``: the turns before it, then its text so far as the model wrote it
    (thinking included), which the engine continues instead of starting a new turn."""
    before = Conversation(system_prompt=conversation.system_prompt,
                          messages=path_to(conversation, reply.parent_id))
    raw = join_reasoning(reply.thinking, reply.content, closed=thinking_closed(reply))
    return [*before.history(), {"role": "assistant", "content": raw}]


def thinking_closed(reply: Message) -> bool:
    """False if ``reply`` was cut while still thinking (its answer had not begun)."""
    if reply.content or not reply.thinking:
        return True
    stats = reply.stats
    return stats is not None and stats.thinking_tokens is not None and stats.thinking_tokens < stats.generated_tokens


def _known_sum(a: int | None, b: int | None) -> int | None:
    """None when a run did not count it (a remote server that does not say)."""
    return None if a is None or b is None else a + b


def continued_stats(before: GenerationStats | None, after: GenerationStats) -> GenerationStats:
    """The figures of a reply written in two runs: counts and times add up; speeds are token-weighted over
    both runs. Time to first token stays the first run's; the prompt is the last run's (it holds the
    first part); mode, K and device are the last run's."""
    if before is None:
        return after
    generated = before.generated_tokens + after.generated_tokens
    seconds = _seconds(before) + _seconds(after)
    accepted = _known_sum(before.accepted_tokens, after.accepted_tokens)
    drafted = _known_sum(before.draft_tokens, after.draft_tokens)
    steps = _steps(before) + _steps(after)
    thinking = None
    if before.thinking_tokens is not None or after.thinking_tokens is not None:
        thinking = (before.thinking_tokens or 0) + (after.thinking_tokens or 0)
    thinking_ms = before.thinking_ms
    if after.thinking_ms is not None and (before.thinking_tokens or 0) >= before.generated_tokens:
        thinking_ms = (before.duration_ms if before.thinking_ms is None else before.thinking_ms) + after.thinking_ms
    return replace(
        after,
        generated_tokens=generated,
        ttft_ms=before.ttft_ms,
        duration_ms=before.duration_ms + after.duration_ms,
        tokens_per_s=generated / seconds if seconds > 0 else after.tokens_per_s,
        tpot_ms=((before.tpot_ms * before.generated_tokens + after.tpot_ms * after.generated_tokens) / generated
                 if generated else after.tpot_ms),
        accepted_tokens=accepted,
        draft_tokens=drafted,
        acceptance=(accepted / drafted if accepted is not None and drafted else after.acceptance),
        tokens_per_step=(generated / steps if steps else after.tokens_per_step),
        thinking_tokens=thinking,
        thinking_ms=thinking_ms,
        runs=before.runs + after.runs,
        stopped=after.stopped,
    )


def made_with(spec, settings, *, hit_limit: bool | None = None) -> dict:
    """A reply's model and generation settings, as stored and exported. Folder names, not full paths:
    an export shared with someone must not carry the sender's home folder. ``hit_limit``: its last run
    ended at ``max_new_tokens`` (so it can be continued)."""
    target, draft = getattr(spec, "target_dir", None), getattr(spec, "draft_dir", None)  # none for a remote server
    record = {
        "target": target.name if target is not None else getattr(spec, "model", None) or None,
        "draft": draft.name if draft is not None else None,
        "device": getattr(spec, "device", None),
        "precision": getattr(spec, "precision", None),
        "settings": asdict(settings) if is_dataclass(settings) and not isinstance(settings, type) else dict(settings or {}),
    }
    if hit_limit is not None:
        record["hit_limit"] = hit_limit
    return record


def _seconds(stats: GenerationStats) -> float:
    """The time a run's tokens took at its own rate (what its tokens/s divides by)."""
    return stats.generated_tokens / stats.tokens_per_s if stats.tokens_per_s > 0 else 0.0


def _steps(stats: GenerationStats) -> float:
    return stats.generated_tokens / stats.tokens_per_step if stats.tokens_per_step else 0.0
