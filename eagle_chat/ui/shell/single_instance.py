"""InstanceGuard: one EagleChat per home (data folder), and a second launch hands over to the first.

Two instances on one home would write the same database, settings and downloads; a relaunch while the
first is still closing was the usual way to get there. The first instance holds a ``QLockFile`` in the data
folder (a lock left by a crash is taken over: the process named in it is gone) and listens on a
``QLocalServer`` named after the folder. A second launch finds the lock held, sends its command line
(folders made absolute) and exits without writing anything; the first brings its window to the front and
applies it. A first instance that does not answer is closing: the second waits for its lock a little, and
if it still cannot have it says so in a message box as well as on stderr (:func:`tell_not_answering`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from eagle_chat.ui.words.i18n import translate

log = logging.getLogger(__name__)

LOCK_NAME = "eaglechat.lock"
ANSWER_MS = 3000  # how long a second launch waits for the first to answer
CLOSING_WAIT_MS = 15_000  # how long it waits for a first instance that is closing to let go of the lock
HEADLESS_PLATFORMS = ("offscreen", "minimal")  # no one could see (or close) a message box there


class AlreadyRunning(Exception):
    """Another EagleChat has this home; ``handed_over`` says whether it took the command line."""

    def __init__(self, handed_over: bool):
        super().__init__("handed over" if handed_over else "no answer")
        self.handed_over = handed_over


class InstanceGuard(QObject):
    sig_activated = Signal(list)
    """A second launch on this home asked for the window, with its command line (absolute folders)."""

    def __init__(self, data_dir: Path, parent: QObject | None = None):
        super().__init__(parent)
        self.lock_path = Path(data_dir) / LOCK_NAME
        self.server_name = server_name(Path(data_dir))
        self._lock = QLockFile(str(self.lock_path))
        self._lock.setStaleLockTime(0)  # never stale by age: only when the process holding it is gone
        self._server: QLocalServer | None = None
        self._buffers: dict[QLocalSocket, bytes] = {}

    def claim(self, argv: list[str]) -> None:
        """Become the instance for this home, or hand ``argv`` to the one there is (raises AlreadyRunning)."""
        if self._lock.tryLock(0):
            self._listen()
            return
        if self.hand_over(argv):
            raise AlreadyRunning(True)
        log.info("another EagleChat holds %s but does not answer; waiting for it to close", self.lock_path)
        if self._lock.tryLock(CLOSING_WAIT_MS):
            self._listen()
            return
        raise AlreadyRunning(False)

    def hand_over(self, argv: list[str]) -> bool:
        """(Second launch) send ``argv`` to the running instance; True once it confirmed."""
        socket = QLocalSocket()
        socket.connectToServer(self.server_name)
        if not socket.waitForConnected(ANSWER_MS):
            return False
        socket.write(json.dumps({"argv": argv}).encode("utf-8") + b"\n")
        socket.flush()
        answered = socket.waitForReadyRead(ANSWER_MS) and bytes(socket.readAll().data()).strip() == b"ok"
        socket.disconnectFromServer()
        return answered

    def release(self) -> None:
        """Stop listening and let go of the lock (the window has closed)."""
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._lock.isLocked():
            self._lock.unlock()

    def _listen(self) -> None:
        QLocalServer.removeServer(self.server_name)  # a socket file left by a crash (we hold the lock)
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_connection)
        if not self._server.listen(self.server_name):
            log.warning("a second launch cannot reach this one: %s", self._server.errorString())

    @Slot()
    def _on_connection(self) -> None:
        while self._server is not None and self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._on_ready(s))
            socket.disconnected.connect(lambda s=socket: self._forget(s))

    def _on_ready(self, socket: QLocalSocket) -> None:
        self._buffers[socket] = self._buffers.get(socket, b"") + bytes(socket.readAll().data())
        if b"\n" not in self._buffers[socket]:
            return
        line = self._buffers.pop(socket).split(b"\n", 1)[0]
        try:
            argv = json.loads(line.decode("utf-8"))["argv"]
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                raise ValueError("argv is not a list of strings")
        except (ValueError, KeyError, TypeError) as error:
            log.warning("ignored a malformed message from a second launch: %s", error)
            socket.disconnectFromServer()
            return
        socket.write(b"ok\n")
        socket.flush()
        log.info("a second launch (%s) handed over", " ".join(argv) or "no arguments")
        self.sig_activated.emit(argv)

    def _forget(self, socket: QLocalSocket) -> None:
        self._buffers.pop(socket, None)
        socket.deleteLater()


def server_name(data_dir: Path) -> str:
    """One name per home and user (a local socket or a named pipe)."""
    key = f"{os.environ.get('USERNAME') or os.environ.get('USER', '')}|{data_dir.resolve()}"
    return "EagleChat-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def tell_not_answering(data_dir: Path) -> str:
    """(Second launch) the instance holding this home neither answered nor let go: say so on stderr and in a
    message box — started from a desktop icon there is no terminal, and a launch that shows nothing looks
    like one that did not happen. Returns the sentence shown."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    text = translate("InstanceGuard", "Another EagleChat is using the same data folder and does not answer; "
                     "it may still be closing. Wait a moment and start EagleChat again. If this keeps happening, "
                     "end the other EagleChat (in the task manager) and try again.\n\nData folder: {folder}"
                     ).format(folder=data_dir)
    print(text, file=sys.stderr)
    app = QApplication.instance()
    if isinstance(app, QApplication) and app.platformName() not in HEADLESS_PLATFORMS:
        title = app.applicationDisplayName() or "EagleChat"
        box = QMessageBox(QMessageBox.Icon.Warning, title, text)
        box.setObjectName("instanceNotAnsweringBox")
        box.exec()
    return text
