"""The controller's conversation list actions (a mixin of :class:`~eagle_chat.ui.runtime.controller.ChatController`):
new, open, rename, delete, and the open conversation's system prompt.

They run on the GUI thread and use the controller's store, signals and reply queue; none of them starts a
generation, and those that would pull a conversation from under a reply in flight refuse with a sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eagle_chat.core.storage.conversation import Conversation
from eagle_chat.ui.words.i18n import translate

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from eagle_chat.core.storage.store import ConversationStore
    from eagle_chat.ui.runtime.replies import ReplyInFlight


class ConversationActions:
    if TYPE_CHECKING:  # what the controller provides, declared for the type checker (no runtime effect)
        store: ConversationStore
        conversation: Conversation | None
        reply: ReplyInFlight | None
        sig_error: SignalInstance
        sig_conversations_changed: SignalInstance
        sig_conversation_opened: SignalInstance

        def _replies(self) -> list[ReplyInFlight]: ...

    def new_conversation(self, system_prompt: str = "") -> Conversation:
        conversation = self.store.create_conversation(system_prompt=system_prompt)
        self.conversation = conversation
        self.sig_conversations_changed.emit()
        self.sig_conversation_opened.emit(conversation)
        return conversation

    def open_conversation(self, conversation_id: int) -> None:
        if self.conversation is not None and self.conversation.id == conversation_id:
            return  # already open: a double click, or a click and an activation, opens it once
        if any(reply.message is not None for reply in self._replies()):
            self.sig_error.emit(translate("ConversationActions", "Stop the reply in flight before switching conversations."))
            return
        conversation = self.store.load_conversation(conversation_id)
        if conversation is None:
            self.sig_error.emit(translate("ConversationActions", "That conversation no longer exists."))
            self.sig_conversations_changed.emit()
            return
        self.conversation = conversation
        self.sig_conversation_opened.emit(conversation)

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        title = " ".join(title.split())
        if not title:
            return
        self.store.rename_conversation(conversation_id, title)
        if self.conversation is not None and self.conversation.id == conversation_id:
            self.conversation.title = title
        self.sig_conversations_changed.emit()

    def delete_conversation(self, conversation_id: int) -> None:
        replying = self.reply is not None and self.reply.message is not None
        if replying and self.conversation is not None and self.conversation.id == conversation_id:
            self.sig_error.emit(translate("ConversationActions", "Stop the reply in flight before deleting its conversation."))
            return
        self.store.delete_conversation(conversation_id)
        if self.conversation is not None and self.conversation.id == conversation_id:
            self.conversation = None
            self.sig_conversation_opened.emit(None)
        self.sig_conversations_changed.emit()

    def set_system_prompt(self, text: str) -> None:
        if self.conversation is not None and self.conversation.system_prompt != text:
            self.conversation.system_prompt = text
            self.store.update_conversation(self.conversation)
