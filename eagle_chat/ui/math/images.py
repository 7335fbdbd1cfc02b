"""Typeset formulas as images for Qt's rich text, made on a worker thread and kept in a bounded cache.

A view asks :meth:`MathImages.lookup` while it renders Markdown: a formula already made comes back as an
image (served to the document through the ``math:`` resource it names), a formula that cannot be made
comes back as refused (shown as source), and one not made yet is queued and shown as source meanwhile;
``sig_ready`` tells the views to draw again when some are made. So the GUI thread never typesets: a
streaming reply re-rendered at display rate costs a dictionary look-up per formula.

Bounds, as a reply is untrusted text: a formula is refused before typesetting when it is too long or
nested too deep (:mod:`eagle_chat.ui.math.typesetting`); the worker stops one that runs past
``BUDGET_S`` (an exception raised in its thread by a watchdog, so pure-Python loops in the typesetter
end too); the cache holds at most ``CACHE_BYTES`` of images and ``MAX_QUEUE`` formulas wait at most
(the oldest requests are dropped first, and asked for again if still shown).

The image follows the theme: its colour is part of the key, so a theme switch makes new images in the
new text colour. It is drawn at the view's device pixel ratio and padded so that the formula's baseline
sits on the text's (Qt centres an image aligned "middle" ``xHeight / 2`` above the baseline).
"""

from __future__ import annotations

import atexit
import ctypes
import hashlib
import queue
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QObject, QRectF, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from eagle_chat.ui.math import typesetting as math_tex

BUDGET_S = 0.75  # one formula's typesetting time; past it the formula is shown as source
CACHE_BYTES = 48 * 1024 * 1024
MAX_FAILED = 5_000  # refused formulas remembered (so they are not tried again)
MAX_QUEUE = 2_000
READY_DELAY_MS = 40  # made images are announced together, at most this often
SCHEME = "math"


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


REFUSED = object()  # lookup(): the formula is shown as its source


class _Late(Exception):
    """Raised in the worker thread by the watchdog: the formula ran past its budget."""


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
    image = QImage(pixels_w, pixels_h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    renderer = QSvgRenderer(QByteArray(typeset.svg.encode()))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, top * key.dpr, pixels_w, (ascent + depth) * key.dpr))
    painter.end()
    image.setDevicePixelRatio(key.dpr)
    digest = hashlib.blake2b(repr(key).encode(), digest_size=10).hexdigest()
    return MathImage(f"{SCHEME}:{digest}", image, pixels_w / key.dpr, pixels_h / key.dpr, middle)


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
        # The worker holds no Python lock outside C calls (SimpleQueue, Event): the watchdog's exception
        # can reach it anywhere, and must never leave a lock held.
        self._requests: queue.SimpleQueue[MathKey | None] = queue.SimpleQueue()
        self._current: tuple[MathKey, float] | None = None  # the formula being made, and its deadline
        self._kick = threading.Event()  # a formula was started: the watchdog times it
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._watchdog: threading.Thread | None = None
        self.made_count = 0  # formulas made or given up on by the worker (tests, benchmarks)
        self.sig_made.connect(self._made, Qt.ConnectionType.QueuedConnection)
        self._ready_timer = QTimer(self)
        self._ready_timer.setSingleShot(True)
        self._ready_timer.setInterval(READY_DELAY_MS)
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
        if key not in self._waiting and len(self._waiting) < MAX_QUEUE and not self._stop.is_set():
            self._waiting.add(key)
            self._start()
            self._requests.put(key)
        return None

    def resource(self, url: str) -> QImage | None:
        image = self._by_url.get(url)
        return image.image if image is not None else None

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
        if not self._ready_timer.isActive():
            self._ready_timer.start()

    # --- threads ----------------------------------------------------------------------------------
    def _start(self) -> None:
        """Start the worker and its watchdog on first use."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="math-typesetting", daemon=True)
            self._watchdog = threading.Thread(target=self._watch, name="math-watchdog", daemon=True)
            self._thread.start()
            self._watchdog.start()
            atexit.register(self.stop)

    def stop(self) -> None:
        """End the threads (at exit: none may be running Qt code while the interpreter ends)."""
        self._stop.set()
        self._kick.set()
        self._requests.put(None)
        for thread in (self._thread, self._watchdog):
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout=BUDGET_S + 2.0)

    def _work(self) -> None:
        while not self._stop.is_set():
            try:
                self._work_on()
            except _Late:  # the watchdog's exception arrived just after a formula was done
                continue

    def _work_on(self) -> None:
        while not self._stop.is_set():
            key = self._requests.get()
            if key is None:
                return
            image = None
            self._current = (key, time.monotonic() + BUDGET_S)
            self._kick.set()
            try:
                image = draw(key, math_tex.typeset(key.tex, display=key.display, colour=key.colour))
            except Exception:  # noqa: BLE001 - refused, over budget (_Late) or a typesetter error: source
                image = None
            finally:
                self._current = None
                _raise_in(threading.get_ident(), None)  # drop a late exception not delivered yet
            self.made_count += 1
            self.sig_made.emit(key, image)

    def _watch(self) -> None:
        """Stop a formula that runs past its budget: raise :class:`_Late` in the worker thread."""
        while not self._stop.is_set():
            self._kick.wait()
            self._kick.clear()
            current = self._current
            while current is not None and not self._stop.is_set():
                left = current[1] - time.monotonic()
                if left > 0:
                    self._stop.wait(left)
                elif self._current is current and self._thread is not None:
                    _raise_in(self._thread.ident, _Late)
                    break
                current = self._current if self._current is current else None


def _raise_in(thread_id: int | None, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in the thread at its next Python instruction (None: cancel a pending one)."""
    if thread_id is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                                   ctypes.py_object(exception) if exception else None)


_SHARED: MathImages | None = None


def shared() -> MathImages:
    """The application's formula images (made on first use; lives as long as the application)."""
    global _SHARED
    if _SHARED is None:
        from PySide6.QtCore import QCoreApplication

        _SHARED = MathImages(QCoreApplication.instance())
    return _SHARED
