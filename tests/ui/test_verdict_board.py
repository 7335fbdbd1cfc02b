"""The presenter's headline keeps a run's status on one line when the figures beside it grow.

A figure that grows from "–" to "1234" narrows the headline without resizing the board; the status was fitted
to the headline's old width and wrapped into two huge lines ("'Run 1 of 3 · baseline' needs 789 px, has 766"
at 1024×768, seen in CI)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics

from eagle_chat.ui.speed.verdict_board import VerdictBoard


def _needs(board: VerdictBoard) -> tuple[int, int]:
    head = board.headline
    return QFontMetrics(head.font()).horizontalAdvance(head.text()), head.contentsRect().width()


def test_a_run_status_stays_on_one_line_as_the_figures_beside_it_grow(qtbot):
    board = VerdictBoard()
    qtbot.addWidget(board)
    board.resize(1024, 300)
    board.set_large(768, QFont(board.font()))
    board.show()
    qtbot.waitExposed(board)
    board.start()
    board.running("Run 1 of 3 · baseline", 0.1)
    qtbot.wait(20)
    need, room = _needs(board)
    assert need <= room, (need, room)
    for rate in (9.9, 123.4, 12345.6):  # each figure wider than the last
        board.show_rate("baseline", rate)
        board.show_rate("speculative", rate * 2)
        qtbot.wait(20)
        need, room = _needs(board)
        assert need <= room, (rate, need, room)
    assert board.headline.font().pixelSize() >= 768 / 10 / 2  # shrunk to fit, not to nothing
