"""Fixtures the window's tests share."""

from __future__ import annotations

import pytest

from eagle_chat.ui import theme


@pytest.fixture
def palette(qapp):
    """Switch the application palette for a test: ``palette("dark")`` / ``palette("light")``."""
    original = qapp.palette()

    def use(kind: str):
        qapp.setPalette(theme.dark_palette() if kind == "dark" else qapp.style().standardPalette())
        qapp.processEvents()
        assert theme.is_dark() == (kind == "dark")

    yield use
    qapp.setPalette(original)
