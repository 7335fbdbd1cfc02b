"""Kept for the test modules that import from here: the window helpers live in :mod:`tests.helpers.window`
(import from there in new tests)."""

from tests.helpers.window import (  # noqa: F401 - re-exported
    LOAD_TIMEOUT_MS,
    REPLY_TIMEOUT_MS,
    choose_in_context_menu,
    close_popups,
    close_window,
    send,
    wait_ready,
)
