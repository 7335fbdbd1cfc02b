"""Restart and reopen, as the walk did: three replies, close the window, start again. The conversation comes
back scrolled to its latest reply, and the speed chart shows a line for each of its replies (it was empty,
while the figures under it described the last reply)."""

from __future__ import annotations

from PySide6.QtCore import QPoint

from tests.helpers.window import close_window, send


def test_the_reopened_conversation_shows_its_latest_reply_and_its_speed_lines(qtbot, open_window):
    window = open_window()
    window.options.max_tokens.setValue(48)
    for text in ("Write a parser", "Write a lexer", "Write a test for both"):
        send(qtbot, window, text)
    figures = window.stats_label.text()
    close_window(qtbot, window)

    again = open_window()
    again.show()
    qtbot.waitExposed(again)
    chat = again.chat
    qtbot.waitUntil(lambda: "Write a test for both" in chat.toPlainText() and not chat.loading(), timeout=10_000)
    qtbot.wait(100)
    bar = chat.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() >= bar.maximum() - 4, (bar.value(), bar.maximum())
    last = chat.cursorForPosition(QPoint(10, chat.viewport().height() - 10)).position()
    assert last >= chat.document().characterCount() - 400  # the bottom of the page is what is in view
    assert again.stats_label.text() == figures
    series = [s for s in again.chart.chart().series() if s.count() > 0]
    assert len(series) == 3, [s.name() for s in again.chart.chart().series()]
    image = again.chart.grab().toImage()
    colour = series[-1].pen().color()
    painted = sum(1 for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)
                  if _near(image.pixelColor(x, y), colour))
    assert painted > 5, painted  # the line is drawn, not only there


def _near(a, b) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 40
