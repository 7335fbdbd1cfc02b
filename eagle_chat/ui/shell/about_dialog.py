"""Help → About EagleChat: what is installed and running, where the app keeps its files, and the licenses.

What a bug report needs — EagleChat's version, Python, OpenVINO, OpenVINO GenAI, PySide6 and Qt, and the
devices OpenVINO found — is read from the running process (never typed in here), shown selectable, and put
on the clipboard whole by "Copy details". The log and data folders open in the file manager with a click.
Licenses come from the installed packages' own metadata (a frozen bundle may lack it: then the license
each project publishes, :data:`KNOWN_LICENSES`).
"""

from __future__ import annotations

import html
import platform
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from PySide6.QtCore import QUrl, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

import eagle_chat
from eagle_chat import paths
from eagle_chat.ui.words.i18n import translate

APP_LICENSE = "Apache-2.0"
LICENSES_HEIGHT = 220  # pixels of the licence table shown before it scrolls
# The main third-party packages a user runs (distribution name, what to call it) and the license each
# publishes, for when the package metadata is not there (a frozen bundle). Every other package EagleChat's
# own requirements pull in follows them (:func:`shipped_packages`), so nothing shipped goes unlisted.
THIRD_PARTY = (
    ("openvino", "OpenVINO"),
    ("openvino-genai", "OpenVINO GenAI"),
    ("openvino-tokenizers", "OpenVINO Tokenizers"),
    ("PySide6", "Qt for Python (PySide6)"),
    ("qasync", "qasync"),
    ("markdown-it-py", "markdown-it-py"),
    ("mdit-py-plugins", "mdit-py-plugins"),
    ("Pygments", "Pygments"),
    ("ziamath", "ziamath"),
    ("ziafont", "ziafont"),
    ("latex2mathml", "latex2mathml"),
    ("pypdfium2", "pypdfium2 (PDFium)"),
    ("numpy", "NumPy"),
    ("psutil", "psutil"),
    ("starlette", "Starlette"),
    ("uvicorn", "Uvicorn"),
    ("h11", "h11"),
    ("httpx", "HTTPX"),
    ("huggingface-hub", "huggingface_hub"),
    ("modelscope-hub", "modelscope-hub"),
    ("keyring", "keyring"),
    ("jsonschema", "jsonschema"),
    ("mcp", "MCP Python SDK"),
    ("platformdirs", "platformdirs"),
)
KNOWN_LICENSES = {
    "openvino": "Apache-2.0", "openvino-genai": "Apache-2.0", "openvino-tokenizers": "Apache-2.0",
    "PySide6": "LGPL-3.0-only OR GPL-2.0-only OR GPL-3.0-only", "qasync": "BSD-2-Clause",
    "markdown-it-py": "MIT", "mdit-py-plugins": "MIT", "Pygments": "BSD-2-Clause", "ziamath": "MIT",
    "ziafont": "MIT", "latex2mathml": "MIT", "pypdfium2": "BSD-3-Clause, Apache-2.0 (PDFium: BSD-3-Clause)",
    "numpy": "BSD-3-Clause", "psutil": "BSD-3-Clause", "starlette": "BSD-3-Clause", "uvicorn": "BSD-3-Clause",
    "h11": "MIT", "httpx": "BSD-3-Clause", "huggingface-hub": "Apache-2.0", "modelscope-hub": "Apache-2.0",
    "keyring": "MIT", "jsonschema": "MIT", "mcp": "MIT", "platformdirs": "MIT",
}
_CLASSIFIER_NAMES = {"Apache Software License": "Apache-2.0", "MIT License": "MIT", "BSD License": "BSD"}


@dataclass(frozen=True)
class AboutFacts:
    version: str
    components: list[tuple[str, str]]  # (name, version): Python, OpenVINO, GenAI, PySide6, Qt
    devices: list[str]  # "CPU (Intel(R) Core(TM) …)"
    log_dir: Path
    data_dir: Path
    licenses: list[tuple[str, str, str]]  # (name, version, license); EagleChat's first


def about_facts(devices) -> AboutFacts:
    """The facts of this process; ``devices``: the DeviceInfo list the window was made with."""
    from PySide6 import QtCore

    import openvino
    import openvino_genai
    import PySide6

    components = [("Python", platform.python_version()), ("OpenVINO", openvino.get_version()),
                  ("OpenVINO GenAI", openvino_genai.get_version()), ("PySide6", PySide6.__version__),
                  ("Qt", QtCore.qVersion())]
    licenses = [("EagleChat", eagle_chat.__version__, APP_LICENSE)]
    named = {_key(dist) for dist, _ in THIRD_PARTY}
    for dist, name in THIRD_PARTY + tuple((d, d) for d in shipped_packages() if _key(d) not in named):
        licenses.append((name, _version(dist), package_license(dist)))
    return AboutFacts(eagle_chat.__version__, components, [f"{d.id} ({d.full_name})" for d in devices],
                      paths.log_dir(), paths.data_dir(), licenses)


def shipped_packages(root: str = "eagle-chat") -> list[str]:
    """Every installed distribution ``root``'s requirements pull in, transitively, extras left out (sorted by
    name); empty where the metadata is not there (a frozen bundle: :data:`THIRD_PARTY` stands for them)."""
    found: dict[str, str] = {}
    todo = [root]
    while todo:
        try:
            requires = metadata.requires(todo.pop()) or []
        except metadata.PackageNotFoundError:
            continue
        for requirement in requires:
            if "extra ==" in requirement.partition(";")[2].replace("extra==", "extra =="):
                continue  # an optional extra's (the test tools, the model builders)
            name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
            if name is None or _key(name[0]) in found or not _version(name[0]):
                continue
            found[_key(name[0])] = metadata.metadata(name[0])["Name"]
            todo.append(name[0])
    return sorted(found.values(), key=str.lower)


def _key(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


def package_license(dist: str) -> str:
    """An installed package's license as its metadata states it (an SPDX expression where it gives one)."""
    try:
        meta = metadata.metadata(dist)
    except metadata.PackageNotFoundError:
        return KNOWN_LICENSES.get(dist, "?")
    if meta.get("License-Expression"):
        return meta["License-Expression"]
    stated = (meta.get("License") or "").strip()
    if stated and "\n" not in stated and len(stated) <= 80:  # a name, not the license's whole text
        return stated
    for classifier in meta.get_all("Classifier") or []:
        if classifier.startswith("License :: OSI Approved :: "):
            name = classifier.rsplit(" :: ", 1)[1]
            return KNOWN_LICENSES.get(dist) or _CLASSIFIER_NAMES.get(name, name)
    return KNOWN_LICENSES.get(dist, "?")


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return ""


class AboutDialog(QDialog):
    """The facts above, selectable; folders as links; Copy details; Close."""

    def __init__(self, window: QWidget, facts: AboutFacts):
        super().__init__(window)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(self.tr("About EagleChat"))
        self.setMinimumWidth(520)
        self.facts = facts
        layout = QVBoxLayout(self)
        name = f"<h2>EagleChat {html.escape(facts.version)}</h2>"
        heading = QLabel(name)  # i18n: ok (the name)
        heading.setObjectName("aboutHeading")
        layout.addWidget(heading)
        layout.addWidget(_label(self.tr("Chat with local models on Intel hardware, made fast by OpenVINO GenAI's "
                                        "EAGLE-3 speculative decoding. Everything stays on this computer."),
                                "aboutSummary"))
        form = QFormLayout()
        form.addRow(self.tr("Versions:"), _label("\n".join(f"{n} {v}" for n, v in facts.components), "aboutVersions"))
        form.addRow(self.tr("Devices found:"),
                    _label(", ".join(facts.devices) or self.tr("none (OpenVINO found no device)"), "aboutDevices"))
        form.addRow(self.tr("Log folder:"), _folder_label(facts.log_dir, "aboutLogFolder"))
        form.addRow(self.tr("Data folder:"), _folder_label(facts.data_dir, "aboutDataFolder"))
        layout.addLayout(form)
        licenses_heading = _label(self.tr("Licenses"), "aboutLicensesHeading")
        licenses_heading.setStyleSheet("font-weight: bold")
        layout.addWidget(licenses_heading)
        rows = "".join(f"<tr><td>{html.escape(name)}</td><td>{html.escape(version)}</td>"
                       f"<td>&nbsp;{html.escape(license_)}</td></tr>" for name, version, license_ in facts.licenses)
        licenses = _label(f"<table>{rows}</table>", "aboutLicenses")
        licenses.setTextFormat(Qt.TextFormat.RichText)
        scroll = QScrollArea()  # every shipped package: dozens of rows, which must not grow past a 720p screen
        scroll.setObjectName("aboutLicensesScroll")
        scroll.setWidget(licenses)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setMinimumHeight(min(licenses.sizeHint().height(), LICENSES_HEIGHT))
        scroll.setMaximumHeight(licenses.sizeHint().height() + 2)
        layout.addWidget(scroll)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton(self.tr("Copy details"))
        self.copy_button.setObjectName("aboutCopyButton")
        self.copy_button.clicked.connect(self.copy_details)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def details(self) -> str:
        """The facts as plain text, for a bug report (English labels: whoever reads the report)."""
        f = self.facts
        lines = [f"EagleChat {f.version}", *(f"{n} {v}" for n, v in f.components),
                 "Devices: " + (", ".join(f.devices) or "none"), f"Log folder: {f.log_dir}",
                 f"Data folder: {f.data_dir}", f"{platform.system()} {platform.release()} {platform.machine()}"]
        return "\n".join(lines)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details())
        self.copy_button.setText(self.tr("Copied"))


def open_about_dialog(window: QWidget) -> AboutDialog:
    """Show the window's one About dialog (made on first use)."""
    dialog = window.findChild(AboutDialog, "aboutDialog")
    if dialog is None:
        dialog = AboutDialog(window, about_facts(getattr(window, "devices", [])))
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog


def _label(text: str, name: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _folder_label(folder: Path, name: str) -> QLabel:
    """The folder as a link that opens it in the file manager; its text selectable to copy."""
    label = QLabel(f'<a href="{QUrl.fromLocalFile(str(folder)).toString()}">{html.escape(str(folder))}</a>')
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setOpenExternalLinks(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
    label.setToolTip(translate("AboutDialog", "Open in the file manager"))
    return label
