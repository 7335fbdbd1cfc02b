"""LaTeX math in replies: each delimiter form is drawn as an image in the chat view (made off the GUI
thread, in the palette's text colour), never inside code, never from prices; hostile formulas are refused
or stopped within their budget and shown as source; a formula still being written stays source."""

from __future__ import annotations

import time

import pytest
from PySide6.QtGui import QColor, QPalette, QTextCursor, QTextDocument
from PySide6.QtWidgets import QApplication

from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.math import images as math_images, markdown_rules as math_markdown, typesetting as math_tex
from eagle_chat.ui.chat.chat_view import ChatView
from eagle_chat.ui.chat.markdown_html import render_markdown

FORMS = {
    "dollar": "Energy: $E=mc^2$ here.",
    "double dollar": "Sum:\n\n$$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$$\n\nDone.",
    "paren": "Euler: \\(e^{i\\pi}+1=0\\) here.",
    "bracket": "Basel:\n\n\\[\n\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}\n\\]\n\nDone.",
}


@pytest.fixture
def images(qapp):
    """A private formula cache and worker (the shared one outlives the test)."""
    made = math_images.MathImages()
    yield made
    made.stop()


def style(images, colour="#112233") -> math_markdown.MathStyle:
    return math_markdown.MathStyle(colour, 16.0, 8.0, 1.0, images)


def render_when_made(qtbot, images, text: str, colour="#112233"):
    """Render ``text``, wait until its formulas are made, render again (what a view does on sig_ready)."""
    first = render_markdown(text, math=style(images, colour))
    if first.math_pending:
        qtbot.waitUntil(lambda: images.pending() == 0, timeout=20_000)
    return render_markdown(text, math=style(images, colour))


def image_positions(view: ChatView) -> list[str]:
    """The ``math:`` images the view's document shows."""
    found, block = [], view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat() and fmt.toImageFormat().name().startswith("math:"):
                found.append(fmt.toImageFormat().name())
            it += 1
        block = block.next()
    return found


def make_view(qtbot, text: str, status: str = "done") -> ChatView:
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    view.show_conversation(Conversation(messages=[Message("user", "Maths?", id=1),
                                                  Message("assistant", text, id=2, status=status)]))
    return view


@pytest.mark.parametrize("form", list(FORMS))
def test_each_delimiter_form_is_drawn_as_an_image_in_the_chat_view(qtbot, form):
    view = make_view(qtbot, FORMS[form])
    qtbot.waitUntil(lambda: len(image_positions(view)) == 1, timeout=20_000)
    name = image_positions(view)[0]
    image = view.document().resource(QTextDocument.ResourceType.ImageResource, name)
    assert not image.isNull() and image.width() > 10 and image.height() > 5
    shown = view.toPlainText()
    assert "$" not in shown and "\\(" not in shown and "\\[" not in shown  # the source is gone
    assert ("here." in shown) or ("Done." in shown)


def test_math_in_code_and_prices_stays_text(qtbot, images):
    text = ("It costs $5 and $10, or $5-$10 a day; 5$/month or 7$/year; a $ b $ c.\n\n"
            "Inline `$x$` and `a $b$ c`.\n\n```\n$$y$$ and \\(z\\)\n```\n\n    $w$ indented\n\nFrom $3 to $4 per item.")
    rendered = render_when_made(qtbot, images, text)
    assert "math:" not in rendered.html and not rendered.math_pending
    for kept in ("$5 and $10", "$5-$10", "5$/month or 7$/year", "a $ b $ c", "$x$", "a $b$ c",
                 "$$y$$ and \\(z\\)", "$w$", "$3 to $4"):
        assert kept in rendered.html.replace("&#x27;", "'"), kept


def test_prices_and_code_next_to_formulas(qtbot, images):
    rendered = render_when_made(qtbot, images, "Pay $10 first, see `$x` then: $y^2$ and $x$ is 5")
    assert rendered.html.count("math:") == 2  # $y^2$ and $x$; not "$10 first, see `$"
    assert "$10 first" in rendered.html and "`$x`" not in rendered.html and ">$x</code>" in rendered.html


def test_chinese_text_around_formulas_is_kept(qtbot, images):
    rendered = render_when_made(qtbot, images, "勾股定理：$a^2+b^2=c^2$，其中$c$是斜边。\\(\\text{速度}\\)")
    assert rendered.html.count("math:") == 2
    assert "勾股定理：" in rendered.html and "，其中" in rendered.html and "是斜边。" in rendered.html
    assert "\\(\\text{速度}\\)" in rendered.html  # the math font has no Chinese glyphs: shown as source


def test_formulas_are_typeset_in_a_child_process_not_in_the_app(qtbot, images, monkeypatch):
    """Typesetting is pure Python: in the app's process it would hold the GIL the GUI thread needs."""
    calls = []
    monkeypatch.setattr(math_tex, "typeset", lambda *args, **kwargs: calls.append(args))
    first = render_markdown("$q_1 + q_2$", math=style(images))
    assert first.math_pending and "math:" not in first.html and "$q_1 + q_2$" in first.html
    again = render_when_made(qtbot, images, "$q_1 + q_2$")
    assert "math:" in again.html
    assert calls == []


@pytest.mark.parametrize("tex", [
    "x+" * 30_000 + "1",  # a 60 kB formula (a reply over 100 kB is shown as plain text anyway)
    "{" * 200 + "x" + "}" * 200,  # deeply nested braces
    "\\def\\a{\\a\\a}\\a",  # a \def loop
    "\\newcommand{\\f}{\\f}\\f",
])
def test_hostile_formulas_are_refused_at_once_and_shown_as_source(qtbot, images, tex):
    started = time.perf_counter()
    rendered = render_markdown(f"Look: ${tex}$ ok", math=style(images))
    assert time.perf_counter() - started < 1.0
    assert not rendered.math_pending and "math:" not in rendered.html and images.pending() == 0
    assert tex[:50] in rendered.html


def test_a_formula_past_its_budget_is_stopped_and_shown_as_source(qtbot, images):
    tex = "\\frac{" * 11 + "1" + "}{2}" * 11  # exponential in ziamath: ~7 s for ten levels, unbounded
    assert math_tex.refusal(tex) is None
    started = time.perf_counter()
    render_markdown(f"${tex}$", math=style(images))
    with qtbot.waitSignal(images.sig_ready, timeout=int((math_images.BUDGET_S + 5) * 1000)):
        pass
    assert time.perf_counter() - started < math_images.BUDGET_S + 2.0
    again = render_markdown(f"${tex}$", math=style(images))
    assert not again.math_pending and "math:" not in again.html and tex in again.html
    after = render_when_made(qtbot, images, "$k+1$")  # the worker still works
    assert "math:" in after.html


def test_after_a_few_formulas_past_their_budget_the_rest_queued_are_not_tried(qtbot, images):
    slow = [("\\frac{" * 11 + f"{i}" + "}{2}" * 11) for i in range(12)]
    render_markdown(" ".join(f"${tex}$" for tex in slow), math=style(images))
    qtbot.waitUntil(lambda: images.pending() == 0, timeout=60_000)
    assert images.tried_count <= math_images.MAX_LATE_IN_A_ROW + 2  # + the last, and one racing the queue
    again = render_markdown(" ".join(f"${tex}$" for tex in slow), math=style(images))
    assert "math:" not in again.html and not again.math_pending


def test_thousands_of_formulas_are_bounded(qtbot, images):
    text = " ".join(f"$x_{{{i}}}$" for i in range(3_000))
    started = time.perf_counter()
    rendered = render_markdown(text, math=style(images))
    assert time.perf_counter() - started < 3.0
    assert images.pending() <= math_markdown.MAX_FORMULAS
    assert "$x_{2999}$" in rendered.html  # past the limit: source


def test_the_image_cache_is_bounded_in_bytes(qtbot, images, monkeypatch):
    monkeypatch.setattr(math_images, "CACHE_BYTES", 40_000)
    for i in range(12):
        render_when_made(qtbot, images, f"$\\sqrt{{{i}}} + \\frac{{{i}}}{{7}}$")
    assert 0 < images._bytes <= 40_000 or len(images._images) == 1
    assert len(images._images) < 12


@pytest.mark.parametrize("kind", ["light", "dark"])
def test_formulas_follow_the_palettes_text_colour(qtbot, palette, kind):
    palette(kind)
    view = make_view(qtbot, "Mass: $M = \\rho V$ here.")
    qtbot.waitUntil(lambda: len(image_positions(view)) == 1, timeout=20_000)
    image = view.document().resource(QTextDocument.ResourceType.ImageResource, image_positions(view)[0])
    text = view.palette().color(QPalette.ColorRole.Text)
    inked = [QColor.fromRgba(image.pixel(x, y)) for x in range(image.width()) for y in range(image.height())]
    solid = [c for c in inked if c.alpha() == 255]
    assert solid, "no fully drawn pixel"
    for colour in solid:
        assert max(abs(colour.red() - text.red()), abs(colour.green() - text.green()),
                   abs(colour.blue() - text.blue())) <= 2, (colour.name(), text.name())


def test_a_theme_switch_draws_formulas_again_in_the_new_colour(qtbot, palette):
    palette("light")
    view = make_view(qtbot, "Area: $A = \\pi r^2$.")
    qtbot.waitUntil(lambda: len(image_positions(view)) == 1, timeout=20_000)
    light = image_positions(view)[0]
    palette("dark")
    qtbot.waitUntil(lambda: len(image_positions(view)) == 1 and image_positions(view)[0] != light, timeout=20_000)


def test_a_formula_still_being_written_stays_source_until_closed(qtbot):
    message = Message("assistant", "Growth is $k^2 + ", id=2, status="streaming")
    view = ChatView()
    qtbot.addWidget(view)
    view.show()
    view.show_conversation(Conversation(messages=[Message("user", "Maths?", id=1), message]))
    view.update_message(message)
    assert "$k^2 + " in view.toPlainText() and not image_positions(view)
    message.content += "1$ and more"
    view.update_message(message)
    qtbot.waitUntil(lambda: len(image_positions(view)) == 1, timeout=20_000)
    assert "and more" in view.toPlainText() and "$" not in view.toPlainText()


def test_a_compare_pane_draws_a_finished_replys_formulas_and_keeps_the_tint_on_the_right_text(qtbot):
    from eagle_chat.core.generation.steps import StepRecord
    from eagle_chat.ui.chat.drafted_text import DraftedPane

    pieces = [("Area ", False), ("\\(A=\\pi r^2\\)", True), (" for ", False), ("circles", True),
              (", `$x$` stays, 速度 ", False), ("$v$", False), (" is fast 😀", True)]
    record = StepRecord()
    for source, drafted in pieces:
        record.add(3 if drafted else 1, len(source) if drafted else 0, 0 if drafted else len(source))
    text = "".join(p[0] for p in pieces)
    pane = DraftedPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.set_tint(True)
    pane.show_reply(text[:20], record)  # streaming: as written
    pane.show_reply(text, record)
    assert pane.toPlainText() == text
    pane.show_reply(text, record, typeset=True)  # finished
    qtbot.waitUntil(lambda: pane.toPlainText().count("\ufffc") == 2, timeout=20_000)
    shown = pane.toPlainText()
    assert shown == "Area \ufffc for circles, `$x$` stays, 速度 \ufffc is fast 😀"
    cursor = QTextCursor(pane.document())
    tinted = []
    for a, b in pane.ranges:
        cursor.setPosition(a)
        cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
        tinted.append(cursor.selectedText())
    assert tinted == ["\ufffc", "circles", " is fast 😀"]


def test_after_stop_a_new_formula_starts_the_typesetter_again(qtbot, images):
    assert "math:" in render_when_made(qtbot, images, "$s_1$").html
    images.stop()  # what the application's aboutToQuit does
    assert "math:" in render_when_made(qtbot, images, "$s_2$").html


def test_copying_a_selection_gives_the_formulas_latex(qtbot):
    view = make_view(qtbot, "Energy: $E=mc^2$ here.\n\n$$\\int_0^1 x\\,dx$$\n\nEnd.")
    qtbot.waitUntil(lambda: len(image_positions(view)) == 2, timeout=20_000)
    view.selectAll()
    view.copy()  # what Ctrl+C does
    copied = QApplication.clipboard().text()
    assert "Energy: $E=mc^2$ here." in copied and "$$\\int_0^1 x\\,dx$$" in copied and "End." in copied
    assert "\ufffc" not in copied
