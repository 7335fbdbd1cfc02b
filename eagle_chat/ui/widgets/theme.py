"""Colours that follow the theme: every colour the app draws comes from here, chosen for the palette.

Qt widgets follow the palette by themselves; what they cannot follow are colours written into HTML (the
chat view, code blocks, notices) and chart pens. :func:`colours` derives those from the application
palette — dark text on light backgrounds or light text on dark ones — and picks a Pygments style to match.
:func:`contrast_ratio` is WCAG 2.x's formula, so tests can check that notices and code stay readable (AA:
4.5:1). :func:`apply_theme` is View → Theme: follow the system, or force light or dark.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette

THEMES = ("system", "light", "dark")
PALETTE_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)


@dataclass(frozen=True)
class Colours:
    dark: bool
    text: str
    muted: str  # secondary text: labels, footers
    faint: str  # placeholders
    notice_background: str
    notice_text: str
    error_background: str
    error_text: str
    code_background: str
    code_text: str
    user_role: str
    assistant_role: str
    warning: str  # e.g. "(stopped)" after a role name
    danger: str  # error text on the page itself, e.g. why a reply failed, under it in the chat
    speculative: str  # chart series and accents for EAGLE-3
    baseline: str  # darker than speculative on both themes, so the two differ in grey too: ≥ 2:1 apart
    other_series: str
    api_speculative: str  # the speed chart's lines for API requests (baseline ones are also dashed)
    api_baseline: str
    draft_tint: str  # painted translucent over drafted text (draft_tint_alpha of 255)
    draft_tint_alpha: int
    toggle_on: str  # a switch that is on (the EAGLE-3 button): its background, and its text
    toggle_on_text: str
    pygments_style: str


LIGHT = Colours(
    dark=False, text="#111827", muted="#4b5563", faint="#6b7280",
    notice_background="#fef3c7", notice_text="#451a03", error_background="#fee2e2", error_text="#7f1d1d",
    code_background="#f3f4f6", code_text="#111827", user_role="#1d4ed8", assistant_role="#047857",
    warning="#92400e", danger="#b91c1c", speculative="#059669", baseline="#374151", other_series="#2563eb",
    api_speculative="#7c3aed", api_baseline="#c026d3", draft_tint="#10b981", draft_tint_alpha=64,
    toggle_on="#047857", toggle_on_text="#ffffff", pygments_style="default",
)
DARK = Colours(
    dark=True, text="#f3f4f6", muted="#c4c9d1", faint="#9ca3af",
    notice_background="#422006", notice_text="#fde68a", error_background="#450a0a", error_text="#fecaca",
    code_background="#1f2937", code_text="#e5e7eb", user_role="#93c5fd", assistant_role="#6ee7b7",
    warning="#fcd34d", danger="#f87171", speculative="#34d399", baseline="#71717a", other_series="#60a5fa",
    api_speculative="#a78bfa", api_baseline="#e879f9", draft_tint="#10b981", draft_tint_alpha=84,
    toggle_on="#34d399", toggle_on_text="#0b1215", pygments_style="monokai",
)


def is_dark(palette: QPalette | None = None) -> bool:
    """A palette is dark when its window colour is darker than its text colour."""
    palette = palette if palette is not None else QGuiApplication.palette()
    window = palette.color(QPalette.ColorRole.Window)
    text = palette.color(QPalette.ColorRole.WindowText)
    return window.lightnessF() < text.lightnessF()


def colours(palette: QPalette | None = None) -> Colours:
    """The colour set for ``palette`` (the application's by default)."""
    return DARK if is_dark(palette) else LIGHT


def switched(owner, event: QEvent) -> bool:
    """True when ``event`` tells ``owner`` the theme's colours are no longer those it last drew in (it then
    restyles itself). Qt 6 sends ApplicationPaletteChange to top-level windows only: a widget inside the
    window hears of View → Theme through its own PaletteChange — which its restyling may send again, so
    the colours are compared and a restyle never loops."""
    if event.type() not in PALETTE_EVENTS:
        return False
    now = colours()
    if getattr(owner, "_theme_colours", None) is now:
        return False
    owner._theme_colours = now
    return True


def relative_luminance(colour: str | QColor) -> float:
    c = QColor(colour)

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast_ratio(foreground: str | QColor, background: str | QColor) -> float:
    """WCAG 2.x contrast ratio, 1 … 21."""
    a, b = relative_luminance(foreground), relative_luminance(background)
    lighter, darker = max(a, b), min(a, b)
    return (lighter + 0.05) / (darker + 0.05)


def draft_tint(colours_: Colours) -> QColor:
    """The translucent tint painted over drafted text."""
    tint = QColor(colours_.draft_tint)
    tint.setAlpha(colours_.draft_tint_alpha)
    return tint


def composite(overlay: QColor, under: str | QColor) -> QColor:
    """``overlay`` (with its alpha) painted over the opaque ``under``: what the eye sees (source-over)."""
    a, base = overlay.alphaF(), QColor(under)
    mix = [round(getattr(overlay, c)() * a + getattr(base, c)() * (1 - a)) for c in ("red", "green", "blue")]
    return QColor(*mix)


def dark_palette() -> QPalette:
    """A dark palette for platforms whose style offers none (Fusion-style colours). The placeholder is
    readable (4.8:1 on Base) yet a third as bright as typed text (3:1 apart), so an empty box never looks
    filled in."""
    p = QPalette()
    roles = QPalette.ColorRole
    for role, value in (
        (roles.Window, "#1f2125"), (roles.WindowText, "#e8eaed"), (roles.Base, "#16181b"),
        (roles.AlternateBase, "#24272b"), (roles.Text, "#e8eaed"), (roles.Button, "#2a2d31"),
        (roles.ButtonText, "#e8eaed"), (roles.ToolTipBase, "#2a2d31"), (roles.ToolTipText, "#e8eaed"),
        (roles.Highlight, "#3b82f6"), (roles.HighlightedText, "#ffffff"), (roles.Link, "#93c5fd"),
        (roles.PlaceholderText, "#80868f"), (roles.BrightText, "#ffffff"),
    ):
        p.setColor(role, QColor(value))
    p.setColor(QPalette.ColorGroup.Disabled, roles.Text, QColor("#6b7280"))
    p.setColor(QPalette.ColorGroup.Disabled, roles.ButtonText, QColor("#6b7280"))
    p.setColor(QPalette.ColorGroup.Disabled, roles.WindowText, QColor("#6b7280"))
    return p


def apply_theme(app, choice: str) -> None:
    """``system`` follows the platform; ``light`` / ``dark`` force one (colour scheme hint + palette)."""
    if choice not in THEMES:
        choice = "system"
    hints = app.styleHints()
    scheme = {"system": Qt.ColorScheme.Unknown, "light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}
    if hasattr(hints, "setColorScheme"):  # Qt 6.8+
        hints.setColorScheme(scheme[choice])
    if choice == "dark" and not is_dark(app.palette()):
        app.setPalette(dark_palette())  # the style (e.g. offscreen, or Windows' vista style) has no dark mode
    elif choice == "light" and is_dark(app.palette()):
        app.setPalette(app.style().standardPalette())
    if is_dark(app.palette()):
        readable = readable_links(app.palette())
        if readable is not None:
            app.setPalette(readable)


def readable_links(palette: QPalette) -> QPalette | None:
    """``palette`` with links of ≥ 4.5:1 on its Base, or None if they already are: a platform's dark palette
    (Qt's dark Fusion) carries a dim blue the walk read at ~3.9:1 in the chat's links and "Copy code"."""
    roles = QPalette.ColorRole
    base = palette.color(roles.Base)
    if all(contrast_ratio(palette.color(role), base) >= 4.5 for role in (roles.Link, roles.LinkVisited)):
        return None
    fixed = QPalette(palette)
    for role, colour in ((roles.Link, "#93c5fd"), (roles.LinkVisited, "#c4b5fd")):
        if contrast_ratio(palette.color(role), base) < 4.5:
            fixed.setColor(role, QColor(colour))
    return fixed
