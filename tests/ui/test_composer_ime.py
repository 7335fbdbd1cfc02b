"""With an input method (Chinese pinyin, Japanese kana…), Enter commits the composition: it must not send."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent

from eagle_chat.ui.chat.composer import PromptEdit


def _compose(edit, preedit: str, commit: str = "") -> None:
    event = QInputMethodEvent(preedit, [])
    if commit:
        event.setCommitString(commit)
    edit.inputMethodEvent(event)


def test_enter_during_composition_does_not_send(qtbot):
    edit = PromptEdit()
    qtbot.addWidget(edit)
    sent = []
    edit.sig_submit.connect(lambda: sent.append(edit.toPlainText()))
    _compose(edit, "nihao")
    assert edit.is_composing()
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert sent == []
    _compose(edit, "", commit="你好")  # the input method commits on Enter
    assert not edit.is_composing() and edit.toPlainText() == "你好"
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert sent == ["你好"]


def test_escape_during_composition_is_the_input_methods(qtbot):
    edit = PromptEdit()
    qtbot.addWidget(edit)
    stops = []
    edit.sig_escape.connect(lambda: stops.append(1))
    _compose(edit, "ni")
    qtbot.keyClick(edit, Qt.Key.Key_Escape)
    assert stops == []
