"""LiveReply: a conversation reply being written — its streamed text split into thinking and answer."""

from __future__ import annotations

from eagle_chat.core.generation.engine import GenerationResult, GenerationSettings
from eagle_chat.core.generation.reasoning import ReasoningSplitter
from eagle_chat.core.storage import branches
from eagle_chat.core.storage.conversation import Message


class LiveReply:
    """A conversation reply being written: its streamed text split into thinking and answer, after what it
    already had if it is being continued."""

    def __init__(self, message: Message, *, inside: bool, continuing: bool = False):
        self.message = message
        self.splitter = ReasoningSplitter(inside=inside, continuing=continuing)
        self.before = (message.thinking, message.content, message.stats) if continuing else ("", "", None)

    def feed(self, text: str) -> None:
        self.splitter.feed(text)

    def apply(self) -> None:
        """Put the thinking and answer so far on the message (for the view, or a partial save)."""
        thinking, answer, _ = self.before
        self.message.thinking = thinking + self.splitter.thinking
        self.message.content = answer + self.splitter.answer

    def finish(self, result: GenerationResult, settings: GenerationSettings, spec) -> None:
        """The final text (the engine's split of what it returned), stats and settings."""
        thinking, answer, stats = self.before
        split = result.reasoning
        self.message.thinking = thinking + (split.thinking if split else "")
        self.message.content = answer + (split.answer if split else result.text)
        self.message.stats = branches.continued_stats(stats, result.stats)
        self.message.made_with = branches.made_with(
            spec, settings, hit_limit=not result.stopped and result.stats.generated_tokens >= settings.max_new_tokens)
