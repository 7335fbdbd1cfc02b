"""The controller's branch operations: regenerate, answer a question left without a reply, edit and resend,
continue, delete, switch branches.

:class:`BranchActions` is mixed into :class:`~eagle_chat.ui.runtime.controller.ChatController` (it uses the
controller's store, open conversation and ``_start``): the data decisions are
:mod:`eagle_chat.core.storage.branches`; this adds the store writes, the request and the signals. Each
operation ends with ``sig_path_changed`` so the chat view shows the new visible path, and what is sent to
the model is always that path. :class:`LiveReply` keeps a reply's thinking apart from its answer while it
streams.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from eagle_chat.core.generation.engine import GenerationResult, GenerationSettings
from eagle_chat.core.generation.reasoning import ReasoningSplitter
from eagle_chat.core.storage import branches
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.words.i18n import translate

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from eagle_chat.core.generation.loaded import LoadedPipeline
    from eagle_chat.core.storage.store import ConversationStore


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


class BranchActions:
    """Mixin for ChatController: the operations on a conversation's branches."""

    if TYPE_CHECKING:  # what the controller provides, declared for the type checker (no runtime effect)
        store: ConversationStore
        conversation: Conversation | None
        loaded: LoadedPipeline | None
        grounding: Callable[[Conversation, int | None], list[dict] | None] | None
        sig_error: SignalInstance
        sig_path_changed: SignalInstance
        sig_message_added: SignalInstance
        sig_reply_text: SignalInstance
        sig_conversation_touched: SignalInstance
        sig_conversations_changed: SignalInstance

        @property
        def foreground(self) -> object | None: ...  # the reply in flight (runtime.replies: it imports this module)
        def open_conversation(self, conversation_id: int) -> None: ...
        def _can_generate(self) -> bool: ...
        def _start(self, prompt, settings: GenerationSettings, message: Message | None, *,
                   live: LiveReply | None = None) -> int: ...

    def regenerate(self, reply: Message, settings: GenerationSettings) -> bool:
        """Ask again for ``reply``: a new sibling reply to the same message; the old one stays."""
        conversation = self._branchable(reply, "assistant")
        if conversation is None:
            return False
        branches.cut_before(conversation, reply)
        return self._reply_to_path(conversation, settings, redraw=True)

    def answer(self, question: Message, settings: GenerationSettings) -> bool:
        """Reply to ``question``, the user's message that ends the path without a reply (its reply was
        deleted, or never came)."""
        conversation = self._branchable(question, "user")
        if conversation is None:
            return False
        if question is not conversation.messages[-1]:
            self.sig_error.emit(translate("BranchActions", "That message has a reply already: regenerate the reply."))
            return False
        return self._reply_to_path(conversation, settings, redraw=True)

    def edit(self, message: Message, text: str, settings: GenerationSettings) -> bool:
        """Send ``text`` as a new version of the user's ``message`` (a sibling), and reply to it."""
        conversation = self._branchable(message, "user")
        if conversation is None:
            return False
        if not text.strip():
            self.sig_error.emit(translate("BranchActions", "The message is empty; type something to send."))
            return False
        branches.cut_before(conversation, message)
        self.store.add_message(conversation, Message("user", text))
        return self._reply_to_path(conversation, settings, redraw=True)

    def continue_reply(self, reply: Message, settings: GenerationSettings) -> bool:
        """Let the model go on with ``reply`` (cut by the token limit, a stop or a crash) from where it ended."""
        conversation = self._branchable(reply, "assistant")
        if conversation is None:
            return False
        if reply is not conversation.messages[-1] or not branches.is_cut(reply):
            self.sig_error.emit(translate(
                "BranchActions", "Only the last reply can be continued, and only if it was cut short."))
            return False
        history = branches.continuation_history(conversation, reply)
        inside = not branches.thinking_closed(reply)
        reply.status, reply.error = "streaming", None
        self.store.update_message(reply)
        self._start(history, settings, reply, live=LiveReply(reply, inside=inside, continuing=True))
        self.sig_reply_text.emit(reply, reply.content)
        self.sig_conversation_touched.emit(conversation)
        return True

    def delete_message(self, message: Message) -> bool:
        """Delete ``message`` and everything after it on its branches; a sibling takes its place."""
        conversation = self._branchable(message, message.role, starts_reply=False)
        if conversation is None:
            return False
        gone = branches.remove(conversation, message)
        self.store.delete_messages(conversation, gone)
        self.store.update_conversation(conversation)
        self.sig_path_changed.emit(conversation)
        return True

    def switch_branch(self, message: Message, step: int) -> bool:
        """Show the previous (-1) or next (+1) sibling of ``message`` and the newest path below it."""
        conversation = self._branchable(message, message.role, starts_reply=False)
        if conversation is None or branches.switch(conversation, message, step) is None:
            return False
        self.store.save_path(conversation)
        self.sig_path_changed.emit(conversation)
        return True

    def import_conversation(self, conversation: Conversation) -> Conversation:
        """Store an imported conversation (every branch) and open it."""
        stored = self.store.insert_conversation(conversation)
        assert stored.id is not None  # the store gave it its row
        self.sig_conversations_changed.emit()
        self.open_conversation(stored.id)
        return stored

    def last_message(self, role: str) -> Message | None:
        """The last message of ``role`` on the visible path of the open conversation."""
        path = self.conversation.messages if self.conversation is not None else []
        return next((m for m in reversed(path) if m.role == role), None)

    # --- internals -------------------------------------------------------------------------------------
    def _branchable(self, message: Message, role: str, *, starts_reply: bool = True) -> Conversation | None:
        """The open conversation, if ``message`` (of ``role``) is on its path and the app may act on it now:
        start a reply (``starts_reply``), or change the path while no reply is being written; else None
        (``sig_error`` says why)."""
        conversation = self.conversation
        if conversation is None or message is None or message.role != role \
                or not any(m is message for m in conversation.messages):
            self.sig_error.emit(translate("BranchActions", "That message is not in the open conversation any more."))
            return None
        if not starts_reply and self.foreground is not None:
            self.sig_error.emit(translate("BranchActions", "A reply is still being generated; stop it first."))
            return None
        return conversation if not starts_reply or self._can_generate() else None

    def next_tool_step(self, message: Message, settings: GenerationSettings) -> bool:
        """Run the next model step of an agent reply (``message``, the open conversation's last, with its
        tool steps so far) into the same message. False if refused (``sig_error`` says why)."""
        if not self._can_generate() or self.conversation is None or self.conversation.messages[-1] is not message:
            return False
        message.status = "streaming"
        inside = bool(self.loaded and self.loaded.opens_reasoning(settings.thinking))
        self._start(self.conversation.history(), settings, message, live=LiveReply(message, inside=inside))
        return True

    def _reply_to_path(self, conversation: Conversation, settings: GenerationSettings, *, redraw: bool = False) -> bool:
        """Start the assistant's reply to ``conversation``'s visible path (the open conversation's)."""
        context = self.loaded.context_length if self.loaded is not None else None
        sources = self.grounding(conversation, context) if self.grounding is not None else None
        reply = self.store.add_message(conversation, Message("assistant", "", status="streaming", sources=sources))
        history = conversation.history()  # with the passages, beside the question they answer
        thinking = settings.thinking
        inside = bool(self.loaded and self.loaded.opens_reasoning(thinking))
        # Queue the request before the views draw: the worker reads the prompt in (OpenVINO, no GIL
        # needed) while the GUI thread renders, instead of after it.
        self._start(history, settings, reply, live=LiveReply(reply, inside=inside))
        if redraw:
            self.sig_path_changed.emit(conversation)
        else:
            for message in conversation.messages[-2:]:
                self.sig_message_added.emit(message)
        self.sig_conversation_touched.emit(conversation)
        return True
