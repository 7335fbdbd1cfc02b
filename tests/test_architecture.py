"""The house rules, checked: the import-linter contracts in pyproject.toml, module sizes, and a Qt-Core-only runtime.

import-linter builds the whole import graph (indirect imports and ``from pkg import module`` included), so
``core`` importing Qt or ``ui`` anywhere, or a circle between the layers, fails here.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 400
MAX_MAIN_WINDOW_LINES = 300


def test_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout, result.stdout[-4000:]


def test_modules_stay_small():
    sizes = {p.relative_to(ROOT): len(p.read_text(encoding="utf-8").splitlines())
             for p in (ROOT / "eagle_chat").rglob("*.py")}
    too_long = {str(p): n for p, n in sizes.items() if n > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines: {too_long}"
    main_window = sizes[Path("eagle_chat/ui/shell/main_window.py")]
    assert main_window <= MAX_MAIN_WINDOW_LINES, f"ui/shell/main_window.py has {main_window} lines"


def test_the_wheel_lists_every_package():
    """pyproject's explicit package list is what a wheel (and the bundle's hooks) carry: a package missing
    from it works in the editable checkout and fails with ModuleNotFoundError in a real install."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "eagle_chat").rglob("__init__.py")}
    assert found <= listed, f"packages missing from [tool.setuptools] packages: {sorted(found - listed)}"


def test_the_ui_runtime_is_qtcore_only():
    """ui/runtime (controller, queue, worker, engine link…) talks to the engine with signals and timers: no
    widget, no painting, so it runs and is tested without a window (import-linter cannot forbid one PySide6
    module and allow another, so the imports are read here)."""
    import ast

    found = {}
    for path in (ROOT / "eagle_chat" / "ui" / "runtime").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            bad = [n for n in names if n.startswith(("PySide6.QtWidgets", "PySide6.QtGui", "PySide6.QtCharts"))]
            if bad:
                found.setdefault(path.name, []).extend(bad)
    assert not found, f"ui/runtime imports widgets or painting: {found}"
