"""Code in replies follows the theme: a dark Pygments style on a dark palette, the light one on a light
palette, and every colour drawn in a code block or inline code readable on what it is drawn on (≥ 4.5:1)."""

from __future__ import annotations

import re

import pytest

from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.chat import code_style
from eagle_chat.ui.chat.markdown_html import render_markdown

SAMPLE = """Call `load(path)` first.

```python
# a comment, then a decorator, an escape and a regex
@cache
def read(path: str) -> bytes:
    \"\"\"Docstring.\"\"\"
    pattern = re.compile(r"\\d+\\n")
    return open(path, "rb").read() + b"\\x00" if path and not None else 0x1F
```

```rust
fn main() { let x: u32 = 42; println!("{x}"); } // done
```
"""

KEYWORD = {"default": "#008000", "monokai": "#66d9ef"}  # how each style colours `def`


def drawn_colours(markup: str, background: str) -> list[tuple[str, str]]:
    """(text colour, background) of every styled element in ``markup`` drawn on ``background``."""
    pairs = []
    for style in re.findall(r'style="([^"]*)"', markup):
        colour = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})", style)
        if colour:
            own = re.search(r"background-color:\s*(#[0-9a-fA-F]{3,6})", style)
            pairs.append((colour.group(1), own.group(1) if own else background))
    return pairs


@pytest.mark.parametrize("kind", ["light", "dark"])
def test_code_follows_the_palette_and_every_colour_is_readable(palette, kind):
    palette(kind)
    colours = theme.colours()
    assert colours is (theme.DARK if kind == "dark" else theme.LIGHT)
    assert colours.pygments_style == ("monokai" if kind == "dark" else "default")
    markup = render_markdown(SAMPLE, code_link_prefix="copy-code:1:").html

    assert markup.count(f'bgcolor="{colours.code_background}"') == 2  # both blocks on the theme's background
    keyword = re.search(r'<span style="([^"]*)">def</span>', markup).group(1)
    assert KEYWORD[colours.pygments_style] in keyword.lower()  # highlighted with the theme's style
    assert f"background-color:{colours.code_background}; color:{colours.code_text}" in markup  # inline code
    pairs = drawn_colours(markup, colours.code_background)
    assert len(pairs) > 20  # the highlighter did colour the code
    too_faint = {(fg, bg): round(theme.contrast_ratio(fg, bg), 2) for fg, bg in pairs
                 if theme.contrast_ratio(fg, bg) < 4.5}
    assert too_faint == {}
    assert theme.contrast_ratio(colours.code_text, colours.code_background) >= 4.5


def test_the_dark_style_is_not_the_light_one(palette):
    palette("light")
    light = render_markdown(SAMPLE).html
    palette("dark")
    dark = render_markdown(SAMPLE).html
    assert light != dark
    assert theme.LIGHT.code_background not in dark and theme.DARK.code_background not in light


def test_stock_colours_below_aa_are_moved_just_far_enough(qapp):
    # Pygments' default comment colour is 4.42:1 on the light code background: lifted, hue kept
    lifted = code_style.readable("#3D7B7B", theme.LIGHT.code_background)
    assert lifted.lower() != "#3d7b7b"
    assert 4.5 <= theme.contrast_ratio(lifted, theme.LIGHT.code_background) < 5.0
    assert code_style.readable("#008000", theme.LIGHT.code_background) == "#008000"  # already fine: kept
    brighter = code_style.readable("#75715e", theme.DARK.code_background)
    assert theme.relative_luminance(brighter) > theme.relative_luminance("#75715e")  # lighter on dark


def test_chat_view_draws_code_on_the_dark_background(qtbot, palette):
    from eagle_chat.ui.chat.chat_view import ChatView

    palette("dark")
    view = ChatView()
    qtbot.addWidget(view)
    view.show_conversation(Conversation(messages=[Message("assistant", SAMPLE, id=1)]))
    tables = []
    block = view.document().begin()
    while block.isValid():
        cursor = view.textCursor()
        cursor.setPosition(block.position())
        table = cursor.currentTable()
        if table is not None and table not in tables:
            tables.append(table)
        block = block.next()
    assert len(tables) == 2
    for table in tables:
        background = table.format().background().color().name()
        assert background == theme.DARK.code_background
        assert theme.contrast_ratio(theme.DARK.code_text, background) >= 4.5
