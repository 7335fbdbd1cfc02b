"""The pre-flight's marks sit on their lines (issue 40, item 10): the ✗ glyphs sat off the ✓ baseline — a line
with a fix button is as tall as the button and its sentence was centred in it, while the mark kept to the top —
and marks of different widths (✓ ⚠ ✗ ?) started the column at different places. Measured on a grab of the real
panel: every mark's ink is centred on one vertical line, and lies at the same height against the first line of
its sentence in every row, with a button or without."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel, QPushButton

from eagle_chat.ui.speed.preflight import KEYS


def _ink(image: QImage, left: int, top: int, width: int, height: int) -> tuple[int, int, int, int] | None:
    """The box of the dark pixels (text) in a part of ``image``: (left, top, right, bottom)."""
    xs, ys = [], []
    for y in range(max(0, top), min(image.height(), top + height)):
        for x in range(max(0, left), min(image.width(), left + width)):
            if QColor(image.pixel(x, y)).lightness() < 110:
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def test_the_marks_are_one_column_on_their_sentences_first_line(qtbot, open_window):
    window = open_window()
    panel = window.dialogs.open_preflight()
    panel.resize(1000, panel.height())
    qtbot.waitExposed(panel)
    panel.refresh()
    qtbot.wait(20)
    image = panel.grab().toImage()
    marks, offsets, statuses = [], [], set()
    for key in KEYS:
        mark = panel.findChild(QLabel, f"preflightMark_{key}")
        text = panel.findChild(QLabel, f"preflightLine_{key}")
        fix = panel.findChild(QPushButton, f"preflightFix_{key}")
        statuses.add(mark.text())
        box = mark.geometry().translated(mark.parentWidget().mapTo(panel, mark.parentWidget().rect().topLeft()))
        found = _ink(image, box.left(), box.top(), box.width(), box.height())
        assert found is not None, f"{key}: no mark painted"
        area = text.geometry().translated(text.parentWidget().mapTo(panel, text.parentWidget().rect().topLeft()))
        line = _ink(image, area.left(), area.top(), area.width(), area.height())
        assert line is not None, f"{key}: no sentence painted"
        centre_x, centre_y = (found[0] + found[2]) / 2, (found[1] + found[3]) / 2
        marks.append((key, mark.text(), centre_x, box.width()))
        # against the top of the sentence's first line (its tallest letters), whatever the row's height
        offsets.append((key, mark.text(), round(centre_y - line[1], 1), fix.isVisible()))
    assert {"✓"} < statuses, statuses  # a ✓ and at least one other mark to compare it with
    assert max(m[2] for m in marks) - min(m[2] for m in marks) <= 1.0, marks
    assert len({m[3] for m in marks}) == 1, marks  # one fixed-width column
    assert max(o[2] for o in offsets) - min(o[2] for o in offsets) <= 2.0, offsets
    assert any(o[3] for o in offsets) and not all(o[3] for o in offsets), offsets  # rows with and without a button
    panel.reject()
