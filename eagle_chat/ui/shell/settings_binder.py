"""SettingsBinder: keeps :class:`Settings` and the widgets that edit them in step, and writes them coalesced.

The window's controls change settings many times a second (a slider drag is a dozen steps); each write is an
fsync'd file replace. So changes mark the settings dirty and one write follows ``delay_ms`` later; ``flush``
writes at once (on close). A failed write is reported through ``sig_failed`` — never a silent loss, never a
traceback.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray, QObject, QTimer, Signal

from eagle_chat.core.measure.tuning import clamp_k
from eagle_chat.settings import Settings
from eagle_chat.ui.widgets import screen_fit

WRITE_DELAY_MS = 400


class SettingsBinder(QObject):
    sig_failed = Signal(str)
    """Writing the settings file failed: the sentence to show."""

    def __init__(self, settings: Settings, save: Callable[[Settings], None], parent: QObject | None = None,
                 delay_ms: int = WRITE_DELAY_MS):
        super().__init__(parent)
        self.settings = settings
        self._save = save
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.flush)
        self.writes = 0  # how many times the file was written (tests and benchmarks read it)

    def apply(self, window) -> None:
        """Set the window's controls from the settings (once, at start)."""
        s = self.settings
        window.model_bar.set_device(s.device)
        window.model_bar.k_slider.setValue(clamp_k(s.num_assistant_tokens))
        window.model_bar.draft_toggle.setChecked(s.speculative)
        window.speculation.pin.restore(s.speculation_method)  # after the button: off is Off
        window.options.max_tokens.setValue(s.max_new_tokens)
        window.options.thinking.setChecked(s.thinking)
        window.options.system_prompt.setPlainText(s.system_prompt)
        window.options.precision.setCurrentIndex(max(0, window.options.precision.findData(s.precision)))
        window.options.prefix_cache.setChecked(s.prefix_cache)
        restored = bool(s.window_geometry) and window.restoreGeometry(QByteArray.fromBase64(s.window_geometry.encode()))
        if not (restored and screen_fit.fits(window)):  # none saved, or saved on a screen larger than this one
            screen_fit.fit(window, screen_fit.MAIN_WINDOW_SIZE, centre=True)
        screen_fit.keep_on_screen(window)

    def bind(self, window) -> None:
        """Follow the controls that change settings without a reload."""
        window.model_bar.sig_speculative_toggled.connect(self._on_speculative)
        window.model_bar.sig_k_changed.connect(self._on_k)
        window.speculation.pin.sig_changed.connect(lambda method: self.update(speculation_method=method))
        window.options.sig_changed.connect(lambda: self._on_options(window.options))

    def update(self, **changes) -> None:
        """Change fields and schedule a write."""
        for name, value in changes.items():
            setattr(self.settings, name, value)
        self.persist()

    def persist(self) -> None:
        """Schedule one write; further changes before it fires join it."""
        self._timer.start()

    def flush(self) -> None:
        """Write now (and cancel a scheduled write)."""
        self._timer.stop()
        try:
            self._save(self.settings)
        except OSError as error:
            self.sig_failed.emit(self.tr(
                "Your settings could not be saved ({error}); they apply until EagleChat closes.").format(error=error))
            return
        self.writes += 1

    def remember_window(self, window) -> None:
        """What closing keeps: geometry and the system prompt as typed."""
        self.settings.window_geometry = bytes(window.saveGeometry().toBase64()).decode()
        self.settings.system_prompt = window.options.system_prompt.toPlainText()

    def _on_speculative(self, on: bool) -> None:
        self.update(speculative=on)

    def _on_k(self, k: int) -> None:
        self.update(num_assistant_tokens=k)

    def _on_options(self, options) -> None:
        self.update(max_new_tokens=options.max_tokens.value(), thinking=options.thinking.isChecked())
