"""Runs the documents index worker (``core.documents.index_worker``) with QProcess, never blocking the GUI.

One run at a time; its JSON lines become signals. Stop kills the process: each file is written in one
transaction, so what was indexed stays whole and the rest is simply not there (a later attach goes on).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, Signal, Slot

from eagle_chat.core.errors import UserError
from eagle_chat.ui.words.core_text import user_error_text
from eagle_chat.ui.words.i18n import translate


class IndexRunner(QObject):
    sig_started = Signal(int)
    """A run started: how many files it will look at."""
    sig_file = Signal(str, str, int, str)
    """A file was looked at: its path, the outcome ("added", "updated", "unchanged", "failed"), how many files
    are done, and for a failed one the reason."""
    sig_finished = Signal(bool, str)
    """The run ended: whether every file was indexed, and a sentence when the run itself failed or was stopped."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._process: QProcess | None = None
        self._buffer = b""
        self._stopped = False
        self._error = ""
        self._failed = False

    @property
    def running(self) -> bool:
        return self._process is not None

    def start(self, database: Path, collection: str, embedder_dir: Path | None, device: str, paths: list[Path]) -> None:
        """Index ``paths`` into ``collection``; ``embedder_dir`` None: the embedder the index was built with."""
        if self.running:
            raise RuntimeError("an indexing run is already under way")
        self._buffer, self._stopped, self._error, self._failed = b"", False, "", False
        process = self._process = QProcess(self)
        process.setProcessChannelMode(QProcess.ProcessChannelMode.SeparateChannels)
        process.readyReadStandardOutput.connect(self._read)
        process.finished.connect(self._ended)
        process.errorOccurred.connect(self._could_not_start)
        embedder = ["--embedder", str(embedder_dir)] if embedder_dir else []
        # The files go down stdin, not on the command line: Windows caps that at 32,767 characters.
        process.start(sys.executable, ["-m", "eagle_chat.core.documents.index_worker", "--database", str(database),
                                       "--collection", collection, *embedder, "--device", device,
                                       "--paths-from-stdin"])
        process.write("".join(f"{path}\0" for path in paths).encode("utf-8"))
        process.closeWriteChannel()

    def stop(self) -> None:
        """Stop the run now (the files already indexed stay)."""
        if self._process is not None:
            self._stopped = True
            self._process.kill()

    def wait(self, msecs: int = 5000) -> None:
        """For closing: end the run and wait for its process."""
        if self._process is not None:
            self.stop()
            self._process.waitForFinished(msecs)

    @Slot()
    def _read(self) -> None:
        if self._process is None:
            return
        self._buffer += bytes(self._process.readAllStandardOutput().data())
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("event")
            if kind == "start":
                self.sig_started.emit(int(event.get("files", 0)))
            elif kind == "file":
                self._failed |= event.get("outcome") == "failed"
                self.sig_file.emit(event.get("path", ""), event.get("outcome", ""), int(event.get("done", 0)),
                                   _shown(event))
            elif kind == "error":
                self._error = _shown(event)

    @Slot(QProcess.ProcessError)
    def _could_not_start(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._process is not None:
            self._process.deleteLater()
            self._process = None
            self.sig_finished.emit(False, translate("IndexRunner", "The indexing process could not start."))

    @Slot(int, QProcess.ExitStatus)
    def _ended(self, code: int, status: QProcess.ExitStatus) -> None:
        self._read()
        process, self._process = self._process, None
        if process is not None:
            process.deleteLater()
        if self._stopped:
            self.sig_finished.emit(False, translate("IndexRunner", "Indexing stopped; the files indexed so far are kept."))
        elif self._error:
            self.sig_finished.emit(False, self._error)
        elif status != QProcess.ExitStatus.NormalExit or code not in (0, 1):
            self.sig_finished.emit(False, translate("IndexRunner", "The indexing process ended unexpectedly ({code}).")
                                   .format(code=code))
        else:
            self.sig_finished.emit(not self._failed, "")


def _shown(event: dict) -> str:
    """An event's sentence in the window's language: the worker sends the template and its values beside the
    English sentence (a Chinese window showed "… is not a readable PDF" in English)."""
    template, params = event.get("template"), event.get("params")
    if isinstance(template, str) and isinstance(params, dict):
        return user_error_text(UserError.restore(template, params))
    return str(event.get("message", ""))
