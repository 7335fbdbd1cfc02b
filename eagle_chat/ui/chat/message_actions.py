"""What the user can do to the messages of a conversation, from the chat view's links, the Conversation
menu and the keyboard: regenerate, edit and resend, continue, delete, switch between alternatives; export
and import whole conversations.

:class:`MessageActions` owns the menu actions (stable object names: ``actionRegenerate`` Ctrl+R,
``actionEditLastMessage`` (Up in the empty message box), ``actionContinue``, ``actionExportConversation``,
``actionImportConversation``, ``actionFocusSearch`` Ctrl+F / Ctrl+K) and the editing state of the
composer; the work is the controller's (:class:`~eagle_chat.ui.runtime.branching.BranchActions`).
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtWidgets import QFileDialog, QMessageBox

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.core.files import write_text_atomic
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.core.storage import branches, export
from eagle_chat.core.storage.conversation import Message
from eagle_chat.ui.words.core_text import user_error_text


class MessageActions(QObject):
    """Wires the chat view, the composer and the menu actions to the controller's branch operations."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.editing: Message | None = None
        self.confirm = True  # ask before deleting (tests switch it off)
        self._draft = ""  # what the message box held before editing began
        self.regenerate_action = self._action("actionRegenerate", self.tr("Regenerate reply"), self.regenerate_last,
                                              QKeySequence("Ctrl+R"))
        self.edit_action = self._action("actionEditLastMessage", self.tr("Edit last message (Up in the message box)"),
                                        self.edit_last)
        self.continue_action = self._action("actionContinue", self.tr("Continue cut reply"), self.continue_last)
        self.export_action = self._action("actionExportConversation",
                                          self.tr("Export conversation (Markdown, JSON)…"),
                                          self.export_clicked, QKeySequence("Ctrl+Shift+E"))
        self.import_action = self._action("actionImportConversation", self.tr("Import conversation (JSON)…"),
                                          self.import_clicked)
        self.search_action = self._action("actionFocusSearch", self.tr("Search conversations"), self.focus_search,
                                          QKeySequence("Ctrl+F"), QKeySequence("Ctrl+K"))
        c, chat, composer = self.controller, window.chat, window.composer
        chat.sig_message_action.connect(self.on_message_action)
        composer.prompt.sig_edit_last.connect(self.edit_last)
        composer.prompt.sig_escape.connect(self.cancel_edit)
        composer.sig_cancel_edit.connect(self.cancel_edit)
        c.sig_path_changed.connect(chat.show_conversation)
        c.sig_conversation_opened.connect(self._on_conversation_opened)
        for signal in (c.sig_state, c.sig_path_changed, c.sig_message_added, c.sig_reply_finished):
            signal.connect(self.sync_actions)
        self.sync_actions()

    def menu_actions(self) -> list[QAction | None]:
        """For the Conversation menu, in order (None: a separator)."""
        return [self.regenerate_action, self.edit_action, self.continue_action, None, self.export_action,
                self.import_action, None, self.search_action]

    # --- what the user asks ------------------------------------------------------------------------
    def send(self, text: str, settings) -> bool:
        """The composer's Enter: a new message, or the new version of the message being edited."""
        if self.editing is None:
            return self.controller.send(text, settings)
        if not self.controller.branches.edit(self.editing, text, settings):
            return False
        self._stop_editing()
        return True

    @Slot(str, int)
    def on_message_action(self, action: str, message_id: int) -> None:
        message = self.window.chat.message(message_id)
        if message is None:
            return
        c, settings = self.controller, self.window.generation_settings
        if action == "edit":
            self.start_edit(message)
        elif action == "generate":  # a new reply: agent mode applies, as to a sent message
            c.branches.answer(message, self.window.agent.first_step(settings()))
        elif action == "regenerate":
            c.branches.regenerate(message, self.window.agent.first_step(settings()))
        elif action == "vary":
            self.vary(message)
        elif action == "continue":
            c.branches.continue_reply(message, settings())
        elif action == "delete":
            self.delete(message)
        elif action in ("previous", "next"):
            c.branches.switch_branch(message, -1 if action == "previous" else 1)

    @Slot()
    def regenerate_last(self) -> None:
        """Ctrl+R: a new version of the last reply — or, when the path ends with a question whose reply was
        deleted, that question's reply (regenerating an earlier one would leave the question behind)."""
        path = self.controller.conversation.messages if self.controller.conversation else []
        if path and path[-1].role == "user":
            self.controller.branches.answer(path[-1], self.window.agent.first_step(self.window.generation_settings()))
            return
        reply = self.controller.branches.last_message("assistant")
        if reply is None:
            self.window.show_notice(self.tr("There is no reply to regenerate yet."), error=True)
            return
        self.controller.branches.regenerate(reply, self.window.agent.first_step(self.window.generation_settings()))

    def vary(self, reply: Message) -> None:
        """A reply that repeats an earlier version word for word (greedy decoding): regenerate it with sampling
        — at once without a draft; with an EAGLE-3 draft loaded, GenAI decodes greedily only, so first load the
        model without its draft (the user's choice, offered with what it costs)."""
        window = self.window
        if not window.has_draft:
            window.options.sampling.setChecked(True)
            self.controller.branches.regenerate(reply, window.generation_settings())
            return
        window.show_notice(self.tr(
            "With an EAGLE-3 draft loaded, OpenVINO GenAI decodes greedily: the same conversation always gets the "
            "same answer. To get another one, edit your message, or load the model without its draft and sample "
            "(no EAGLE-3 speed-up until you choose the pair again in the Models menu)."),
            action=(self.tr("Load without the draft and sample"), lambda: self._sample_without_draft(reply)))

    def _sample_without_draft(self, reply: Message) -> None:
        """Load the target alone, then regenerate ``reply`` with sampling once it is loaded."""
        window, loads = self.window, self.window.loads
        if not window.set_model(ModelChoice(window.model.target_dir, None)):
            return
        load_id = loads.pending.load_id

        def committed(request, _info) -> None:
            disconnect()
            if request.load_id == load_id:
                window.options.sampling.setChecked(True)
                self.controller.branches.regenerate(reply, window.generation_settings())

        def disconnect(*_args) -> None:
            loads.sig_committed.disconnect(committed)
            loads.sig_refused.disconnect(disconnect)

        loads.sig_committed.connect(committed)
        loads.sig_refused.connect(disconnect)

    @Slot()
    def edit_last(self) -> None:
        message = self.controller.branches.last_message("user")
        if message is not None:
            self.start_edit(message)

    @Slot()
    def continue_last(self) -> None:
        path = self.controller.conversation.messages if self.controller.conversation else []
        if not path or not branches.is_cut(path[-1]):
            self.window.show_notice(self.tr("The last reply is complete: there is nothing to continue."), error=True)
            return
        self.controller.branches.continue_reply(path[-1], self.window.generation_settings())

    def start_edit(self, message: Message) -> None:
        """Put ``message`` in the message box to edit; Enter sends it as a new version."""
        prompt = self.window.prompt
        if self.editing is None:
            self._draft = prompt.toPlainText()
        self.editing = message
        prompt.setPlainText(message.content)
        prompt.moveCursor(QTextCursor.MoveOperation.End)
        prompt.setFocus()
        self.window.composer.show_edit_note(self.tr(
            "Editing your message: Enter sends it as a new version (this one is kept, ‹ › switches); Esc cancels."))

    @Slot()
    def cancel_edit(self) -> None:
        if self.editing is not None:
            self._stop_editing()
            self.window.prompt.setPlainText(self._draft)

    def delete(self, message: Message) -> None:
        following = len(branches.subtree(self.controller.conversation, message)) - 1 \
            if self.controller.conversation else 0
        if self.confirm:
            if following:
                question = self.tr("Delete this message and the %n message(s) after it? Other versions stay.", "",
                                   following)
            else:
                question = self.tr("Delete this message? Other versions stay.")
            answer = QMessageBox.question(self.window, self.tr("Delete message"), question)
            if answer != QMessageBox.StandardButton.Yes:
                return
        if self.editing is message:
            self.cancel_edit()
        self.controller.branches.delete_message(message)

    @Slot()
    def focus_search(self) -> None:
        search = self.window.conversations.search
        search.setFocus()
        search.selectAll()

    # --- files -------------------------------------------------------------------------------------------
    @Slot()
    def export_clicked(self) -> None:
        conversation = self.controller.conversation
        if conversation is None or not conversation.messages:
            self.window.show_notice(self.tr("Open a conversation with messages to export it."), error=True)
            return
        name = re.sub(r"[^\w\- ]+", "", conversation.title).strip() or "conversation"
        filters = self.tr("Markdown, to read (*.md);;JSON, every branch, to import again (*.json)")
        path, chosen = QFileDialog.getSaveFileName(self.window, self.tr("Export conversation"),
                                                   str(Path(paths.start_folder()) / f"{name}.md"), filters)
        if path:
            as_json = path.lower().endswith(".json") or (
                "*.json" in chosen.lower() and not path.lower().endswith(".md"))
            self.export_to(Path(path), "json" if as_json else "md")

    def export_to(self, path: Path, fmt: str) -> bool:
        """Write the open conversation to ``path`` as Markdown ("md") or JSON ("json")."""
        conversation = self.controller.conversation
        text = export.dumps(conversation) if fmt == "json" else export.to_markdown(conversation)
        if fmt == "json" and path.suffix.lower() != ".json":
            path = path.with_suffix(".json")
        elif fmt == "md" and path.suffix.lower() not in (".md", ".markdown"):
            path = path.with_suffix(".md")
        try:
            write_text_atomic(path, text)
        except OSError as error:
            self.window.show_notice(self.tr("The conversation could not be written to {path}: {reason}").format(
                path=path, reason=error.strerror or error), error=True)
            return False
        self.window.statusBar().showMessage(
            self.tr("Exported “{title}” to {path}").format(title=conversation.title, path=path), 8000)
        return True

    @Slot()
    def import_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, self.tr("Import conversation"), paths.start_folder(),
                                              self.tr("EagleChat JSON (*.json)"))
        if path:
            self.import_from(Path(path))

    def import_from(self, path: Path) -> bool:
        """Add the conversation exported to ``path`` (JSON) as a new conversation and open it."""
        try:
            conversation = export.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            self.window.show_notice(self.tr("{path} could not be read: {reason}").format(path=path, reason=error),
                                    error=True)
            return False
        except UserError as error:  # what was wrong, and that nothing was changed
            self.window.show_notice(self.tr("{name} was not imported: {reason} Nothing was changed: your "
                                            "conversations and the file are as they were.").format(
                name=path.name, reason=user_error_text(error)), error=True)
            return False
        self.controller.branches.import_conversation(conversation)
        self.window.statusBar().showMessage(self.tr("Imported “{title}”").format(title=conversation.title), 8000)
        return True

    # --- internals -----------------------------------------------------------------------------------------
    def sync_actions(self, *_args) -> None:
        """Enable what can be done now."""
        c = self.controller
        path = c.conversation.messages if c.conversation is not None else []
        idle = c.state == "ready" and c.foreground is None
        unanswered = bool(path) and path[-1].role == "user"
        self.regenerate_action.setText(self.tr("Generate reply") if unanswered else self.tr("Regenerate reply"))
        self.regenerate_action.setEnabled(idle and bool(path))  # the last reply, or the last question's
        self.edit_action.setEnabled(any(m.role == "user" for m in path))
        self.continue_action.setEnabled(idle and bool(path) and branches.is_cut(path[-1]))
        self.export_action.setEnabled(bool(path))

    @Slot(object)
    def _on_conversation_opened(self, _conversation) -> None:
        self.cancel_edit()
        self.sync_actions()

    def _stop_editing(self) -> None:
        self.editing = None
        self.window.composer.show_edit_note("")

    def _action(self, name: str, text: str, slot, *shortcuts: QKeySequence) -> QAction:
        action = QAction(text, self.window)
        action.setObjectName(name)
        if shortcuts:
            action.setShortcuts(list(shortcuts))
        action.triggered.connect(slot)
        self.window.addAction(action)
        return action
