"""The application's palette for a test: dark (as View → Theme → Dark sets it) or light, then back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest


@contextmanager
def dark_app(qapp) -> Iterator[None]:
    """The whole application switched to the dark palette, then back to the one it had."""
    from eagle_chat.ui.widgets import theme

    light = qapp.palette()
    qapp.setPalette(theme.dark_palette())
    qapp.processEvents()
    try:
        yield
    finally:
        qapp.setPalette(light)
        qapp.processEvents()


@pytest.fixture
def palette(qapp):
    """Switch the application palette for a test: ``palette("dark")`` / ``palette("light")``; the test's end
    restores the one it had."""
    from eagle_chat.ui.widgets import theme

    original = qapp.palette()

    def use(kind: str):
        qapp.setPalette(theme.dark_palette() if kind == "dark" else qapp.style().standardPalette())
        qapp.processEvents()
        assert theme.is_dark() == (kind == "dark")

    yield use
    qapp.setPalette(original)
