"""A LaTeX formula from a reply, typeset to SVG by ziamath (pure Python, its own STIX Two Math font).

No Qt here: :mod:`eagle_chat.ui.math.images` runs this module as a child process (:func:`serve`), sends it
formulas and turns the SVGs it answers with into images. A formula is untrusted text: what can be refused
cheaply is refused before typesetting (too long, braces nested too deep, macro definitions; in the child,
characters the math font has no glyph for, such as Chinese inside ``\\text{}``); the rest is bounded in
time by the parent, which kills the child past the budget. A refused formula is shown as its source.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass

MAX_FORMULA_CHARS = 1_000  # longer: shown as source (ziamath took ~7 s for 2,000 characters of "x+x+…")
MAX_BRACE_DEPTH = 12  # deeper: shown as source (cost grows exponentially with nested \frac)
MAX_SVG_CHARS = 400_000  # an SVG larger than this is not drawn
FONT_SIZE_PX = 16.0  # typeset at this size, scaled when drawn
# Macro definitions can expand without end (ziamath stops at depth 100, but each level costs); a reply
# has no reason to define macros, so a formula that does is shown as source.
_DEFINITIONS = re.compile(r"\\(?:def|edef|gdef|xdef|let|newcommand|renewcommand|providecommand|"
                          r"DeclareMathOperator|newenvironment|renewenvironment|catcode)(?![A-Za-z])")


class Refused(ValueError):
    """The formula is not typeset; it is shown as its source."""


@dataclass(frozen=True)
class Typeset:
    """An SVG of a formula: ``width`` × ``height`` in px at ``FONT_SIZE_PX``, ``depth`` px of it below
    the baseline (negative when the formula lies above it)."""

    svg: str
    width: float
    height: float
    depth: float


def refusal(tex: str) -> str | None:
    """Why ``tex`` is not typeset, or None: the checks that cost nothing (no font is read: the GUI
    thread asks this for every formula it draws)."""
    if not tex.strip():
        return "empty"
    if len(tex) > MAX_FORMULA_CHARS:
        return "too long"
    depth = deepest = 0
    for char in tex:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    if deepest > MAX_BRACE_DEPTH:
        return "nested too deep"
    if _DEFINITIONS.search(tex):
        return "defines macros"
    return None


def typeset(tex: str, *, display: bool, colour: str) -> Typeset:
    """Typeset ``tex`` in ``colour`` (``#rrggbb``); raises :class:`Refused` or ziamath's own errors."""
    why = refusal(tex)
    if why is not None:
        raise Refused(why)
    font = load()
    if any(ord(char) > 127 and font.glyphindex(char) == 0 for char in set(tex)):
        raise Refused("characters the math font lacks")
    import ziamath

    math = ziamath.Latex(tex, size=FONT_SIZE_PX, color=colour, inline=not display)
    svg = math.svg()
    if len(svg) > MAX_SVG_CHARS:
        raise Refused("too large")
    width, height = _size(svg)
    return Typeset(svg, width, height, depth=-math.getyofst() + math.margin)


_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"')


def _size(svg: str) -> tuple[float, float]:
    match = _SIZE.match(svg)
    if match is None:
        raise Refused("no size")
    return float(match.group(1)), float(match.group(2))


_FONT = None


def load():
    """Import ziamath and read its math font (once; ~0.5 s), with SVG 1.1 output: Qt's SVG renderer
    follows ``xlink:href``, not SVG 2's bare ``href``. Returns the font."""
    global _FONT
    if _FONT is None:
        import ziamath
        ziamath.config.svg2 = False
        _FONT = ziamath.Latex("x", size=FONT_SIZE_PX).font
    return _FONT


READY = "ready"


def serve(lines, out) -> None:
    """The child process: answer each JSON line ``[tex, display, colour]`` with ``[svg, width, height,
    depth]``, or ``null`` when the formula is not typeset; ends with its input."""
    load()
    out.write(READY + "\n")
    out.flush()
    for line in lines:
        try:
            tex, display, colour = json.loads(line)
            done = typeset(tex, display=bool(display), colour=str(colour))
            reply = [done.svg, done.width, done.height, done.depth]
        except Exception:  # noqa: BLE001 - refused or a typesetter error: the formula is shown as source
            reply = None
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
