"""Models → Unload, then Models → a pair: what the window says follows what is loaded, on screen.

The walk found the "No model is loaded. [Load the model again]" banner still up after Models → the bundled
pair had loaded it, and, while unloaded, the header, the EAGLE-3 button and the Decoding note still
describing the pair that had gone. (The existing test loaded it again through the banner's own button,
which hides the banner as it runs.)
"""

from __future__ import annotations

from PySide6.QtGui import QAction

from tests.helpers.window import LOAD_TIMEOUT_MS


def _trigger(window, name: str) -> None:
    window.findChild(QAction, name).trigger()


def _said(window) -> dict:
    bar, options = window.model_bar, window.options
    return {"banner": window.notice.text() if window.notice.isVisibleTo(window) else "",
            "header": bar.model_label.text(), "eagle": bar.draft_toggle.isEnabled(),
            "note": options.sampling_note.text() if options.sampling_note.isVisibleTo(window) else ""}


def test_unload_then_load_from_the_models_menu_says_what_is_loaded(qtbot, open_window):
    window = open_window()
    window.show()
    c = window.controller
    loaded = _said(window)
    assert loaded["banner"] == "" and loaded["eagle"] and loaded["note"], loaded
    with qtbot.waitSignal(c.sig_unloaded):
        _trigger(window, "unloadModelAction")
    unloaded = _said(window)
    assert "No model is loaded" in unloaded["banner"]
    assert unloaded["header"] != loaded["header"] and "No model" in unloaded["header"], unloaded
    assert not unloaded["eagle"] and unloaded["note"] == "", unloaded  # nothing decodes, nothing drafts
    with qtbot.waitSignal(c.sig_loaded, timeout=LOAD_TIMEOUT_MS):
        _trigger(window, "bundledPairAction")
    qtbot.waitUntil(lambda: c.state == "ready")
    assert _said(window) == loaded
