"""Typeset formulas as images for Qt's rich text, made on a worker thread and kept in a bounded cache.

A view asks :meth:`MathImages.lookup` while it renders Markdown: a formula already made comes back as an
image (served to the document through the ``math:`` resource it names), a formula that cannot be made
comes back as refused (shown as source), and one not made yet is queued and shown as source meanwhile;
``sig_ready`` tells the views to draw again when some are made. So the GUI thread never typesets: a
streaming reply re-rendered at display rate costs a dictionary look-up per formula.

Typesetting (ziamath, pure Python) runs in a child process, not in a thread of the app: a thread would
hold the GIL the GUI thread and the token stream need (measured: a maths reply streaming in stalled the
GUI up to 175 ms while a thread typeset its formulas), and could not be stopped. The worker thread here
only sends the formula, waits (without the GIL) and draws the SVG with Qt's SVG module.

Bounds, as a reply is untrusted text: a formula is refused before typesetting when it is too long,
nested too deep or defines macros (:mod:`eagle_chat.ui.math.typesetting`); one that takes longer than
``BUDGET_S`` has its child process killed (a new one starts for the next formula) and is shown as source;
the cache holds at most ``CACHE_BYTES`` of images and at most ``MAX_QUEUE`` formulas wait (more are asked
for again when their view draws again).

The image follows the theme: its colour is part of the key, so a theme switch makes new images in the
new text colour. It is drawn at the view's device pixel ratio and padded so that the formula's baseline
sits on the text's (Qt centres an image aligned "middle" ``xHeight / 2`` above the baseline).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from collections import OrderedDict
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QObject, QRectF, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

import eagle_chat
from eagle_chat.ui.math import typesetting as math_tex

BUDGET_S = 0.75  # one formula's typesetting time; past it the formula is shown as source
START_TIMEOUT_S = 30.0  # the child process's start (Python, ziamath and its font), outside any budget
MAX_LATE_IN_A_ROW = 3
RETRY_START_S = 60.0  # after a failed start, formulas are shown as source for this long before a retry
CACHE_BYTES = 48 * 1024 * 1024
MAX_FAILED = 5_000  # refused formulas remembered (so they are not tried again)
MAX_QUEUE = 2_000
# Made images are announced together: READY_DELAY_MS after the last waiting one is made, or every
# READY_INTERVAL_MS while more are coming (each announcement redraws the messages waiting for them).
READY_DELAY_MS = 30
READY_INTERVAL_MS = 400
SCHEME = "math"
MAX_IMAGE_PX = 8_192  # wider or taller (in device pixels): shown as source


@dataclass(frozen=True)
class MathKey:
    tex: str
    display: bool
    colour: str  # "#rrggbb"
    font_px: float  # the text's pixel size the formula is scaled to
    x_height: float  # the text's x-height, for the baseline
    dpr: float


@dataclass(frozen=True)
class MathImage:
    url: str  # "math:<hash>", the document resource
    image: QImage
    width: float  # device-independent pixels, padding included
    height: float
    middle: bool  # aligned "middle" (padded so the baselines meet) rather than sitting on the baseline
    source: str = ""  # the formula as LaTeX, delimited ("$x$", "$$x$$"): what copying it gives


REFUSED = object()  # lookup(): the formula is shown as its source


def draw(key: MathKey, typeset: math_tex.Typeset) -> MathImage:
    """The typeset SVG as an image for ``key`` (any thread: QImage and QSvgRenderer need no GUI thread)."""
    scale = key.font_px / math_tex.FONT_SIZE_PX
    width, ascent, depth = typeset.width * scale, (typeset.height - typeset.depth) * scale, typeset.depth * scale
    middle = depth > 0.75  # sits on the baseline when nothing hangs below it
    top = bottom = 0.0
    if middle:  # Qt puts a "middle" object's descent at (height - xHeight / 2) / 2
        half_x = key.x_height / 2
        new_ascent = max(ascent, depth + half_x)
        top, bottom = new_ascent - ascent, new_ascent - half_x - depth
    height = top + ascent + depth + bottom
    pixels_w, pixels_h = max(1, round(width * key.dpr)), max(1, round(height * key.dpr))
    if pixels_w > MAX_IMAGE_PX or pixels_h > MAX_IMAGE_PX:
        raise math_tex.Refused("too large")
    image = QImage(pixels_w, pixels_h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    renderer = QSvgRenderer(QByteArray(typeset.svg.encode()))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, top * key.dpr, pixels_w, (ascent + depth) * key.dpr))
    painter.end()
    image.setDevicePixelRatio(key.dpr)
    digest = hashlib.blake2b(repr(key).encode(), digest_size=10).hexdigest()
    source = f"$${key.tex}$$" if key.display else f"${key.tex}$"
    return MathImage(f"{SCHEME}:{digest}", image, pixels_w / key.dpr, pixels_h / key.dpr, middle, source)


class MathImages(QObject):
    """The formulas' images for every view of the application (one instance: :func:`shared`)."""

    sig_ready = Signal()
    """Some requested formulas were made (or refused): views showing them as source may draw again."""
    sig_made = Signal(object, object)
    """(key, MathImage or None) from the worker thread; handled on the GUI thread."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._images: OrderedDict[MathKey, MathImage] = OrderedDict()  # least recently used first
        self._by_url: dict[str, MathImage] = {}
        self._bytes = 0
        self._refused: OrderedDict[MathKey, None] = OrderedDict()
        self._waiting: set[MathKey] = set()  # asked for, not made yet (GUI thread only)
        self._requests: queue.SimpleQueue[MathKey | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.tried_count = 0  # formulas sent to the typesetter (tests)
        self.made_count = 0  # formulas made or given up on by the worker (tests, benchmarks)
        self.sig_made.connect(self._made, Qt.ConnectionType.QueuedConnection)
        self._ready_timer = QTimer(self)
        self._ready_timer.setSingleShot(True)
        self._ready_timer.timeout.connect(self.sig_ready)

    # --- GUI thread -------------------------------------------------------------------------------
    def lookup(self, key: MathKey) -> MathImage | object | None:
        """The image for ``key``, :data:`REFUSED`, or None: not made yet (queued unless ``MAX_QUEUE``
        formulas already wait; ``sig_ready`` follows, and a view drawing again asks again)."""
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
            return image
        if key in self._refused or math_tex.refusal(key.tex) is not None:
            return REFUSED
        if key not in self._waiting and len(self._waiting) < MAX_QUEUE:
            self._waiting.add(key)
            self._start()
            self._requests.put(key)
        return None

    def resource(self, url: str) -> QImage | None:
        image = self._by_url.get(url)
        return image.image if image is not None else None

    def source(self, url: str) -> str | None:
        """The LaTeX of the image at ``url`` (while it is cached)."""
        image = self._by_url.get(url)
        return image.source if image is not None else None

    def pending(self) -> int:
        """How many formulas are waiting to be made."""
        return len(self._waiting)

    @Slot(object, object)
    def _made(self, key: MathKey, image: MathImage | None) -> None:
        self._waiting.discard(key)
        if image is None:
            self._refused[key] = None
            while len(self._refused) > MAX_FAILED:
                self._refused.popitem(last=False)
        elif key not in self._images:
            self._images[key] = image
            self._by_url[image.url] = image
            self._bytes += image.image.sizeInBytes()
            while self._bytes > CACHE_BYTES and len(self._images) > 1:
                _, old = self._images.popitem(last=False)
                self._by_url.pop(old.url, None)
                self._bytes -= old.image.sizeInBytes()
        if not self._waiting:
            self._ready_timer.start(READY_DELAY_MS)
        elif not self._ready_timer.isActive():
            self._ready_timer.start(READY_INTERVAL_MS)

    # --- the worker thread ------------------------------------------------------------------------
    def _start(self) -> None:
        """Start the worker on first use (or after :meth:`stop`)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="math-typesetting", daemon=True)
            self._thread.start()
            atexit.register(self.stop)

    def stop(self) -> None:
        """End the worker and its child process (when the application quits, and at exit). Formulas
        still waiting are dropped; a later request starts them again."""
        self._requests.put(None)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=BUDGET_S + 5.0)
        self._thread = None
        self._waiting.clear()
        self._requests = queue.SimpleQueue()

    def _work(self) -> None:
        typesetter = _Typesetter()
        try:
            while (key := self._requests.get()) is not None:
                image = None
                # Formulas built to be slow cost a budget and a new process each: after a few in a row, those
                # already queued behind them are shown as source without a try (the last one is tried).
                if typesetter.late_in_a_row < MAX_LATE_IN_A_ROW or self._requests.empty():
                    self.tried_count += 1
                    try:
                        typeset = typesetter.typeset(key.tex, key.display, key.colour)
                        image = draw(key, typeset) if typeset is not None else None
                    except Exception:  # noqa: BLE001 - any failure: the formula is shown as source
                        image = None
                self.made_count += 1
                self.sig_made.emit(key, image)
        finally:
            typesetter.close()


class _Typesetter:
    """The child process that typesets (``python -m eagle_chat.ui.math.typesetting``, as the app's other
    helper processes run, in a bundle too): started on first use, killed when a formula runs past its
    budget, and started again for the next one. A start that fails is not tried again for a while."""

    def __init__(self):
        self._process: subprocess.Popen | None = None
        self._replies: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._failed_at = -RETRY_START_S
        self.late_in_a_row = 0  # formulas stopped at the budget since the last one typeset in time

    def typeset(self, tex: str, display: bool, colour: str) -> math_tex.Typeset | None:
        """The formula typeset, or None (refused, failed, or stopped at ``BUDGET_S``)."""
        if self._process is None or self._process.poll() is not None:
            self._spawn()
        self._process.stdin.write(json.dumps([tex, display, colour]) + "\n")
        self._process.stdin.flush()
        try:
            reply = self._replies.get(timeout=BUDGET_S)
        except queue.Empty:
            reply = None
        if reply is None:  # too slow, or the process ended: a new one for the next formula
            self.late_in_a_row += 1
            self.close()
            return None
        self.late_in_a_row = 0
        values = json.loads(reply)
        return math_tex.Typeset(*values) if values is not None else None

    def _spawn(self) -> None:
        self.close()
        if time.monotonic() - self._failed_at < RETRY_START_S:
            raise RuntimeError("the math typesetting process failed to start a moment ago")
        env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")
        package_root = Path(eagle_chat.__file__).resolve().parent.parent
        if package_root.name not in ("site-packages", "dist-packages"):  # a source checkout
            env["PYTHONPATH"] = os.pathsep.join([str(package_root), *filter(None, [env.get("PYTHONPATH")])])
        self._process = subprocess.Popen(
            [sys.executable, "-m", "eagle_chat.ui.math.typesetting"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True, encoding="utf-8",
            creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
        self._replies = queue.SimpleQueue()
        threading.Thread(target=_read_lines, args=(self._process.stdout, self._replies), daemon=True,
                         name="math-typesetting-replies").start()
        try:
            ready = self._replies.get(timeout=START_TIMEOUT_S)
        except queue.Empty:
            ready = None
        if ready != math_tex.READY:
            self._failed_at = time.monotonic()
            self.close()
            raise RuntimeError("the math typesetting process did not start")

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=5.0)
            for pipe in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):
                    pipe.close()


def _read_lines(stream, replies: queue.SimpleQueue) -> None:
    """The child's answers, line by line, until it ends (then None)."""
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            replies.put(line.rstrip("\n"))
    replies.put(None)


_SHARED: MathImages | None = None


def shared() -> MathImages:
    """The application's formula images (made on first use; lives as long as the application)."""
    global _SHARED
    if _SHARED is None:
        from PySide6.QtCore import QCoreApplication

        app = QCoreApplication.instance()
        _SHARED = MathImages(app)
        app.aboutToQuit.connect(_SHARED.stop)
    return _SHARED
