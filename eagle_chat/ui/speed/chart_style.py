"""Charts that follow the theme: background, title, axes, grid and legend from the palette, series colours
from :mod:`eagle_chat.ui.widgets.theme`.

QChart does not follow the widget palette by itself (its built-in themes are fixed colour sets), so each
chart view calls :func:`style_chart` when it is made and again on every palette change, then sets its
series pens: ``setTheme`` resets series colours and fonts, so the order matters.
"""

from __future__ import annotations

from PySide6.QtCharts import QChart
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QPalette, QPen

from eagle_chat.ui.widgets import theme

# Which field of theme.Colours draws each mode of the speed chart.
MODE_FIELDS = {"speculative": "speculative", "baseline": "baseline",
               "api-speculative": "api_speculative", "api-baseline": "api_baseline"}
PALETTE_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)


def style_chart(chart: QChart, palette: QPalette) -> theme.Colours:
    """Light or dark chart to match ``palette``: background = the palette's Base (as text views), text and
    axes in its Text colour, a faint grid. Returns the theme colours for the series."""
    colours = theme.colours(palette)
    chart.setTheme(QChart.ChartTheme.ChartThemeDark if colours.dark else QChart.ChartTheme.ChartThemeLight)
    chart.setBackgroundBrush(palette.brush(QPalette.ColorRole.Base))
    chart.setBackgroundPen(QPen(Qt.PenStyle.NoPen))
    text = palette.color(QPalette.ColorRole.Text)
    line, grid = QColor(colours.muted), QColor(text)
    grid.setAlphaF(0.16)
    chart.setTitleBrush(text)
    chart.legend().setLabelColor(text)
    for axis in chart.axes():
        style_axis(axis, text, line, grid)
    return colours


def style_axis(axis, text: QColor, line: QColor, grid: QColor) -> None:
    axis.setLabelsColor(text)
    axis.setTitleBrush(text)
    axis.setLinePenColor(line)
    axis.setGridLineColor(grid)
    axis.setMinorGridLineColor(grid)


def series_colour(mode: str, colours: theme.Colours) -> QColor:
    """The colour of a speed-chart line for ``mode`` (speculative, baseline, api-…); others get other_series."""
    return QColor(getattr(colours, MODE_FIELDS.get(mode, "other_series")))


def series_pen(mode: str, colours: theme.Colours, width: float = 2.0) -> QPen:
    """Baseline lines are dashed as well as grey, so the two modes differ without colour too."""
    pen = QPen(series_colour(mode, colours))
    pen.setWidthF(width)
    if mode.endswith("baseline"):
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen


def faded_pen(mode: str, colours: theme.Colours, background: QColor, width: float, strength: float) -> QPen:
    """A line in ``mode``'s colour mixed into ``background`` (``strength`` 0…1 of the colour): opaque, so
    its segments do not darken where they meet as a translucent pen's do."""
    colour = series_colour(mode, colours)
    colour.setAlphaF(strength)
    pen = series_pen(mode, colours, width)
    pen.setColor(theme.composite(colour, background))
    return pen
