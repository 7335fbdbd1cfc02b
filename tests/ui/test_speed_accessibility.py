"""Screen readers: every control of the side panel, the model bar, the auto-tune and the shortcuts dialogs has a
name as an assistive tool reads it (QAccessible), and the K slider says what K is and what it is set to."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QComboBox, QWidget

from eagle_chat.ui.shell.shortcuts_dialog import open_shortcuts_dialog


def accessible(widget: QWidget, text=QAccessible.Text.Name) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    assert interface is not None and interface.isValid(), widget
    return interface.text(text)


def focusable(root: QWidget) -> list[QWidget]:
    """What Tab (or a click) can give focus to under ``root``; a widget whose focus goes to another (a spin
    box's line edit) is that other one."""
    return [w for w in (root, *root.findChildren(QWidget))
            if w.focusPolicy() != Qt.FocusPolicy.NoFocus and w.focusProxy() is None]


def labels(widget: QWidget) -> list[str]:
    """The texts of the labels a screen reader relates to ``widget`` (a QLabel buddy, a form row's label)."""
    relations = QAccessible.queryAccessibleInterface(widget).relations(QAccessible.Relation.Label)
    return [label.text(QAccessible.Text.Name) for label, _ in relations]


def unnamed(root: QWidget) -> list[str]:
    """Controls a screen reader could not name. On Linux (AT-SPI) a combo box's name is its current item and
    what it is comes from its label relation, so a combo needs both."""
    return [f"{type(w).__name__} {w.objectName()!r}" for w in focusable(root)
            if not accessible(w).strip() or (isinstance(w, QComboBox) and not any(t.strip() for t in labels(w)))]


def test_every_focusable_control_has_an_accessible_name(open_window):
    window = open_window()
    tune = window.open_tune()
    shortcuts = open_shortcuts_dialog(window)
    roots = {"side panel": window.side, "model bar": window.model_bar, "auto-tune": tune, "shortcuts": shortcuts}
    counted = {name: len(focusable(root)) for name, root in roots.items()}
    # Enough controls are looked at for the check to mean something (charts, combos, spins, buttons…).
    assert counted["side panel"] >= 10 and counted["model bar"] >= 4 and counted["auto-tune"] >= 3, counted
    assert {name: unnamed(root) for name, root in roots.items()} == {name: [] for name in roots}
    for chart in (window.side.chart, window.side.acceptance, tune.chart_view):
        assert accessible(chart, QAccessible.Text.Description), chart.objectName()
    assert labels(window.model_bar.device_combo) == ["Device"]
    assert labels(window.options.precision) == ["Precision"]


def test_the_k_slider_explains_k_and_reports_its_value(open_window):
    window = open_window()
    slider = window.model_bar.k_slider
    assert accessible(slider) == "Draft tokens (K)"
    description = accessible(slider, QAccessible.Text.Description)
    assert "K:" in description and "draft" in description and "verify" in description
    value = QAccessible.queryAccessibleInterface(slider).valueInterface()
    assert value is not None, "QSlider exposes its value to assistive tools"
    assert (value.minimumValue(), value.maximumValue()) == (slider.minimum(), slider.maximum())
    for k in (slider.minimum(), 6, slider.maximum()):
        slider.setValue(k)  # QAbstractSlider::setValue also sends a QAccessibleValueChangeEvent
        assert value.currentValue() == k == int(window.model_bar.k_label.text())
