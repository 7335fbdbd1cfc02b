"""Help → About EagleChat, triggered from the real window's menu: versions, devices, folders, licenses."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QPoint, Qt, QUrl, Slot
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea

from eagle_chat import paths

ROOT = Path(__file__).resolve().parents[2]


class UrlCatcher(QObject):
    """Stands in for the file manager: records the file URLs the app asks the desktop to open."""

    def __init__(self):
        super().__init__()
        self.opened: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url)


def about_dialog(window):
    action = window.findChild(QAction, "actionAbout")
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.menu() and action in a.menu().actions())
    assert help_menu.title() == "&Help" and action.isEnabled()
    action.trigger()
    return next(w for w in QApplication.topLevelWidgets() if w.objectName() == "aboutDialog" and w.isVisible())


def test_about_shows_versions_devices_folders_and_licenses(qtbot, open_window):
    import openvino
    import openvino_genai
    import PySide6
    from PySide6 import QtCore

    import eagle_chat

    window = open_window()
    dialog = about_dialog(window)
    text = {label.objectName(): label.text() for label in dialog.findChildren(QLabel) if label.objectName()}
    assert f"EagleChat {eagle_chat.__version__}" in text["aboutHeading"]
    for part in (f"OpenVINO {openvino.get_version()}", f"OpenVINO GenAI {openvino_genai.get_version()}",
                 f"PySide6 {PySide6.__version__}", f"Qt {QtCore.qVersion()}"):
        assert part in text["aboutVersions"], (part, text["aboutVersions"])
    assert window.devices and all(f"{d.id} ({d.full_name})" in text["aboutDevices"] for d in window.devices)
    assert str(paths.log_dir()) in text["aboutLogFolder"] and str(paths.data_dir()) in text["aboutDataFolder"]
    licenses = text["aboutLicenses"]
    assert "<td>EagleChat</td>" in licenses and licenses.index("Apache-2.0") < licenses.index("OpenVINO")
    assert "LGPL-3.0" in licenses and "OpenVINO GenAI" in licenses  # Qt's, and the engine's (Apache-2.0)

    # The folders open in the file manager with a click (a stand-in for it answers file: URLs here).
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    try:
        label = dialog.findChild(QLabel, "aboutLogFolder")
        qtbot.mouseClick(label, Qt.MouseButton.LeftButton, pos=QPoint(4, label.height() // 2))
        qtbot.waitUntil(lambda: bool(catcher.opened), timeout=2_000)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert catcher.opened[0].toLocalFile() == str(paths.log_dir())

    # Copy details: the whole report, for a bug report.
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith(f"EagleChat {eagle_chat.__version__}\n") and f"OpenVINO {openvino.get_version()}" in copied
    assert f"Data folder: {paths.data_dir()}" in copied and dialog.copy_button.text() == "Copied"
    assert about_dialog(window) is dialog  # one dialog, shown again


def test_the_licence_table_lists_every_shipped_package_and_the_dialog_fits_a_720p_screen(qtbot, open_window):
    import re
    import tomllib

    from eagle_chat.ui.shell.about_dialog import THIRD_PARTY, shipped_packages

    window = open_window()
    dialog = about_dialog(window)
    licenses = dialog.findChild(QLabel, "aboutLicenses").text()
    names = re.findall(r"<tr><td>([^<]+)</td>", licenses)
    # What pyproject.toml makes a user install, each named (the walk issue found ziamath, mcp, PDFium, keyring,
    # modelscope-hub and numpy missing), and what those pull in too.
    wanted = [re.match(r"[A-Za-z0-9._-]+", d)[0] for d in
              tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]]
    def key(name):
        return name.lower().replace("_", "-")

    shown = {key(d) for d, title in THIRD_PARTY if title in names} | {key(n) for n in names}
    missing = [d for d in wanted if key(d) not in shown]
    assert not missing, missing
    for name in ("ziamath", "ziafont", "MCP Python SDK", "pypdfium2 (PDFium)", "keyring", "modelscope-hub", "NumPy"):
        assert name in names, name
    assert len(names) == len(set(names)) and {key(d) for d in shipped_packages()} <= shown  # each once, all
    # Dozens of rows scroll inside the dialog, which stays within a 1280×720 screen.
    scroll = dialog.findChild(QScrollArea, "aboutLicensesScroll")
    assert dialog.sizeHint().height() <= 720 - 60, dialog.sizeHint()
    assert scroll.verticalScrollBar().maximum() > 0 and scroll.viewport().height() >= 150
