"""Failures the user must hear about: logged with details, shown as one notice with the log's path and
"Copy details" — never a traceback dialog, never silence. The app keeps running."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication

from eagle_chat import paths
from eagle_chat.ui.speed import exporters
from tests.gui import send


def log_text() -> str:
    return paths.log_file().read_text(encoding="utf-8")


def assert_failure_notice(qtbot, window, words: str) -> None:
    qtbot.waitUntil(lambda: words in window.notice.text(), timeout=10_000)
    assert str(paths.log_file()) in window.notice.text()
    assert not window.notice.copy_button.isHidden()
    window.notice.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert words in copied and str(paths.log_file()) in copied
    window.app_log.flush()
    assert words in log_text()


@pytest.mark.qt_no_exception_capture  # the app's own hook must take it, as in a desktop launch
def test_an_exception_in_a_slot_is_logged_and_shown(qtbot, open_window):
    window = open_window()

    def broken_slot():
        raise RuntimeError("boom in a slot")

    QTimer.singleShot(0, broken_slot)
    assert_failure_notice(qtbot, window, "boom in a slot")
    assert "Traceback" in QGuiApplication.clipboard().text() and "broken_slot" in log_text()
    window.options.max_tokens.setValue(8)
    _, result = send(qtbot, window, "still running?")
    assert result is not None


def test_export_to_a_folder_that_cannot_be_written_is_reported(qtbot, open_window, tmp_path):
    window = open_window()
    window.options.max_tokens.setValue(8)
    send(qtbot, window, "something to export")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    exporters.export_from_window(window, str(blocker / "stats"))
    assert_failure_notice(qtbot, window, "The stats could not be exported to")
    assert "Traceback" in QGuiApplication.clipboard().text()


def test_a_settings_write_that_fails_is_reported(qtbot, open_window):
    window = open_window()
    window.binder.flush()
    settings = paths.settings_file()
    settings.unlink()
    settings.mkdir()  # the atomic rename onto it now fails
    window.model_bar.k_slider.setValue(6 if window.model_bar.k_slider.value() != 6 else 4)
    window.binder.flush()
    assert_failure_notice(qtbot, window, "Your settings could not be saved")
    settings.rmdir()


def test_a_registry_damaged_after_startup_is_reported_not_silently_emptied(qtbot, open_window):
    window = open_window()
    paths.registry_file().write_text("{ not json", encoding="utf-8")
    window.models_menu.refresh()  # what opening the Models menu does
    assert_failure_notice(qtbot, window, "The list of registered models could not be read")
    assert list(paths.data_dir().glob("models.json.broken-*"))
