"""VerdictBoard: the comparison's result as a headline a room can read, the two modes' tokens/s beside it.

A presenter's audience sits metres away from a 720p projector: the first words of a paragraph at body size
are lost on them. So the board shows, in this order of size:

- the **headline** (``demoVerdict``): "2.3× faster", "No measurable difference" — the noise rule's verdict,
  never a figure the rule did not back — or while a comparison runs, what it is doing ("Warming up both
  modes…", "Run 2 of 3 · EAGLE-3"); in demo mode its pixel size is a tenth of the screen's height or more;
- **each mode's tokens/s**, large: live while a mode runs, its median once the comparison has finished;
- a progress bar while it runs (the warm-up included, so the stage is never still);
- the **details** (the spread, the repeats, TTFT, whether the answers are identical): at normal size in a
  window; in demo mode a 48th of the screen high, without the "what was compared" line (its tooltip).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QSizePolicy, QVBoxLayout, QWidget

from eagle_chat.core.measure.compare import Comparison
from eagle_chat.ui.words.i18n import translate

HEADLINE_SHARE = 10  # demo mode: the headline's pixel size is at least the screen height / this
RATE_SHARE = 24  # demo mode: the tokens/s figures' pixel size, as a share of the screen height
ROW_SPACING = 16  # between the headline and the figures
DETAILS_SHARE = 48  # demo mode: the details' pixel size, as a share of the screen height (15 px at 720p)
NORMAL_HEADLINE_SCALE, NORMAL_RATE_SCALE = 2.0, 1.5  # a window on a desk: relative to the normal font
MODES = ("baseline", "speculative")


def pixel_size(font: QFont) -> float:
    """A font's size in pixels, whether it was set in points or pixels (96 dpi is Qt's logical default)."""
    return font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF() * 96.0 / 72.0


class VerdictBoard(QWidget):
    """``running(status, progress)`` and ``show_rate(mode, rate)`` while a comparison runs, ``show_result``
    when it has finished, ``message(text)`` for anything else the details line has to say."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("compareVerdictBoard")
        self.headline = QLabel(self.tr("Baseline vs EAGLE-3"))
        self.headline.setObjectName("demoVerdict")
        self.headline.setWordWrap(True)
        self.headline.setAccessibleName(self.tr("Result"))
        self.headline.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.rates: dict[str, QLabel] = {}
        figures = QVBoxLayout()
        figures.setSpacing(0)
        figures.addStretch(1)
        for mode in MODES:
            label = QLabel()
            label.setObjectName("demoBaselineRate" if mode == "baseline" else "demoSpeculativeRate")
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            figures.addWidget(label)
            self.rates[mode] = label
        figures.addStretch(1)
        row = QHBoxLayout()
        row.setSpacing(ROW_SPACING)
        row.addWidget(self.headline, 1)
        row.addLayout(figures)
        self.progress = QProgressBar()
        self.progress.setObjectName("compareProgress")
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setAccessibleName(self.tr("Comparison progress"))
        self.progress.setVisible(False)
        self.details = QLabel()
        self.details.setObjectName("compareSummary")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.progress)
        layout.addWidget(self.details)
        self._values: dict[str, float | None] = dict.fromkeys(MODES)
        self._sizes = (0.0, 0.0)
        self._headline_px = 0
        self._large = False
        self._running = False  # a run's status shrinks to one line; the verdict keeps its size (and may wrap)
        self.set_large(None, QFont(self.font()))

    # --- public API ------------------------------------------------------------------------------------
    def set_large(self, screen_height: int | None, normal: QFont) -> None:
        """Demo mode on a screen ``screen_height`` pixels high (None: a window, type relative to ``normal``).
        In demo mode the details grow with the screen too (at the normal ~9 pt the room saw a grey smear)."""
        self._large = bool(screen_height)
        if screen_height:
            headline, rate = math.ceil(screen_height / HEADLINE_SHARE), math.ceil(screen_height / RATE_SHARE)
        else:
            base = pixel_size(normal)
            headline, rate = round(base * NORMAL_HEADLINE_SCALE), round(base * NORMAL_RATE_SCALE)
        font = QFont(normal)
        font.setPixelSize(headline)  # regular weight: "No measurable difference" fits one 720p line in it
        self._headline_px = headline
        self.headline.setFont(font)
        self._sizes = (float(rate), round(rate * 0.55))
        for label in self.rates.values():
            label.setFont(normal)
        details = QFont(normal)
        if screen_height:
            details.setPixelSize(max(round(pixel_size(normal)), math.ceil(screen_height / DETAILS_SHARE)))
        self.details.setFont(details)
        self._fit_headline()
        self.progress.setFixedHeight(max(6, rate // 4))
        self._show_rates()

    def message(self, text: str) -> None:
        """A sentence for the details line (a prompt is missing, the model is busy, what was exported…)."""
        self.details.setText(text)

    def running(self, status: str, progress: float) -> None:
        """A comparison is under way: ``status`` as the headline, ``progress`` 0…1 on the bar."""
        self.headline.setText(status)
        self._running = True
        self._fit_headline()
        self.progress.setVisible(True)
        self.progress.setValue(round(max(0.0, min(1.0, progress)) * self.progress.maximum()))

    def start(self) -> None:
        """A new comparison: the figures of the last one go."""
        self._values = dict.fromkeys(MODES)
        self._show_rates()

    def show_rate(self, mode: str, rate: float | None) -> None:
        """``mode``'s tokens/s as it runs (or its median)."""
        if mode in self._values:
            self._values[mode] = rate
            self._show_rates()

    def show_result(self, comparison: Comparison, details: list[str]) -> None:
        self.progress.setVisible(False)
        self.headline.setText(headline_text(comparison))
        self._running = False
        self._fit_headline()
        for mode in MODES:
            self._values[mode] = comparison.median(mode, "tokens_per_s")
        self._show_rates()
        figures = " · ".join(details[2:])  # the figures on one line
        if self._large:  # the room reads the verdict and the figures; what was compared is for the presenter
            self.details.setText("\n".join([details[0], figures]))
            self.details.setToolTip(details[1] if len(details) > 1 else "")
        else:
            self.details.setText("\n".join(details[:2] + [figures]))
            self.details.setToolTip("")

    def stopped(self, text: str) -> None:
        """The comparison ended without a result: say so in the headline's place."""
        self.progress.setVisible(False)
        self.headline.setText(text)
        self._running = False
        self._fit_headline()

    def longest_headline(self) -> str:
        """The widest headline this board may show in the UI's language (what the layout must have room for)."""
        metrics = QFontMetrics(self.headline.font())
        candidates = [translate("VerdictBoard", text).format(speedup=8.88) for text in HEADLINES.values()]
        return max(candidates, key=metrics.horizontalAdvance)

    def rate_text(self, mode: str) -> str:
        """What the mode's figure says, without markup (for tests and accessibility)."""
        return self.rates[mode].accessibleName()

    # --- internals -------------------------------------------------------------------------------------
    def _fit_headline(self) -> None:
        """The headline at its size; a run's status smaller where it would wrap ("Run 2 of 3 · EAGLE-3" broke
        into two huge lines mid-run on a 1024-pixel screen). The verdict keeps its size: a tenth of the screen."""
        font = QFont(self.headline.font())
        font.setPixelSize(self._headline_px)
        # The room the row leaves once the figures beside it have their current text (a figure that grows from
        # "–" to "123" narrows the headline without resizing the board, so the label's own width can be stale).
        frame = self.headline.width() - self.headline.contentsRect().width()
        room = self.width() - self._rates_width() - ROW_SPACING - frame
        text = self.headline.text()
        width = QFontMetrics(font).horizontalAdvance(text)
        if self._running and text and room > 0 and width > room:
            font.setPixelSize(max(1, math.floor(self._headline_px * room / width * 0.98)))
        if font != self.headline.font():
            self.headline.setFont(font)

    def _rates_width(self) -> int:
        return max(label.sizeHint().width() for label in self.rates.values())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_headline()

    def _show_rates(self) -> None:
        big, small = self._sizes
        for mode, label in self.rates.items():
            name = self.tr("Baseline") if mode == "baseline" else "EAGLE-3"
            value = self._values[mode]
            figure = "–" if value is None else f"{value:.0f}" if value >= 100 else f"{value:.1f}"
            unit = self.tr("tokens/s")
            label.setAccessibleName(f"{name} {figure} {unit}")
            label.setText(f'<span style="font-size:{small}px">{name}</span> '
                          f'<span style="font-size:{big:.0f}px; font-weight:600">{figure}</span> '
                          f'<span style="font-size:{small}px">{unit}</span>')
        self._fit_headline()


# The headline per verdict: what the noise rule backs (the figures are beside it, the details below).
HEADLINES = {"faster": QT_TRANSLATE_NOOP("VerdictBoard", "{speedup:.1f}× faster"),
             "slower": QT_TRANSLATE_NOOP("VerdictBoard", "{speedup:.2f}× — slower"),
             "too-few-runs": QT_TRANSLATE_NOOP("VerdictBoard", "Too few runs to tell"),
             "no-difference": QT_TRANSLATE_NOOP("VerdictBoard", "No measurable difference")}


def headline_text(comparison: Comparison) -> str:
    """The verdict in a few words, e.g. "2.3× faster"."""
    return translate("VerdictBoard", HEADLINES[comparison.verdict]).format(speedup=comparison.speedup)
