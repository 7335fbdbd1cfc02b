"""FailureReporter: every failure the user should hear about goes to the log *and* to one notice.

An exception in a slot, an export to a folder that cannot be written, a settings write that failed, a
model registry found damaged: each is logged with its details, and the window shows one sentence, the log's
path and a "Copy details" button — never a traceback dialog, never silence.
"""

from __future__ import annotations

import logging
import platform
import sys
import traceback
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from eagle_chat.core.errors import UserError
from eagle_chat.ui.words.core_text import user_error_text

log = logging.getLogger(__name__)


class FailureReporter(QObject):
    sig_failure = Signal(str, str)
    """A failure to show: the sentence (with the log's path) and the details a "Copy details" copies."""

    def __init__(self, log_path: Path | None, parent: QObject | None = None):
        super().__init__(parent)
        self.log_path = log_path
        self.reported: list[str] = []  # the sentences shown, in order (tests read it)

    def report(self, sentence: str, error: BaseException | None = None) -> None:
        """Log ``sentence`` (with ``error``'s traceback) and show it. Safe from any thread."""
        log.error("%s", sentence, exc_info=(type(error), error, error.__traceback__) if error else None)
        details = [sentence]
        if error is not None:
            details.append("".join(traceback.format_exception(type(error), error, error.__traceback__)))
        self._emit(sentence, details)

    def report_exception(self, kind, error: BaseException, tb) -> None:
        """An uncaught exception (from ``sys.excepthook``; already logged there)."""
        if isinstance(error, UserError):
            sentence = user_error_text(error)
        else:
            sentence = self.tr("Something went wrong ({kind}: {error}). EagleChat keeps running.").format(
                kind=kind.__name__, error=error)
        self._emit(sentence, [sentence, "".join(traceback.format_exception(kind, error, tb))])

    def _emit(self, sentence: str, details: list[str]) -> None:
        where = self.tr(" Details are in the log: {path}").format(path=self.log_path) if self.log_path else ""
        details.append(
            f"EagleChat on Python {sys.version.split()[0]}, {platform.platform()}; log: {self.log_path}"
        )
        self.reported.append(sentence)
        self.sig_failure.emit(sentence + where, "\n\n".join(details))
