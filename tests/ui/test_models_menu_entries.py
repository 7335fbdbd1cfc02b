"""The Models menu lists each pair once and ticks the one loaded — the bundled pair and the speed-demo pair
too — and the API serves a pair EagleChat made under its name, not its folder's ("target")."""

from __future__ import annotations

from PySide6.QtGui import QAction

from eagle_chat import paths
from eagle_chat.core.generation.engine import PipelineSpec
from eagle_chat.core.models import speed_demo
from eagle_chat.core.models.choice import ModelChoice
from eagle_chat.core.models.registry import ModelPair, ModelRegistry
from eagle_chat.ui.server.bridge import served_name


def _register_speed_demo(registry: ModelRegistry, tiny_pair) -> ModelPair:
    """The speed-demo pair as the menu registers it once built (its folders: models/speed-demo/target, draft)."""
    import shutil

    folder = paths.models_dir() / speed_demo.NAME
    shutil.copytree(tiny_pair[0], folder / "target")
    shutil.copytree(tiny_pair[1], folder / "draft")
    pair = ModelPair(name=speed_demo.NAME, target_dir=str(folder / "target"), draft_dir=str(folder / "draft"),
                     source=speed_demo.NAME, owned=True)
    registry.add(pair, replace=True)
    return pair


def _entries(menu) -> list[QAction]:
    menu.refresh()
    return [a for a in menu.actions() if not a.isSeparator()]


def test_the_speed_demo_pair_is_listed_once_and_ticked_when_loaded(qapp, tiny_pair):
    from eagle_chat.ui.models.models_menu import ModelsMenu

    registry = ModelRegistry()
    pair = _register_speed_demo(registry, tiny_pair)
    current = [ModelChoice(paths.tiny_target_dir(), paths.tiny_draft_dir(), bundled=True)]
    menu = ModelsMenu(registry, lambda: current[0])
    demo = [a for a in _entries(menu) if "speed-demo" in a.text().lower()]
    assert len(demo) == 1, [a.text() for a in demo]
    checked = [a.objectName() for a in _entries(menu) if a.isChecked()]
    assert checked == ["bundledPairAction"]
    current[0] = ModelChoice.for_pair(pair)
    assert [a.objectName() for a in _entries(menu) if a.isChecked()] == ["speedDemoAction"]


def test_a_pair_made_by_eaglechat_is_served_under_its_name(tiny_pair):
    folder = paths.models_dir() / speed_demo.NAME
    assert served_name(PipelineSpec(folder / "target", folder / "draft")) == "speed-demo"
    assert served_name(PipelineSpec(paths.models_dir() / "qwen3-1.7b" / "target", None)) == "qwen3-1.7b"
    assert served_name(PipelineSpec(tiny_pair[0], tiny_pair[1])) == "tiny-qwen3"  # the user's own folders
