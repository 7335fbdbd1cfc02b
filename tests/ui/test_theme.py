"""Colours follow the palette: readable notices and code in light and dark themes (WCAG AA 4.5:1)."""

import pytest
from PySide6.QtGui import QColor, QPalette

from eagle_chat.ui.widgets import theme
from tests.helpers.theme import dark_app


def test_contrast_ratio_matches_wcag_reference_values():
    assert theme.contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert theme.contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert theme.contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_dark_palette_is_detected_and_gets_dark_colours(qapp):
    dark = theme.dark_palette()
    assert theme.is_dark(dark)
    assert theme.colours(dark) is theme.DARK
    light = QPalette(QColor("#f0f0f0"))
    assert not theme.is_dark(light) and theme.colours(light) is theme.LIGHT


@pytest.mark.parametrize("colours", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_text_on_every_background_passes_wcag_aa(colours):
    pairs = {
        "notice": (colours.notice_text, colours.notice_background),
        "error": (colours.error_text, colours.error_background),
        "code": (colours.code_text, colours.code_background),
        "muted on code": (colours.muted, colours.code_background),
    }
    failing = {k: round(theme.contrast_ratio(*v), 2) for k, v in pairs.items() if theme.contrast_ratio(*v) < 4.5}
    assert failing == {}


def test_dark_text_colours_are_readable_on_the_dark_window(qapp):
    window = theme.dark_palette().color(QPalette.ColorRole.Base).name()
    for name in ("text", "muted", "user_role", "assistant_role", "warning"):
        assert theme.contrast_ratio(getattr(theme.DARK, name), window) >= 4.5, name


def test_notice_follows_a_dark_palette_and_stays_readable(qtbot, qapp):
    from eagle_chat.ui.shell.notice_bar import NoticeBar

    bar = NoticeBar()
    qtbot.addWidget(bar)
    bar.show_text("The draft folder has no openvino_model.xml", error=False)
    assert bar.colours() == (theme.LIGHT.notice_text, theme.LIGHT.notice_background)
    with dark_app(qapp):
        _check_dark_notice(bar)


def _check_dark_notice(bar):
    text, background = bar.colours()
    assert (text, background) == (theme.DARK.notice_text, theme.DARK.notice_background)
    assert background in bar.styleSheet()  # restyled by the palette change, without a new show_text
    assert text in bar.styleSheet()
    assert theme.contrast_ratio(text, background) >= 4.5
    bar.show_text("failed", error=True)
    assert theme.contrast_ratio(*bar.colours()) >= 4.5 and bar.colours()[1] == theme.DARK.error_background


def test_view_theme_menu_switches_to_dark_and_is_saved(qtbot, open_window, qapp):
    from eagle_chat import paths
    from eagle_chat.settings import load_settings

    light = qapp.palette()
    window = open_window()
    try:
        window.findChild(type(window.menuBar().actions()[0]), "theme_dark").trigger()
        assert theme.is_dark(qapp.palette())
        window.binder.flush()
        assert load_settings(paths.settings_file())[0].theme == "dark"
        assert window.notice.colours()[1] in (theme.DARK.notice_background, theme.DARK.error_background)
    finally:
        window.findChild(type(window.menuBar().actions()[0]), "theme_light").trigger()
        qapp.setPalette(light)


def test_a_platform_dark_palette_with_dim_links_gets_readable_ones(qapp):
    """A dark palette the platform (or Qt's own dark Fusion) brings may carry a dim blue link colour: the chat's
    links and "Copy code" then read at ~3.9:1. The theme lifts them to 4.5:1 at least."""
    from PySide6.QtWidgets import QTextBrowser

    original = qapp.palette()
    dim = theme.dark_palette()
    dim.setColor(QPalette.ColorRole.Base, QColor("#2b2b2b"))  # as Qt's dark Fusion has them
    dim.setColor(QPalette.ColorRole.Link, QColor("#2a82da"))
    dim.setColor(QPalette.ColorRole.LinkVisited, QColor("#5b3a92"))
    try:
        qapp.setPalette(dim)
        theme.apply_theme(qapp, "dark")
        browser = QTextBrowser()
        palette = browser.palette()
        base = palette.color(QPalette.ColorRole.Base)
        for role in (QPalette.ColorRole.Link, QPalette.ColorRole.LinkVisited):
            assert theme.contrast_ratio(palette.color(role), base) >= 4.5, role
    finally:
        theme.apply_theme(qapp, "system")
        qapp.setPalette(original)
