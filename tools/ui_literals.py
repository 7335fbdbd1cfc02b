"""UI strings, read from the source: texts shown unwrapped, and the texts wrapped for translation.

``unwrapped(paths)`` finds string literals (f-strings too) that reach a user-visible Qt call — setText,
setToolTip, addAction, QLabel(...), QMessageBox.warning(...), addItem(...) … — without going through
``tr()`` / ``translate()`` / ``QT_TRANSLATE_NOOP``. Pure punctuation, numbers and whitespace are fine; so is
a line marked ``# i18n: ok`` (model names, URLs, device names).

``wrapped(paths)`` lists what lupdate should find: every ``tr`` / ``translate`` / ``QT_TRANSLATE_NOOP`` call
with literal arguments, with its context (for ``self.tr`` the enclosing class, as lupdate takes it) and
whether it passes a count that is not a literal number (pyside6-lupdate 6.11 marks
``translate(ctx, "%n x(s)", "", n)`` as numerus only when ``n`` is a number literal, and drops a
``translate`` call whose arguments contain a call; see tools/translations.py).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OK_MARK = "# i18n: ok"

WRAPPERS = {"tr", "translate", "QT_TRANSLATE_NOOP", "QT_TRANSLATE_NOOP3", "QT_TR_NOOP", "qsTr"}
TEXT_SETTERS = {
    "setText", "setToolTip", "setPlaceholderText", "setWindowTitle", "setStatusTip", "setWhatsThis",
    "setAccessibleName", "setAccessibleDescription", "setTitle", "showMessage", "setHorizontalHeaderLabels",
    "setVerticalHeaderLabels", "setHeaderLabels", "setHeaderLabel", "setInformativeText", "setDetailedText",
    "setLabelText", "setSpecialValueText", "setSuffix", "setPrefix", "setWindowIconText", "addItems",
}
# method -> index of its text argument: (when the argument before it is not an icon, when it is)
TEXT_ARGUMENT = {
    "addAction": (0, 1), "addMenu": (0, 1), "addItem": (0, 1), "addTab": (1, 2), "insertItem": (1, 2),
    "insertItems": (1, 1), "setTabText": (1, 1), "setTabToolTip": (1, 1), "setItemText": (1, 1),
    "insertTab": (2, 3), "addButton": (0, 0),
}
WIDGETS = {"QLabel", "QPushButton", "QCheckBox", "QRadioButton", "QGroupBox", "QAction", "QToolButton",
           "QMenu", "QCommandLinkButton", "QMessageBox", "QWidgetAction"}
MESSAGE_BOX_STATICS = {"information", "warning", "critical", "question", "about"}
# Calls whose string arguments are never shown as text: resources, keys, lookups, conversions.
NOT_TEXT_CALLS = {
    "QIcon", "QPixmap", "QKeySequence", "QColor", "QUrl", "QFont", "QSize", "Path", "getattr", "hasattr",
    "isinstance", "len", "int", "float", "round", "min", "max", "sorted", "get", "property", "value",
    "standardIcon", "fromTheme", "icon", "pixmap", "startswith", "endswith", "split", "data", "objectName",
    "findChild", "findChildren", "setObjectName", "shortcut",
}
_NOTHING_TO_TRANSLATE = re.compile(r"[\W\d_]*")
_MARKUP = re.compile(r"<[^>]*>|&\w+;")  # "<b>{title}</b>", "&nbsp;": markup is not text


def _has_text(text: str) -> bool:
    return not _NOTHING_TO_TRANSLATE.fullmatch(_MARKUP.sub("", text))


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    call: str
    text: str

    def __str__(self) -> str:
        try:
            shown = self.path.relative_to(ROOT)
        except ValueError:
            shown = self.path
        text = self.text if len(self.text) <= 64 else self.text[:60] + "…"
        return f"{shown}:{self.line}: {self.call}({text}) is not wrapped in tr()/translate()"


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_wrapper(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) in WRAPPERS


def _iconish(node: ast.expr) -> bool:
    """An argument that is an icon rather than a text (QIcon(...), self.icon, style().standardIcon(...))."""
    text = ast.unparse(node)
    return "icon" in text.lower() or "pixmap" in text.lower()


def _visible_args(call: ast.Call) -> list[ast.expr] | None:
    """The arguments of ``call`` that are shown to the user, or None if it is not a user-visible Qt call."""
    name = _name(call.func)
    keywords = [k.value for k in call.keywords if k.arg in ("text", "title", "toolTip", "label", "windowTitle")]
    if name in TEXT_SETTERS:
        return list(call.args) + keywords
    if name in TEXT_ARGUMENT:
        plain, after_icon = TEXT_ARGUMENT[name]
        index = plain
        if plain != after_icon and len(call.args) > plain and _iconish(call.args[plain]):
            index = after_icon
        return call.args[index:index + 1] + keywords
    if name in WIDGETS:
        return list(call.args) + keywords
    if (name in MESSAGE_BOX_STATICS and isinstance(call.func, ast.Attribute)
            and _name(call.func.value) == "QMessageBox"):
        return call.args[1:3] + keywords
    return None


def _literals(node: ast.expr):
    """String literals in ``node`` that end up shown without a translation: through +, f-strings,
    conditionals, lists, ``"…".format(…)`` and the arguments of other calls (a helper that builds the text),
    but not inside a wrapper, nor in calls that take resources or keys (QIcon(":/…"), settings.get("…"))."""
    if _is_wrapper(node):
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if _has_text(node.value):
            yield node, repr(node.value)
    elif isinstance(node, ast.JoinedStr):
        constant = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        if _has_text(constant):
            yield node, ast.unparse(node)
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                yield from _literals(value.value)
    elif isinstance(node, ast.BinOp):
        yield from _literals(node.left)
        yield from _literals(node.right)
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _literals(value)
    elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        for element in node.elts:
            yield from _literals(element)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        yield from _literals(node.func.value)  # "text {x}".format(...) unwrapped; tr("…").format is fine
        for arg in list(node.args) + [k.value for k in node.keywords]:
            yield from _literals(arg)
    elif isinstance(node, ast.Call) and _name(node.func) not in NOT_TEXT_CALLS:
        if isinstance(node.func, ast.Attribute):
            yield from _literals(node.func.value)  # ", ".join([...]) — the separator is checked too
        for arg in list(node.args) + [k.value for k in node.keywords]:
            yield from _literals(arg)


def _ok_lines(source: str) -> set[int]:
    return {number for number, line in enumerate(source.splitlines(), start=1) if OK_MARK in line}


def unwrapped_in(source: str, path: Path = Path("<source>")) -> list[Finding]:
    tree = ast.parse(source, filename=str(path))
    ok = _ok_lines(source)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        args = _visible_args(node)
        if not args:
            continue
        for arg in args:
            for literal, text in _literals(arg):
                span = set(range(node.lineno, (literal.end_lineno or literal.lineno) + 1))
                if not span & ok:
                    found.append(Finding(path, literal.lineno, _name(node.func) or "?", text))
    return sorted(set(found), key=lambda f: (str(f.path), f.line, f.text))


def python_files(paths: list[Path]) -> list[Path]:
    return sorted({f for p in paths for f in ([p] if p.is_file() else p.rglob("*.py"))})


def unwrapped(paths: list[Path]) -> list[Finding]:
    """Every unwrapped user-visible literal in the Python files under ``paths``."""
    found = []
    for path in python_files(paths):
        found += unwrapped_in(path.read_text(encoding="utf-8"), path)
    return found


@dataclass(frozen=True)
class Wrapped:
    path: Path
    line: int
    context: str
    source: str
    disambiguation: str
    counted: bool  # passes a count
    count_is_literal: bool
    is_tr: bool

    @property
    def unseen_plural(self) -> bool:
        """A plural pyside6-lupdate will not mark numerus: translate(...) with a count that is not a number."""
        return self.counted and not self.count_is_literal and not self.is_tr


def _str(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def wrapped_in(source: str, path: Path = Path("<source>")) -> list[Wrapped]:
    tree = ast.parse(source, filename=str(path))
    found: list[Wrapped] = []

    def visit(node: ast.AST, cls: str) -> None:
        for child in ast.iter_child_nodes(node):
            visit(child, child.name if isinstance(child, ast.ClassDef) else cls)
        if not isinstance(node, ast.Call):
            return
        name = _name(node.func)
        args = list(node.args)
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if name in ("translate", "QT_TRANSLATE_NOOP", "QT_TRANSLATE_NOOP3"):
            context, text = (_str(args[0]) if args else None), (_str(args[1]) if len(args) > 1 else None)
            rest = args[2:]
        elif name in ("tr", "QT_TR_NOOP") and cls:
            context, text, rest = cls, (_str(args[0]) if args else None), args[1:]
        else:
            return
        if context is None or text is None:
            return
        disambiguation = _str(rest[0]) if rest else _str(keywords.get("disambiguation"))
        count = rest[1] if len(rest) > 1 else keywords.get("n")
        found.append(Wrapped(path, node.lineno, context, text, disambiguation or "", count is not None,
                             isinstance(count, ast.Constant) and isinstance(count.value, int), name == "tr"))

    visit(tree, "")
    return found


def wrapped(paths: list[Path]) -> list[Wrapped]:
    found = []
    for path in python_files(paths):
        found += wrapped_in(path.read_text(encoding="utf-8"), path)
    return found


def counts(findings: list[Finding]) -> dict[str, int]:
    """Findings per file (relative to the repository), most first."""
    per: dict[str, int] = {}
    for finding in findings:
        try:
            key = str(finding.path.relative_to(ROOT))
        except ValueError:
            key = str(finding.path)
        per[key] = per.get(key, 0) + 1
    return dict(sorted(per.items(), key=lambda kv: (-kv[1], kv[0])))
