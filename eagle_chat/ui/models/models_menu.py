"""The Models menu: the registered pairs, the bundled tiny pair, the speed-demo pair (built on demand),
Get models… and Choose folders…. What a choice *is* lives in :mod:`eagle_chat.core.models.choice`."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from eagle_chat import paths
from eagle_chat.core.models import speed_demo
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.core.models.registry import ModelPair, ModelRegistry


class ModelsMenu(QMenu):
    sig_chosen = Signal(ModelChoice)
    """The user picked a pair to load: a ModelChoice."""
    sig_get_models = Signal()
    """Open the Get models dialog."""
    sig_error = Signal(str)
    """Something the user asked for failed; a sentence for them."""
    sig_unload = Signal()
    """Unload the model: its engine host ends and its memory goes back to the system."""
    sig_speed_demo_built = Signal(str)
    """(Internal, from the build thread) the speed-demo pair was built ("") or not (the error's text)."""

    def __init__(self, registry: ModelRegistry, current: Callable[[], ModelChoice], parent: QWidget | None = None):
        super().__init__(parent)
        self.setTitle(self.tr("&Models"))
        self.registry = registry
        self._current = current
        self._build_thread: threading.Thread | None = None
        self._locked: str | None = None
        self._reported_notice = registry.notice  # the registry's notice at start is the window's to show
        self.sig_speed_demo_built.connect(self._on_speed_demo_built, Qt.ConnectionType.QueuedConnection)
        self.aboutToShow.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Registered pairs, the bundled pair, the speed-demo pair, and the ways to get more."""
        self.clear()
        current = self._current().target_dir
        pairs = self.registry.pairs()
        if self.registry.notice and self.registry.notice is not self._reported_notice:
            self._reported_notice = self.registry.notice  # damaged since start (e.g. edited by hand)
            self.sig_error.emit(self.registry.notice)
        demo_target = None
        for pair in pairs:
            if pair.name == speed_demo.NAME:  # registered once built; its own entry below stands for it
                demo_target = pair.target_path
                continue
            action = self.addAction(f"{pair.name}  ({pair.target_path.name} + {pair.draft_path.name})")
            action.setCheckable(True)
            action.setChecked(pair.target_path == current)
            action.triggered.connect(lambda _=False, name=pair.name: self.choose_registered(name))
        bundled = self.addAction(self.tr("Bundled tiny pair (toy quality)"))
        bundled.setObjectName("bundledPairAction")
        bundled.triggered.connect(self.choose_bundled)
        demo = self.addAction(self.tr("Speed-demo pair (toy quality, ~50M weights: shows the speed-up on a CPU)"))
        demo.setObjectName("speedDemoAction")
        demo.triggered.connect(self.choose_speed_demo)
        for action, target in ((bundled, _bundled_target()), (demo, demo_target)):
            action.setCheckable(True)
            action.setChecked(target is not None and _same_folder(target, current))
        self.addSeparator()
        self.addAction(self.tr("Get models…"), lambda: self.sig_get_models.emit())  # a Signal is not callable
        self.addAction(self.tr("Choose model folders…"), self.choose_folders)
        self.addSeparator()
        unload = self.addAction(self.tr("Unload the model (frees its memory)"), lambda: self.sig_unload.emit())
        unload.setObjectName("unloadModelAction")
        if self._locked:
            self.set_locked(self._locked)

    def set_locked(self, reason: str | None) -> None:
        """While a reply or a load runs, choosing a pair (which loads it) is off; the menu says why."""
        self._locked = reason
        self.menuAction().setEnabled(reason is None)
        self.setToolTip(reason or "")
        self.menuAction().setStatusTip(reason or "")
        for action in self.actions():
            action.setEnabled(reason is None)

    def is_building(self) -> bool:
        """The speed-demo pair is being built (closing waits for it)."""
        return self._build_thread is not None and self._build_thread.is_alive()

    def choose_folders(self) -> None:
        """Ask for a target folder, then its draft folder (Cancel: none)."""
        target = QFileDialog.getExistingDirectory(self.parentWidget(), self.tr("Choose the model folder (OpenVINO IR)"),
                                                  paths.start_folder())
        if not target:
            return
        draft = QFileDialog.getExistingDirectory(
            self.parentWidget(), self.tr("Choose its EAGLE-3 draft folder (Cancel: none)"), str(Path(target).parent)
        )
        self.sig_chosen.emit(ModelChoice(Path(target), Path(draft) if draft else None))

    def choose_registered(self, name: str) -> None:
        self.sig_chosen.emit(ModelChoice.for_pair(self.registry.get(name)))

    def choose_bundled(self) -> None:
        try:
            self.sig_chosen.emit(ModelChoice(paths.tiny_target_dir(), paths.tiny_draft_dir(), bundled=True))
        except FileNotFoundError as error:
            self.sig_error.emit(str(error))

    def choose_speed_demo(self) -> None:
        """Load the speed-demo pair, building and registering it first if needed (a few seconds, on a
        helper thread so the window stays responsive)."""
        if speed_demo.NAME in self.registry.names():
            self.choose_registered(speed_demo.NAME)
            return
        if self._build_thread is not None:
            return
        self._build_thread = threading.Thread(target=self._build_speed_demo, name="speed-demo-build")
        self._build_thread.start()

    def shutdown(self) -> None:
        """Wait for a speed-demo build in progress (seconds at most)."""
        if self._build_thread is not None:
            self._build_thread.join()
            self._build_thread = None

    def _build_speed_demo(self) -> None:
        try:
            target, draft = speed_demo.build_speed_demo(
                paths.tiny_target_dir(), paths.tiny_draft_dir(), paths.models_dir() / speed_demo.NAME
            )
            self.registry.add(
                ModelPair(name=speed_demo.NAME, target_dir=str(target), draft_dir=str(draft),
                          source=speed_demo.NAME, owned=True, start_k={"CPU": 3}),
                replace=True,
            )
            self.sig_speed_demo_built.emit("")
        except Exception as error:  # reported to the user (in a sentence made on the GUI thread); menu stays usable
            self.sig_speed_demo_built.emit(str(error) or type(error).__name__)

    @Slot(str)
    def _on_speed_demo_built(self, error: str) -> None:
        self.shutdown()
        if error:
            self.sig_error.emit(self.tr("Could not build the speed-demo pair: {error}").format(error=error))
        else:
            self.choose_registered(speed_demo.NAME)


def _bundled_target() -> Path | None:
    try:
        return paths.tiny_target_dir()
    except FileNotFoundError:
        return None


def _same_folder(a: Path, b: Path | None) -> bool:
    return b is not None and Path(a).resolve() == Path(b).resolve()
