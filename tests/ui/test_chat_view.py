"""Per-message stats are shown under each reply and on hover, by Qt's own tooltip handling."""

from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from eagle_chat.core.conversation import Conversation, Message
from eagle_chat.core.metrics import GenerationStats
from eagle_chat.ui.chat_view import ChatView


def test_reply_stats_show_on_hover_and_under_the_reply(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    stats = GenerationStats(mode="speculative", num_assistant_tokens=5, generated_tokens=10, input_tokens=3,
                            ttft_ms=12.0, tpot_ms=1.0, tokens_per_s=321.0, duration_ms=10.0, accepted_tokens=5,
                            draft_tokens=8, acceptance=0.625, tokens_per_step=2.0)
    view.show_conversation(Conversation(messages=[Message("assistant", "hello world " * 20, id=1, stats=stats)]))
    qtbot.waitExposed(view)
    assert "321.0 tok/s" in view.toPlainText() and "acceptance 62%" in view.toPlainText()
    pos = QPoint(30, 40)
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos)))
    tip = QToolTip.text()
    assert "Tokens/s: 321.0" in tip and "Accepted / drafted: 5 / 8" in tip and "Acceptance: 62%" in tip
