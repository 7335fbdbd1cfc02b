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


def _ui_trees():
    import ast

    for path in sorted((ROOT / "eagle_chat" / "ui").rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


# The one place that matches the engine's request ids (the worker's messages carry an int) to a reply: the queue.
REQUEST_ID_MATCHERS = {("eagle_chat/ui/runtime/request_queue.py", "in_flight")}


def test_no_listener_compares_request_ids():
    """Each request has a handle with its own signals (ui/runtime/reply_handle.py): a listener holds the handle
    instead of filtering a broadcast by comparing ids. Only the queue matches the worker's ids, in one place."""
    import ast

    def names(node):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                yield sub.id
            elif isinstance(sub, ast.Attribute):
                yield sub.attr

    found = set()
    for path, tree in _ui_trees():
        functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(n.endswith("request_id") for n in names(node)):
                inside = [f for f in functions if f.lineno <= node.lineno <= (f.end_lineno or f.lineno)
                          and not isinstance(f, ast.Lambda)]
                found.add((path, inside[-1].name if inside else "<module>"))
    assert found == REQUEST_ID_MATCHERS, f"request ids compared outside the queue: {sorted(found - REQUEST_ID_MATCHERS)}"


def test_no_ui_class_is_a_pile_of_mixins():
    """The controller is composition (its queue, conversation actions and branches are objects it owns), and no
    class in ui/ has three or more bases; nor does a class declare, under TYPE_CHECKING, attributes another
    class provides (a mixin pretending to be the class it is mixed into)."""
    import ast

    wide, pretending = [], []
    for path, tree in _ui_trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                if len(node.bases) >= 3:
                    wide.append(f"{path}: {node.name}")
                for item in node.body:
                    if isinstance(item, ast.If) and "TYPE_CHECKING" in ast.unparse(item.test):
                        pretending.append(f"{path}: {node.name}")
    assert not wide, f"classes with three or more bases: {wide}"
    assert not pretending, f"classes declaring another's attributes under TYPE_CHECKING: {pretending}"
