"""View → Theme → Dark in the real window, checked on what is painted: the chat view, the EAGLE-3 switch and
the composer are grabbed to images and their pixels sampled — the colour behind a code block, role names
against the page (WCAG contrast of the sampled colours), the placeholder against typed text, the switch on
against off. (A palette can be right while the widgets inside the window never redraw in it.)"""

from __future__ import annotations

import math
from collections import Counter

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage, QTextDocument
from PySide6.QtWidgets import QApplication

from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.widgets import theme

CODE_REPLY = "Here is one:\n\n```python\ndef merge(a, b):\n    return sorted(a + b)\n```\n\nDone."


@pytest.fixture
def dark_window(qtbot, open_window, qapp):
    """The real window showing a reply with code, switched to dark through View → Theme → Dark."""
    window = open_window()
    window.show()
    qtbot.waitExposed(window)
    imported = Conversation(title="Merge")
    imported.messages = imported.all_messages = [
        Message("user", "Write a merge function", id=1), Message("assistant", CODE_REPLY, id=2, parent_id=1)]
    window.controller.branches.import_conversation(imported)
    qtbot.waitUntil(lambda: "def merge" in window.chat.toPlainText() and not window.chat.loading(), timeout=10_000)
    assert not theme.is_dark()
    original = qapp.palette()
    try:
        window.findChild(type(window.menuBar().actions()[0]), "theme_dark").trigger()
        qtbot.waitUntil(lambda: theme.is_dark() and not window.chat.loading(), timeout=10_000)
        qapp.processEvents()
        yield window
    finally:  # the application is shared by the whole session: back to how it was
        theme.apply_theme(qapp, "system")
        qapp.setPalette(original)
        qapp.processEvents()


def grab(widget) -> QImage:
    return widget.grab().toImage()


def common_colour(image: QImage, area: QRect) -> QColor:
    """The colour most pixels of ``area`` have: the background there."""
    area = area.intersected(image.rect())
    counts = Counter(image.pixel(x, y) for x in range(area.left(), area.right() + 1)
                     for y in range(area.top(), area.bottom() + 1))
    return QColor(counts.most_common(1)[0][0])


def ink(image: QImage, area: QRect, background: QColor) -> QColor:
    """The text colour painted in ``area``: the pixel that stands out most from ``background``."""
    area = area.intersected(image.rect())
    pixels = (QColor(image.pixel(x, y)) for x in range(area.left(), area.right() + 1)
              for y in range(area.top(), area.bottom() + 1))
    return max(pixels, key=lambda c: theme.contrast_ratio(c, background))


def text_box(view, text: str) -> QRect:
    """Where ``text`` (its first occurrence, on one line) is drawn in the chat view's viewport."""
    found = view.document().find(text, 0, QTextDocument.FindFlag.FindCaseSensitively)
    assert not found.isNull(), text
    cursor = view.textCursor()
    cursor.setPosition(found.selectionStart())
    start = view.cursorRect(cursor)
    cursor.setPosition(found.selectionEnd())
    return QRect(start.topLeft(), view.cursorRect(cursor).bottomRight())


def test_the_chat_view_is_painted_dark_code_blocks_included(dark_window):
    view = dark_window.chat
    view.verticalScrollBar().setValue(0)
    QApplication.processEvents()
    image = grab(view.viewport())
    page = common_colour(image, image.rect())
    assert theme.relative_luminance(page) < 0.05  # a dark page

    code = text_box(view, "def merge")
    code_background = common_colour(image, code.adjusted(-4, -2, 200, 2))
    assert theme.relative_luminance(code_background) < 0.05, code_background.name()  # not a white block
    assert code_background != page  # the block still stands out from the page
    assert theme.contrast_ratio(ink(image, code.adjusted(0, 0, 60, 0), code_background), code_background) >= 4.5

    for role in ("You", "EagleChat"):
        box = text_box(view, role).adjusted(-1, 0, 1, 0)
        background = common_colour(image, box.adjusted(-6, -2, 40, 2))
        ratio = theme.contrast_ratio(ink(image, box, background), background)
        assert ratio >= 4.5, (role, round(ratio, 2))


def test_the_placeholder_and_the_eagle3_switch_read_in_dark(qtbot, dark_window):
    prompt = dark_window.prompt
    prompt.clear()
    empty = grab(prompt.viewport())
    base = common_colour(empty, empty.rect())
    # Right of the text cursor: the message box has the keyboard, and its cursor is drawn in the text colour.
    hint = ink(empty, QRect(8, 0, empty.width() // 2, 30), base)
    qtbot.keyClicks(prompt, "Message EagleChat")
    typed = grab(prompt.viewport())
    text = ink(typed, QRect(0, 0, typed.width() // 2, 30), base)
    prompt.clear()
    assert theme.contrast_ratio(hint, base) >= 4.5, hint.name()  # readable
    assert theme.contrast_ratio(hint, text) >= 2.5, (hint.name(), text.name())  # yet not typed text

    toggle = dark_window.model_bar.draft_toggle
    assert toggle.isEnabled() and toggle.isChecked()
    looks = {}
    for on in (True, False):
        toggle.setChecked(on)
        QApplication.processEvents()
        image = grab(toggle)
        inner = image.rect().adjusted(3, 3, -3, -3)
        fill = common_colour(image, inner)
        looks[on] = fill, theme.contrast_ratio(ink(image, inner, fill), fill)
    toggle.setChecked(True)
    (on_fill, on_text), (off_fill, off_text) = looks[True], looks[False]
    apart = math.dist(on_fill.getRgb()[:3], off_fill.getRgb()[:3])
    assert apart >= 100 and theme.contrast_ratio(on_fill, off_fill) >= 3.0, (on_fill.name(), off_fill.name())
    assert on_text >= 4.5 and off_text >= 4.5, (on_text, off_text)


def test_an_unchecked_check_box_and_the_copy_code_link_show_in_dark(dark_window):
    """The walk saw unchecked boxes as a dark square on near-black (no border) and "Copy code" dim blue."""
    from PySide6.QtWidgets import QStyle, QStyleOptionButton

    box = dark_window.side.drafted_toggle
    assert box.isVisible() and not box.isChecked()
    option = QStyleOptionButton()
    box.initStyleOption(option)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = grab(box)
    around = common_colour(image, image.rect())  # the panel behind the box and its caption
    edge = ink(image, indicator, around)
    assert theme.contrast_ratio(edge, around) >= 3.0, (edge.name(), around.name())  # WCAG's 3:1 for controls

    view = dark_window.chat
    link = text_box(view, "Copy code").adjusted(-1, 0, 1, 0)
    image = grab(view.viewport())
    background = common_colour(image, link.adjusted(-4, -2, 4, 2))
    ratio = theme.contrast_ratio(ink(image, link, background), background)
    assert ratio >= 4.5, round(ratio, 2)
