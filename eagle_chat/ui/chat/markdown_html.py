"""Model text (untrusted Markdown) to the HTML subset Qt's rich text engine shows.

Safety: raw HTML in the text is escaped, never rendered (markdown-it with ``html=False``); images are
shown as their alt text and address, never fetched; links keep only http(s) and mailto targets and the
view asks before opening them. Code blocks are highlighted with Pygments (inline styles, which Qt
understands) and numbered so the view can offer a copy action per block.

Colours follow the theme: code blocks and inline code take their background and text from
:func:`eagle_chat.ui.widgets.theme.colours` (the application palette unless ``colours`` is given), highlighted
with that theme's Pygments style made readable on it (:mod:`eagle_chat.ui.chat.code_style`).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from pygments import highlight
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

from eagle_chat.ui.widgets import theme
from eagle_chat.ui.chat import code_style
from eagle_chat.ui.words.i18n import translate
from eagle_chat.ui.math.markdown_rules import MathStyle, add_math

SAFE_LINK_SCHEMES = ("http://", "https://", "mailto:")
MAX_HIGHLIGHT_CHARS = 20_000  # larger blocks are shown plain: highlighting them would stall the GUI
CODE_BACKGROUND = theme.LIGHT.code_background  # on a light palette; see theme.colours() for the current one
MAX_NESTING = 20  # deeper Markdown structures are shown as plain text
# Beyond these, parsing and laying out Markdown froze the window for seconds (a 1,000-row table: ~10 s).
MAX_MARKDOWN_CHARS = 100_000  # a longer text is shown as plain text
MAX_TABLE_ROWS = 200  # a longer table is shown as text in a block labelled "table"
_TABLE_ROW = re.compile(r" {0,3}\|")


@dataclass
class Rendered:
    html: str
    code_blocks: list[str] = field(default_factory=list)
    math_pending: bool = False  # some formulas are shown as source until their images are made


def _is_safe_link(url: str) -> bool:
    return url.strip().lower().startswith(SAFE_LINK_SCHEMES)


def copy_code_label() -> str:
    """The text of a code block's copy link (the chat view's tint skips the line that holds it)."""
    return translate("markdown_html", "Copy code")


def _fence(tokens, idx, options, env) -> str:
    """A highlighted code block; its source is collected in ``env["code_blocks"]`` for copying."""
    token = tokens[idx]
    colours: theme.Colours = env["colours"]
    blocks = env.setdefault("code_blocks", [])
    index = env.get("first_code_index", 0) + len(blocks)
    blocks.append(token.content)
    language = (token.info or "").strip().split(" ")[0]
    label = html.escape(language) if language else html.escape(translate("markdown_html", "code"))
    prefix = env.get("code_link_prefix", "")
    if env.get("highlight", True):
        body = _highlight(token.content, language, colours)
    else:
        body = html.escape(token.content)
    copy = f'<a href="{prefix}{index}">{html.escape(copy_code_label())}</a>' if prefix else ""
    return (
        f'<table width="100%" cellpadding="6" cellspacing="0" bgcolor="{colours.code_background}">'
        f'<tr><td><span style="color:{colours.muted};">{label}</span>&nbsp;&nbsp;{copy}'
        f'<pre style="font-family:monospace; white-space:pre-wrap; color:{colours.code_text};">{body}</pre>'
        '</td></tr></table>'
    )


def _code_inline(tokens, idx, options, env) -> str:
    """Inline code on the code background, so it stands out (and stays readable) in either theme."""
    colours: theme.Colours = env["colours"]
    return (f'<code style="background-color:{colours.code_background}; color:{colours.code_text};">'
            f'{html.escape(tokens[idx].content)}</code>')


def _image(tokens, idx, options, env) -> str:
    """Images are never fetched: show what and where instead."""
    token = tokens[idx]
    alt = token.content or translate("markdown_html", "image")
    src = token.attrGet("src") or ""
    text = translate("markdown_html", "[image not loaded: {alt} — {src}]").format(alt=alt, src=src)
    return f'<span style="color:{env["colours"].muted};">{html.escape(text)}</span>'


def _make_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False, "maxNesting": MAX_NESTING})
    md.enable("table")
    md.enable("strikethrough")
    md.validateLink = _is_safe_link
    md.renderer.rules["fence"] = _fence
    md.renderer.rules["code_block"] = _fence
    md.renderer.rules["image"] = _image
    md.renderer.rules["code_inline"] = _code_inline
    add_math(md)
    return md


_PARSER = _make_parser()


def render_markdown(
    text: str, *, code_link_prefix: str = "", highlight: bool = True, first_code_index: int = 0,
    colours: theme.Colours | None = None, math: MathStyle | None = None,
) -> Rendered:
    """Render ``text``; each code block gets a "Copy code" link ``{code_link_prefix}{index}``, numbered
    from ``first_code_index`` (for text that continues an earlier part of the same message).

    ``highlight=False`` skips syntax highlighting (the costliest part) for text still streaming in.

    Structures nested deeper than the parser's limit make markdown-it drop the rest of the text; then the
    whole text is shown as plain text instead, so nothing a reply says is ever lost.

    ``colours``: the theme to draw code in (default: the one for the application's palette).

    ``math``: how to draw LaTeX formulas as images (:mod:`eagle_chat.ui.math.markdown_rules`); without
    it they are shown as their source. ``Rendered.math_pending`` says some images are still being made.
    """
    env: dict = {"code_blocks": [], "code_link_prefix": code_link_prefix, "highlight": highlight,
                 "first_code_index": first_code_index, "colours": colours or theme.colours(), "math": math}
    if len(text) > MAX_MARKDOWN_CHARS:
        return _plain(text)
    tokens = _PARSER.parse(_long_tables_as_text(text), env)
    if max((t.level for t in tokens), default=0) >= MAX_NESTING - 1:  # the parser hit its limit
        return _plain(text)
    markup = _PARSER.renderer.render(tokens, _PARSER.options, env)
    return Rendered(markup, env["code_blocks"], env.get("math_pending", False))


def _plain(text: str) -> Rendered:
    return Rendered(f'<p style="white-space: pre-wrap;">{html.escape(text)}</p>', [])


def _long_tables_as_text(text: str) -> str:
    """Put each table longer than ``MAX_TABLE_ROWS`` (outside code fences) in a fenced block labelled
    "table": shown as the text it is, in monospace, at once, with its copy action."""
    if text.count("\n|") < MAX_TABLE_ROWS:
        return text
    lines, out, run, fence = text.split("\n"), [], [], None

    def end_run() -> None:
        out.extend(["```table", *run, "```"] if len(run) > MAX_TABLE_ROWS else run)
        run.clear()

    for line in lines:
        match = _FENCE.match(line)
        if fence is None and _TABLE_ROW.match(line):
            run.append(line)
            continue
        end_run()
        if match and (fence is None or match.group(1)[0] == fence[0]):
            fence = match.group(1) if fence is None else None
        out.append(line)
    end_run()
    return "\n".join(out)


def _highlight(code: str, language: str, colours: theme.Colours) -> str:
    if len(code) > MAX_HIGHLIGHT_CHARS:
        return html.escape(code)
    try:
        lexer = get_lexer_by_name(language) if language else TextLexer()
    except ClassNotFound:
        lexer = TextLexer()
    return highlight(code, lexer, code_style.formatter(colours)).rstrip("\n")


def warm_up() -> None:
    """Build the Python lexer's tables now: the first highlight of a session otherwise pays ~0.1 s for
    it on the GUI thread, in the middle of drawing a reply."""
    _highlight("x = 1", "python", theme.colours())


_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def stable_prefix_end(text: str, start: int = 0) -> int:
    """Where the settled part of Markdown still being written ends.

    Text before the returned offset is whole blocks, each ending in a blank line outside any code fence,
    and the text after starts a new block at the left margin. Whatever is appended later, those blocks
    render the same (up to list spacing and numbering, which the final render settles), so a streaming
    view renders them once and redraws only the rest.

    ``start`` is an offset this function returned earlier for a shorter version of ``text``: the scan
    resumes there instead of reading the settled part again.
    """
    cut = offset = start
    fence: str | None = None  # the open fence's marker, e.g. "```"
    previous_blank = start > 0  # an earlier cut always follows a blank line outside any fence
    for line in text[start:].split("\n"):
        line += "\n"  # Markdown's lines end at \n only (splitlines() would also split at \u2028 and others)
        match = _FENCE.match(line)
        if fence is None:
            if previous_blank and line[:1] not in (" ", "\t", "\n", "\r"):
                cut = offset
            if match:
                fence = match.group(1)
        elif match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                and not line[match.end():].strip():
            fence = None
        previous_blank = fence is None and not line.strip()
        offset += len(line)
    return cut
