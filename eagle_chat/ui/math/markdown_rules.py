"""LaTeX math in Markdown: ``$…$``, ``$$…$$``, ``\\(…\\)`` and ``\\[…\\]`` found by markdown-it rules
(mdit-py-plugins' dollarmath and texmath), drawn as images from :mod:`eagle_chat.ui.math.images`.

Found the way Pandoc and KaTeX's auto-render do, so that prices stay text: an opening ``$`` is followed by
a non-space and not preceded by a digit, a closing ``$`` is preceded by a non-space and not followed by a
digit ("$5 and $10" is not math), and text from a digit to a dollar with words in it is prose between
two prices ("$10 a day; 5$/month"). The rules run inside markdown-it's inline and block parsing, so code
spans and code blocks keep their dollars. A formula whose closing delimiter has not arrived yet (the end
of a streaming reply) is text until it does.

A formula is drawn as an image when one is made, and as its source text (delimiters included) when it is
refused or not made yet; at most ``MAX_FORMULAS`` per rendered text are drawn as images.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.texmath.index import make_block_func, make_inline_func, rules

from eagle_chat.ui.math import images as math_images

MAX_FORMULAS = 400  # per rendered text; the rest are shown as source (thousands would flood the worker)
DISPLAY_SCALE = 1.15  # display formulas are a little larger than the text
MATH_X_HEIGHT_EM = 0.47  # STIX Two Math's x-height: formulas are scaled so theirs matches the text's
_CLOSING = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}
INLINE_TYPES = ("math_inline", "math_paren", "math_bracket_inline")
DISPLAY_INLINE_TYPES = ("math_inline_double",)
BLOCK_TYPES = ("math_block", "math_block_label", "math_bracket_block", "math_bracket_eqno")
ALL_TYPES = INLINE_TYPES + DISPLAY_INLINE_TYPES + BLOCK_TYPES


@dataclass(frozen=True)
class MathStyle:
    """How a view draws formulas: its text colour, font and device pixel ratio."""

    colour: str
    font_px: float
    x_height: float
    dpr: float
    images: math_images.MathImages

    def key(self, tex: str, display: bool) -> math_images.MathKey:
        to_text = min(1.3, max(1.0, self.x_height / (MATH_X_HEIGHT_EM * self.font_px)))  # x-heights alike
        scale = (DISPLAY_SCALE if display else 1.0) * to_text
        return math_images.MathKey(tex, display, self.colour, round(self.font_px * scale, 2),
                                   round(self.x_height, 2), self.dpr)


def add_math(md: MarkdownIt) -> None:
    """Teach ``md`` the four delimiter forms and how to draw them."""
    dollarmath_plugin(md, allow_space=False, allow_digits=True, allow_blank_lines=False, double_inline=True,
                      allow_labels=True)
    dollar = md.inline.ruler.__rules__[md.inline.ruler.__find__("math_inline")].fn
    md.inline.ruler.at("math_inline", _no_digits_around(dollar))
    inline, bracket_rules = rules["brackets"]["inline"][0], rules["brackets"]["block"]
    md.inline.ruler.before("escape", "math_paren", make_inline_func({**inline, "name": "math_paren"}))
    md.inline.ruler.before("escape", "math_bracket_inline", make_inline_func(
        {"name": "math_bracket_inline", "rex": re.compile(r"^\\\[(.+?)\\\]", re.DOTALL), "tmpl": "", "tag": "\\["}))
    for rule, name in zip(bracket_rules, ("math_bracket_eqno", "math_bracket_block")):
        md.block.ruler.before("fence", name, make_block_func({**rule, "name": name}),
                              {"alt": ["paragraph", "blockquote", "list"]})
    for name in INLINE_TYPES:
        md.add_render_rule(name, _inline)
    for name in DISPLAY_INLINE_TYPES:
        md.add_render_rule(name, _display_inline)
    for name in BLOCK_TYPES:
        md.add_render_rule(name, _block)


def _no_digits_around(dollar):
    """dollarmath's inline rule, with its digit checks done here (its own looks at the text's last
    character for a formula at the start of a paragraph: "$x$ is 5" was not math), and no backticks
    inside: TeX has no use for them, and "costs $10, see `$x`" must leave the code span alone."""

    def rule(state, silent: bool) -> bool:
        start = state.pos
        if start > 0 and state.src[start - 1].isdigit():
            return False
        if not dollar(state, True):
            return False
        end, state.pos = state.pos, start
        content = state.src[start + 1:end - 1]
        if end < len(state.src) and state.src[end].isdigit() or "`" in content or _prices(content):
            return False  # a price ("$5 and 10$"), or a dollar closing inside a code span
        return dollar(state, silent)

    return rule


_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}(?![A-Za-z{])")


def _prices(content: str) -> bool:
    """Text between two prices ("$5-$10 a day; 5$/month"): it starts with a digit and has words in it."""
    return content[:1].isdigit() and " " in content and _WORD.search(content) is not None


def closing(markup: str) -> str:
    """The closing delimiter of a formula opened by ``markup``."""
    return _CLOSING.get(markup, markup)


def source_text(token) -> str:
    """The formula as written: delimiters and all."""
    markup = token.markup or "$"
    label = f" ({token.info})" if token.type in ("math_block_label", "math_bracket_eqno") and token.info else ""
    return f"{markup}{token.content}{closing(markup)}{label}"


def _image_html(token, env, display: bool) -> str | None:
    style: MathStyle | None = env.get("math")
    count = env["math_count"] = env.get("math_count", 0) + 1
    if style is None or count > MAX_FORMULAS:
        return None
    found = style.images.lookup(style.key(token.content.strip(), display))
    if found is None:
        env["math_pending"] = True
        return None
    if found is math_images.REFUSED:
        return None
    align = ' style="vertical-align: middle;"' if found.middle else ""
    alt = html.escape(source_text(token), quote=True)
    return f'<img src="{found.url}" width="{found.width:g}" height="{found.height:g}" alt="{alt}"{align}>'


def _inline(self, tokens, idx, options, env) -> str:
    return _image_html(tokens[idx], env, display=False) or html.escape(source_text(tokens[idx]))


def _display_inline(self, tokens, idx, options, env) -> str:
    return _image_html(tokens[idx], env, display=True) or html.escape(source_text(tokens[idx]))


def _block(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    image = _image_html(token, env, display=True)
    if image is None:
        return f'<p style="white-space: pre-wrap;">{html.escape(source_text(token))}</p>\n'
    label = f"&nbsp;&nbsp;({html.escape(token.info)})" if token.type.endswith(("label", "eqno")) and token.info else ""
    return f'<p align="center">{image}{label}</p>\n'


# The chat's rules for code and math (tables and the like do not change where code is).
_SPAN_PARSER = MarkdownIt("commonmark", {"html": False, "maxNesting": 20})
add_math(_SPAN_PARSER)
MAX_TEXT_CHARS = 100_000  # as the chat's Markdown: a longer text is shown as written


def formula_spans(text: str) -> list[tuple[int, int, str, bool]]:
    """Where the formulas of ``text`` are: (start, end, source, display) in order, found by the same
    rules as when it is rendered (so never in code). For views that show the text as written."""
    if len(text) > MAX_TEXT_CHARS:
        return []
    spans: list[tuple[int, int, str, bool]] = []
    position = 0
    for token in _walk(_SPAN_PARSER.parse(text, {})):
        if token.type in ("code_inline", "fence", "code_block"):  # step past code: it may hold the same text
            found = text.find(token.content, position)
            position = found + len(token.content) if found >= 0 else position
        elif token.type in ALL_TYPES and len(spans) < MAX_FORMULAS:
            markup, tex = token.markup or "$", token.content.strip()
            start = text.find(markup, position)
            at = text.find(tex, start + len(markup)) if start >= 0 and tex else -1
            close = closing(markup)
            end = text.find(close, at + len(tex)) if at >= 0 else -1
            if end < 0 or text[start + len(markup):at].strip() or text[at + len(tex):end].strip():
                continue
            position = end + len(close)
            spans.append((start, position, tex, token.type not in INLINE_TYPES))
    return spans


def _walk(tokens):
    for token in tokens:
        yield token
        if token.children:
            yield from _walk(token.children)
