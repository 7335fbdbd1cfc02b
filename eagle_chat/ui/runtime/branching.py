"""The controller's operations that write the open conversation and start its reply: send, regenerate, answer
a question left without a reply, edit and resend, continue, an agent's next step, delete, switch branches.

:class:`BranchActions` is an object the controller owns; it is given the store, the open conversation's
owner (:class:`~eagle_chat.ui.runtime.conversation_actions.ConversationActions`), the request queue, what is
loaded, and the controller's conversation-level signals. The data decisions are
:mod:`eagle_chat.core.storage.branches`; this adds the store writes, the request and the signals. Each
operation ends with ``sig_path_changed`` so the chat view shows the new visible path, and what is sent to
the model is always that path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.storage import branches
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.runtime.live_reply import LiveReply
from eagle_chat.ui.words.i18n import translate

if TYPE_CHECKING:
    from eagle_chat.core.generation.loaded import LoadedPipeline
    from eagle_chat.core.storage.store import ConversationStore
    from eagle_chat.ui.runtime.reply_handle import ReplyHandle
    from eagle_chat.ui.runtime.conversation_actions import ConversationActions, ConversationEvents
    from eagle_chat.ui.runtime.request_queue import RequestQueue


class BranchActions:
    """The operations on the open conversation's branches, and the grounding of its replies."""

    def __init__(self, store: ConversationStore, conversations: ConversationActions, requests: RequestQueue,
                 loaded: Callable[[], LoadedPipeline | None], events: ConversationEvents):
        self.store = store
        self._conversations = conversations
        self._requests = requests
        self._loaded = loaded  # what is loaded now (the controller's)
        self._events = events
        self.grounding: Callable[[Conversation, int | None], list[dict] | None] | None = None
        """(conversation, context length) -> a reply's document passages (set by ui.documents)."""

    def send(self, text: str, settings: GenerationSettings) -> bool:
        """Add the user's message to the open conversation (a new one if none is open) and start the reply.
        False if refused."""
        if not self._requests.can_generate():
            return False
        if not text.strip():
            self._events.error.emit(translate("BranchActions", "The message is empty; type something to send."))
            return False
        conversations = self._conversations
        conversation = conversations.conversation if conversations.conversation is not None \
            else conversations.new_conversation()
        if not any(m.role == "user" for m in conversation.messages):
            conversation.title = conversation.title_from(text)
        self.store.add_message(conversation, Message("user", text))
        return self._reply_to_path(conversation, settings)

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
            self._events.error.emit(translate("BranchActions", "That message has a reply already: regenerate the reply."))
            return False
        return self._reply_to_path(conversation, settings, redraw=True)

    def edit(self, message: Message, text: str, settings: GenerationSettings) -> bool:
        """Send ``text`` as a new version of the user's ``message`` (a sibling), and reply to it."""
        conversation = self._branchable(message, "user")
        if conversation is None:
            return False
        if not text.strip():
            self._events.error.emit(translate("BranchActions", "The message is empty; type something to send."))
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
            self._events.error.emit(translate(
                "BranchActions", "Only the last reply can be continued, and only if it was cut short."))
            return False
        history = branches.continuation_history(conversation, reply)
        inside = not branches.thinking_closed(reply)
        reply.status, reply.error = "streaming", None
        self.store.update_message(reply)
        self._requests.start(history, settings, reply, live=LiveReply(reply, inside=inside, continuing=True))
        self._events.reply_text.emit(reply, reply.content)
        self._events.conversation_touched.emit(conversation)
        return True

    def delete_message(self, message: Message) -> bool:
        """Delete ``message`` and everything after it on its branches; a sibling takes its place."""
        conversation = self._branchable(message, message.role, starts_reply=False)
        if conversation is None:
            return False
        gone = branches.remove(conversation, message)
        self.store.delete_messages(conversation, gone)
        self.store.update_conversation(conversation)
        self._events.path_changed.emit(conversation)
        return True

    def switch_branch(self, message: Message, step: int) -> bool:
        """Show the previous (-1) or next (+1) sibling of ``message`` and the newest path below it."""
        conversation = self._branchable(message, message.role, starts_reply=False)
        if conversation is None or branches.switch(conversation, message, step) is None:
            return False
        self.store.save_path(conversation)
        self._events.path_changed.emit(conversation)
        return True

    def import_conversation(self, conversation: Conversation) -> Conversation:
        """Store an imported conversation (every branch) and open it."""
        stored = self.store.insert_conversation(conversation)
        assert stored.id is not None  # the store gave it its row
        self._events.conversations_changed.emit()
        self._conversations.open_conversation(stored.id)
        return stored

    def last_message(self, role: str) -> Message | None:
        """The last message of ``role`` on the visible path of the open conversation."""
        conversation = self._conversations.conversation
        path = conversation.messages if conversation is not None else []
        return next((m for m in reversed(path) if m.role == role), None)

    # --- internals -------------------------------------------------------------------------------------
    def _branchable(self, message: Message, role: str, *, starts_reply: bool = True) -> Conversation | None:
        """The open conversation, if ``message`` (of ``role``) is on its path and the app may act on it now:
        start a reply (``starts_reply``), or change the path while no reply is being written; else None
        (``sig_error`` says why)."""
        conversation = self._conversations.conversation
        if conversation is None or message is None or message.role != role \
                or not any(m is message for m in conversation.messages):
            self._events.error.emit(translate("BranchActions", "That message is not in the open conversation any more."))
            return None
        if not starts_reply and self._requests.foreground is not None:
            self._events.error.emit(translate("BranchActions", "A reply is still being generated; stop it first."))
            return None
        return conversation if not starts_reply or self._requests.can_generate() else None

    def next_tool_step(self, message: Message, settings: GenerationSettings) -> ReplyHandle | None:
        """Run the next model step of an agent reply (``message``, the open conversation's last, with its
        tool steps so far) into the same message: the step's handle, or None if refused (``sig_error`` says
        why)."""
        conversation = self._conversations.conversation
        if not self._requests.can_generate() or conversation is None or conversation.messages[-1] is not message:
            return None
        message.status = "streaming"
        loaded = self._loaded()
        inside = bool(loaded and loaded.opens_reasoning(settings.thinking))
        return self._requests.start(conversation.history(), settings, message, live=LiveReply(message, inside=inside))

    def _reply_to_path(self, conversation: Conversation, settings: GenerationSettings, *, redraw: bool = False) -> bool:
        """Start the assistant's reply to ``conversation``'s visible path (the open conversation's)."""
        loaded = self._loaded()
        context = loaded.context_length if loaded is not None else None
        sources = self.grounding(conversation, context) if self.grounding is not None else None
        reply = self.store.add_message(conversation, Message("assistant", "", status="streaming", sources=sources))
        history = conversation.history()  # with the passages, beside the question they answer
        thinking = settings.thinking
        inside = bool(loaded and loaded.opens_reasoning(thinking))
        # Queue the request before the views draw: the worker reads the prompt in (OpenVINO, no GIL
        # needed) while the GUI thread renders, instead of after it.
        self._requests.start(history, settings, reply, live=LiveReply(reply, inside=inside))
        if redraw:
            self._events.path_changed.emit(conversation)
        else:
            for message in conversation.messages[-2:]:
                self._events.message_added.emit(message)
        self._events.conversation_touched.emit(conversation)
        return True
