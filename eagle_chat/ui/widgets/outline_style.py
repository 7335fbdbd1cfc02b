"""OutlinedIndicators: the platform's style, with check boxes and radio buttons outlined on dark palettes.

Fusion (Linux, and any style without a dark mode of its own) draws an unchecked box's border darker than the
window: on a dark palette that is a dark square on near-black, nearly invisible (the walk's finding; sampled
1.1:1 against the panel). Here the indicator keeps the style's drawing, and on a dark palette gets a ring in
the faint text colour over it (≥ 3:1, WCAG's figure for controls). Light palettes are drawn as the style does.
Installed once by the app (eagle_chat.app) before the theme is applied.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleFactory

from eagle_chat.ui.widgets import theme

INDICATORS = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorRadioButton,
              QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck)


class OutlinedIndicators(QProxyStyle):
    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802 - Qt override
        super().drawPrimitive(element, option, painter, widget)
        if element not in INDICATORS or not theme.is_dark(option.palette):
            return
        painter.save()
        painter.setRenderHint(painter.RenderHint.Antialiasing, True)
        pen = QPen(QColor(theme.DARK.faint))
        pen.setWidthF(1.0)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(rect)
        else:
            painter.drawRoundedRect(rect, 2, 2)
        painter.restore()


def install(app) -> None:
    """Wrap the application's style (once); the same style by name, so the platform's look stays."""
    if isinstance(app.style(), OutlinedIndicators):
        return
    base = QStyleFactory.create(app.style().name())
    if base is not None:
        app.setStyle(OutlinedIndicators(base))
