"""eagle_chat/core must never import Qt (DESIGN.md): the engine runs headless, in bench and in tests."""

import ast
from pathlib import Path

CORE = Path(__file__).parents[2] / "eagle_chat" / "core"
QT_PACKAGES = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "qasync", "eagle_chat.ui")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_never_imports_qt():
    files = sorted(CORE.rglob("*.py"))
    assert len(files) >= 5
    offenders = {
        str(f.relative_to(CORE)): sorted(m for m in imported_modules(f) if m.startswith(QT_PACKAGES))
        for f in files
    }
    offenders = {k: v for k, v in offenders.items() if v}
    assert offenders == {}
