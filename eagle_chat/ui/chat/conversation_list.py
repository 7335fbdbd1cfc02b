"""The conversation list: search, new, rename, delete."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QInputDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from eagle_chat.core.storage.conversation import DEFAULT_TITLE, Conversation


class ConversationList(QWidget):
    sig_open = Signal(int)
    """Open the conversation with this id."""
    sig_new = Signal()
    """Start a new conversation."""
    sig_rename = Signal(int, str)
    """Rename conversation id to the title."""
    sig_delete = Signal(int)
    """Delete conversation id (the user confirmed)."""
    sig_search = Signal(str)
    """The search text changed (every keystroke: ConversationSearch debounces it)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._items: dict[int, QListWidgetItem] = {}  # conversation id -> its row's item
        self._shown: set[int] | None = None  # the search's matches (None: no search, all rows shown)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.new_button = QPushButton(self.tr("New conversation"))
        self.new_button.setObjectName("newConversationButton")
        self.new_button.clicked.connect(self.sig_new)
        self.search = QLineEdit()
        self.search.setObjectName("conversationSearch")
        self.search.setPlaceholderText(self.tr("Search conversations"))
        self.search.setAccessibleName(self.tr("Search conversations"))
        self.search.setAccessibleDescription(self.tr("Shows the conversations whose title or messages contain "
                                                     "the text (Ctrl+F)"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.sig_search)
        self.list = QListWidget()
        self.list.setObjectName("conversationList")
        self.list.setAccessibleName(self.tr("Conversations"))
        self.list.setAccessibleDescription(self.tr("Enter opens a conversation, F2 renames it, Delete deletes it"))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setUniformItemSizes(True)  # one-line rows: layout no longer measures each of them
        self.list.itemActivated.connect(self._open_item)
        self.list.itemClicked.connect(self._open_item)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        rename = QAction(self.tr("Rename"), self.list, shortcut=QKeySequence(Qt.Key.Key_F2))
        rename.triggered.connect(self.rename_current)
        delete = QAction(self.tr("Delete"), self.list, shortcut=QKeySequence(QKeySequence.StandardKey.Delete))
        delete.triggered.connect(self.delete_current)
        self.list.addActions([rename, delete])
        self._rename_action, self._delete_action = rename, delete
        self.confirm = True
        layout.addWidget(self.new_button)
        layout.addWidget(self.search)
        layout.addWidget(self.list)

    def set_conversations(self, conversations: list[Conversation], current_id: int | None) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        self._items = {}
        for conversation in conversations:
            item = self._item(conversation)
            self.list.addItem(item)
            if conversation.id == current_id:
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)
        if self._shown is not None:
            self.show_only(self._shown)

    def show_only(self, ids: set[int] | None) -> None:
        """Hide the rows whose conversation is not in ``ids`` (None: show every row). Touches only the rows
        that change, so a search result costs the GUI thread milliseconds, not a rebuild."""
        self._shown = ids
        self.list.setUpdatesEnabled(False)
        for conversation_id, item in self._items.items():
            hidden = ids is not None and conversation_id not in ids
            if item.isHidden() != hidden:
                item.setHidden(hidden)
        self.list.setUpdatesEnabled(True)

    def clear_search(self) -> None:
        """Empty the search box: every row shows again (at once, not after the search's pause). Starting a new
        conversation does this: a search left in the box hid the new one (it matches nothing yet), so the user
        could not see the conversation they were typing into."""
        self.search.clear()

    def bring_to_top(self, conversation: Conversation) -> None:
        """Show ``conversation`` first, selected, with its current title: what a new message does to the
        newest-first list, without rebuilding it (a rebuild took ~40 ms with 2,000 conversations)."""
        self.list.blockSignals(True)
        item = self._items.get(conversation.id)
        title = self._title(conversation)
        if item is not None and self.list.row(item) == 0 and self.list.currentItem() is item:
            if item.text() != title:  # already first and selected (every reply after the first): ~0.4 ms less
                item.setText(title)
                item.setToolTip(title)
            self.list.blockSignals(False)
            return
        if item is None:
            item = self._item(conversation)
        else:
            self.list.takeItem(self.list.row(item))
            item.setText(title)
            item.setToolTip(title)
        self.list.insertItem(0, item)
        self.list.setCurrentItem(item)
        self.list.blockSignals(False)

    def select(self, conversation_id: int | None) -> None:
        """Show ``conversation_id`` as the current row (none for None) without emitting an open."""
        item = self._items.get(conversation_id) if conversation_id is not None else None
        self.list.blockSignals(True)
        if item is None:
            self.list.clearSelection()
        self.list.setCurrentItem(item)
        self.list.blockSignals(False)

    def _item(self, conversation: Conversation) -> QListWidgetItem:
        item = QListWidgetItem(self._title(conversation))
        item.setData(Qt.ItemDataRole.UserRole, conversation.id)
        item.setToolTip(self._title(conversation))
        self._items[conversation.id] = item
        return item

    def _title(self, conversation: Conversation) -> str:
        """The title as shown: one not yet given (the stored English default) in the window's language."""
        if conversation.title == DEFAULT_TITLE:
            return self.tr("New conversation", "the title of a conversation before its first message")
        return conversation.title

    def titles(self) -> list[str]:
        """The titles shown, top to bottom (rows hidden by the search left out)."""
        return [self.list.item(i).text() for i in range(self.list.count()) if not self.list.item(i).isHidden()]

    def current_id(self) -> int | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def rename_current(self, title: str | None = None) -> None:
        conversation_id = self.current_id()
        if conversation_id is None:
            return
        if not isinstance(title, str):
            title, ok = QInputDialog.getText(self, self.tr("Rename conversation"), self.tr("Title:"),
                                             text=self.list.currentItem().text())
            if not ok:
                return
        self.sig_rename.emit(conversation_id, title)

    def delete_current(self) -> None:
        conversation_id = self.current_id()
        if conversation_id is None:
            return
        if self.confirm:
            answer = QMessageBox.question(
                self, self.tr("Delete conversation"),
                self.tr("Delete “{title}” and all its messages?").format(title=self.list.currentItem().text()))
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.sig_delete.emit(conversation_id)

    def _open_item(self, item: QListWidgetItem) -> None:
        self.sig_open.emit(item.data(Qt.ItemDataRole.UserRole))

    def _menu(self, pos) -> None:
        if self.list.itemAt(pos) is None:
            return
        menu = QMenu(self)
        menu.addAction(self._rename_action)
        menu.addAction(self._delete_action)
        menu.exec(self.list.mapToGlobal(pos))
        menu.deleteLater()  # a child of the list: each right-click left one more menu behind
