"""ConversationActions: the conversation list's actions, an object the controller owns — new, open, rename,
delete, the open conversation's system prompt — and the open conversation itself (``conversation``).

They run on the GUI thread and use the store, the controller's signals (:class:`ConversationEvents`) and the
request queue (to see what is in flight); none of them starts a generation, and those that would pull a
conversation from under a reply in flight refuse with a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import SignalInstance

from eagle_chat.core.storage.conversation import Conversation
from eagle_chat.ui.words.i18n import translate

if TYPE_CHECKING:
    from eagle_chat.core.storage.store import ConversationStore
    from eagle_chat.ui.runtime.request_queue import RequestQueue


@dataclass(frozen=True)
class ConversationEvents:
    """The controller's conversation-level signals, which its conversation concerns emit (the window and the
    views listen to the controller's): see ChatController for what each says."""

    error: SignalInstance
    conversations_changed: SignalInstance
    conversation_opened: SignalInstance
    conversation_touched: SignalInstance
    path_changed: SignalInstance
    message_added: SignalInstance
    reply_text: SignalInstance


class ConversationActions:
    """The open conversation and the list's actions."""

    def __init__(self, store: ConversationStore, requests: RequestQueue, events: ConversationEvents):
        self.store = store
        self.conversation: Conversation | None = None
        self._requests = requests
        self._events = events

    def new_conversation(self, system_prompt: str = "") -> Conversation:
        conversation = self.store.create_conversation(system_prompt=system_prompt)
        self.conversation = conversation
        self._events.conversations_changed.emit()
        self._events.conversation_opened.emit(conversation)
        return conversation

    def open_conversation(self, conversation_id: int) -> None:
        if self.conversation is not None and self.conversation.id == conversation_id:
            return  # already open: a double click, or a click and an activation, opens it once
        if any(reply.message is not None for reply in self._requests.replies()):
            self._events.error.emit(translate("ConversationActions", "Stop the reply in flight before switching conversations."))
            return
        conversation = self.store.load_conversation(conversation_id)
        if conversation is None:
            self._events.error.emit(translate("ConversationActions", "That conversation no longer exists."))
            self._events.conversations_changed.emit()
            return
        self.conversation = conversation
        self._events.conversation_opened.emit(conversation)

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        title = " ".join(title.split())
        if not title:
            return
        self.store.rename_conversation(conversation_id, title)
        if self.conversation is not None and self.conversation.id == conversation_id:
            self.conversation.title = title
        self._events.conversations_changed.emit()

    def delete_conversation(self, conversation_id: int) -> None:
        reply = self._requests.reply
        replying = reply is not None and reply.message is not None
        if replying and self.conversation is not None and self.conversation.id == conversation_id:
            self._events.error.emit(translate("ConversationActions", "Stop the reply in flight before deleting its conversation."))
            return
        self.store.delete_conversation(conversation_id)
        if self.conversation is not None and self.conversation.id == conversation_id:
            self.conversation = None
            self._events.conversation_opened.emit(None)
        self._events.conversations_changed.emit()

    def set_system_prompt(self, text: str) -> None:
        if self.conversation is not None and self.conversation.system_prompt != text:
            self.conversation.system_prompt = text
            self.store.update_conversation(self.conversation)
