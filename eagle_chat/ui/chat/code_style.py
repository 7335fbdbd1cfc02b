"""Syntax highlighting that stays readable on the theme's code background.

The Pygments style comes from the theme (``default`` on a light palette, ``monokai`` on a dark one), but
no stock style keeps every token colour at WCAG AA on *our* code background: ``default``'s comments are
4.42:1 on the light one, monokai's error tokens 3.4:1 on the dark one. :func:`readable_style` derives the
style with each such colour moved in lightness (hue kept) just far enough to reach
:data:`MIN_CONTRAST` against what it is drawn on — the code background, or the token's own background.
"""

from __future__ import annotations

from functools import lru_cache

from pygments.formatters import HtmlFormatter
from pygments.style import Style
from pygments.styles import get_style_by_name
from pygments.util import ClassNotFound
from PySide6.QtGui import QColor

from eagle_chat.ui.widgets import theme

MIN_CONTRAST = 4.6  # AA is 4.5:1; a little above it, so rounding in a renderer cannot drop a colour below


def readable(colour: str, background: str, minimum: float = MIN_CONTRAST) -> str:
    """``colour`` if it reaches ``minimum`` contrast on ``background``, else the nearest colour of the same
    hue that does (darker on a light background, lighter on a dark one)."""
    if theme.contrast_ratio(colour, background) >= minimum:
        return colour
    c = QColor(colour)
    hue, saturation, lightness, _ = c.getHslF()
    lighter = theme.relative_luminance(background) < 0.18  # a dark background: move towards white
    step = 0.01 if lighter else -0.01
    while 0.0 <= lightness <= 1.0:
        lightness += step
        candidate = QColor.fromHslF(max(hue, 0.0), saturation, min(max(lightness, 0.0), 1.0)).name()
        if theme.contrast_ratio(candidate, background) >= minimum:
            return candidate
    return "#ffffff" if lighter else "#000000"


@lru_cache(maxsize=8)
def readable_style(name: str, background: str) -> type[Style]:
    """The Pygments style ``name`` with every token colour readable on ``background``."""
    try:
        base = get_style_by_name(name)
    except ClassNotFound:
        base = get_style_by_name("default")
    styles = {}
    for token, definition in base:
        parts = ["noinherit"]  # each token gets its resolved definition, so nothing is inherited twice
        parts += [flag for flag in ("bold", "italic", "underline") if definition[flag]]
        drawn_on = f"#{definition['bgcolor']}" if definition["bgcolor"] else background
        if definition["bgcolor"]:
            parts.append(f"bg:#{definition['bgcolor']}")
        if definition["color"]:
            parts.append(readable(f"#{definition['color']}", drawn_on))
        styles[token] = " ".join(parts)
    return type(f"Readable_{name.replace('-', '_')}", (Style,), {
        "name": f"readable-{name}", "background_color": background, "styles": styles,
    })


@lru_cache(maxsize=8)
def _formatter(name: str, background: str) -> HtmlFormatter:
    return HtmlFormatter(noclasses=True, nowrap=True, style=readable_style(name, background))


def formatter(colours: theme.Colours) -> HtmlFormatter:
    """The HTML formatter (inline styles, which Qt understands) for code drawn on ``colours``' code background."""
    return _formatter(colours.pygments_style, colours.code_background)
