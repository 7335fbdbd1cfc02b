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

from eagle_chat.ui.runtime.reply_handle import ReplyHandle

if TYPE_CHECKING:
    from eagle_chat.core.serving.backend import Job
    from eagle_chat.ui.runtime.live_reply import LiveReply


@dataclass
class ReplyInFlight:
    """The queue's book-keeping of one reply, in flight or waiting: its engine request id (which only the
    queue matches against the worker's messages), its stop flag and prompt, and the ``handle`` its asker holds."""

    request_id: int
    handle: ReplyHandle
    stop: threading.Event
    prompt: object = None
    job: Job | None = None  # an API request: it hears the reply's events
    finish: bool = False  # a short background reply (the next-turn prefill): a request waits for its end
    live: LiveReply | None = None  # a conversation reply's thinking and answer so far
    meter: RateMeter = field(default_factory=RateMeter)
    parts: list[str] = field(default_factory=list)
    tokens: int = 0
    dirty: bool = False
    pending_points: list[tuple[float, float]] = field(default_factory=list)
    last_save: float = field(default_factory=time.monotonic)
    steps_dirty: bool = False

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def mode(self) -> str:
        return self.handle.mode

    @property
    def settings(self) -> GenerationSettings:
        return self.handle.settings

    @property
    def message(self) -> Message | None:
        """The conversation's reply it writes into; None for comparisons, API requests and background ones."""
        return self.handle.message

    @property
    def background(self) -> bool:
        """It gives way to any request the user makes (see ChatController.run_ephemeral)."""
        return self.handle.background

    @property
    def draft_free(self) -> bool:
        return self.handle.draft_free

    @property
    def steps(self) -> StepRecord:
        """The verification steps so far (the handle's record)."""
        return self.handle.steps


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
