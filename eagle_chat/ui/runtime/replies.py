"""The controller's book-keeping of one reply, in flight or waiting in the request queue."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.metrics import RateMeter
from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.core.storage.conversation import Message

if TYPE_CHECKING:
    from eagle_chat.core.serving.backend import Job
    from eagle_chat.ui.runtime.branching import LiveReply


@dataclass
class ReplyInFlight:
    """Book-keeping of the reply being generated."""

    request_id: int
    mode: str
    settings: GenerationSettings
    stop: threading.Event
    message: Message | None  # None for replies that are not part of a conversation (comparisons, API)
    job: Job | None = None  # an API request: it hears the reply's events
    prompt: object = None
    draft_free: bool = False
    background: bool = False  # gives way to any request the user makes (see ChatController.run_ephemeral)
    finish: bool = False  # a short background reply (the next-turn prefill): a request waits for its end
    meter: RateMeter = field(default_factory=RateMeter)
    parts: list[str] = field(default_factory=list)
    tokens: int = 0
    dirty: bool = False
    pending_points: list[tuple[float, float]] = field(default_factory=list)
    last_save: float = field(default_factory=time.monotonic)
    steps: StepRecord = field(default_factory=StepRecord)  # the verification steps so far
    steps_dirty: bool = False
    live: LiveReply | None = None  # a conversation reply's thinking and answer so far

    @property
    def text(self) -> str:
        return "".join(self.parts)


def mark_started(marker, reply: ReplyInFlight, conversation, loaded) -> None:
    """Put the crash marker (core.storage.reply_marker) on disk while ``reply`` runs: left behind, it means
    the app died mid-reply, and says in which conversation, with which cache setting, on which device."""
    if marker is None or reply.background:  # the warm start is no one's reply: a crash in it says nothing
        return
    marker.begin(conversation_id=conversation.id if reply.message is not None and conversation else None,
                 message_id=reply.message.id if reply.message is not None else None,
                 prefix_cache=bool(loaded and loaded.prefix_cache), device=loaded.device if loaded else None)


def mark_ended(marker) -> None:
    if marker is not None:
        marker.end()
