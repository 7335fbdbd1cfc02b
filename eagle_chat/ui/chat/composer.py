"""The composer: the prompt box (Enter sends, Shift+Enter starts a new line, Esc stops the reply, Up in an
empty box edits the last message) with its Send and Stop buttons, and the note shown while editing."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QInputMethodEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from eagle_chat.ui.widgets import theme


class PromptEdit(QPlainTextEdit):
    sig_submit = Signal()
    """Enter was pressed (without Shift)."""
    sig_escape = Signal()
    """Esc was pressed: stop the reply in flight (or stop editing)."""
    sig_edit_last = Signal()
    """Up was pressed in the empty box: edit the last message sent."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("promptEdit")
        self.setAccessibleName(self.tr("Message"))
        self.setAccessibleDescription(self.tr("Enter sends, Shift+Enter starts a new line, Esc stops the reply, "
                                              "Up in the empty box edits your last message"))
        self.setPlaceholderText(self.tr("Message EagleChat — Enter to send, Shift+Enter for a new line, Esc to stop"))
        self.setTabChangesFocus(True)
        self.setMaximumHeight(120)
        self._composing = False

    def key_bindings(self) -> list[tuple[QKeySequence, str]]:
        """The keys this box handles itself, for Help → Keyboard shortcuts."""
        return [(QKeySequence(Qt.Key.Key_Return), self.tr("Send the message")),
                (QKeySequence("Shift+Return"), self.tr("Start a new line")),
                (QKeySequence(Qt.Key.Key_Escape), self.tr("Stop the reply, or stop editing")),
                (QKeySequence(Qt.Key.Key_Up), self.tr("Edit the last message (in the empty box)"))]

    def is_composing(self) -> bool:
        """An input method (e.g. Chinese pinyin) has uncommitted text: Enter belongs to it, not to Send."""
        return self._composing

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:  # noqa: N802 - Qt override
        self._composing = bool(event.preeditString())
        super().inputMethodEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if self._composing:
            # Mid-composition Enter and Esc belong to the input method (commit / cancel the candidate);
            # one that reaches us anyway must neither send nor insert a line break.
            if event.key() not in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape):
                super().keyPressEvent(event)
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
            else:
                self.sig_submit.emit()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.sig_escape.emit()
            return
        if event.key() == Qt.Key.Key_Up and not self.toPlainText() and not event.modifiers():
            self.sig_edit_last.emit()
            return
        super().keyPressEvent(event)


class Composer(QWidget):
    """The prompt box with its Send and Stop buttons."""

    sig_cancel_edit = Signal()
    """The user gave up editing a message (the note's Cancel)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.prompt = PromptEdit()
        self.edit_note = QLabel()
        self.edit_note.setObjectName("editNote")
        self.edit_note.setWordWrap(True)
        self._restyle()
        self.cancel_edit_button = QPushButton(self.tr("Cancel"))
        self.cancel_edit_button.setObjectName("cancelEditButton")
        self.cancel_edit_button.setAccessibleName(self.tr("Cancel editing"))
        self.cancel_edit_button.clicked.connect(self.sig_cancel_edit)
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setObjectName("sendButton")
        self.send_button.setAccessibleDescription(self.tr("Send the message (Enter)"))
        self.send_button.setEnabled(False)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setAccessibleDescription(self.tr("Stop the reply being written (Esc)"))
        self.stop_button.setEnabled(False)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        note_row = QHBoxLayout()
        note_row.addWidget(self.edit_note, 1)
        note_row.addWidget(self.cancel_edit_button)
        outer.addLayout(note_row)
        layout = QHBoxLayout()
        layout.addWidget(self.prompt, 1)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        layout.addLayout(buttons)
        outer.addLayout(layout)
        self.show_edit_note("")

    def show_edit_note(self, text: str) -> None:
        """Say what is being edited ("" hides the note)."""
        self.edit_note.setText(text)
        self.edit_note.setVisible(bool(text))
        self.cancel_edit_button.setVisible(bool(text))

    def _restyle(self) -> None:
        self.edit_note.setStyleSheet(f"color: {theme.colours().warning};")

    def event(self, event: QEvent) -> bool:  # Qt override
        handled = super().event(event)
        if theme.switched(self, event):  # View → Theme: the note's colour follows
            self._restyle()
        return handled
