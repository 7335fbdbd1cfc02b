"""Where EagleChat builds its user errors, found by reading the source (no imports, no Qt).

Every error a user can cause derives from ``eagle_chat.core.errors.UserError`` and is raised as
``SomeError("template with {field}", field=value)``: the template is a plain string literal, so the UI can
look it up in a translation (``eagle_chat.ui.words.core_text``) and ``tools/translations.py messages`` can collect
it for lupdate. This module finds the subclasses (anywhere in ``eagle_chat``, through imports and aliases)
and every call that builds one, and tells which calls break the rule.
"""

from __future__ import annotations

import ast
import string
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "eagle_chat"
BASE = "eagle_chat.core.errors.UserError"
# Where core sentences come from: the UI builds its own sentences with tr(), so only these are scanned.
MESSAGE_SOURCES = (PACKAGE / "core", PACKAGE / "commands")


@dataclass(frozen=True)
class Call:
    """One ``SomeUserError(...)`` call: where, which class, its template (None when not a literal)."""

    path: Path
    line: int
    cls: str
    template: str | None
    keywords: frozenset[str]
    has_star_kwargs: bool
    problem: str | None

    def where(self) -> str:
        try:
            shown = self.path.relative_to(ROOT)
        except ValueError:
            shown = self.path
        return f"{shown}:{self.line}"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.resolve().relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> qualified name, for every import in the module (relative ones resolved)."""
    names: dict[str, str] = {}
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    names[top] = top
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                names[alias.asname or alias.name] = f"{origin}.{alias.name}"
    return names


def _qualify(node: ast.expr, local: dict[str, str]) -> str | None:
    """The qualified name an expression like ``Name`` or ``mod.sub.Name`` refers to, if it can be told."""
    chain = []
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    head = local.get(node.id)
    if head is None:
        return None
    return ".".join([head, *reversed(chain)])


@dataclass
class _Module:
    path: Path
    name: str
    tree: ast.Module
    local: dict[str, str]  # imports + the module's own top-level classes


def _parse(path: Path, root: Path) -> _Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = module_name(path, root)
    local = _imports(tree, name, path.name == "__init__.py")
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            local[node.name] = f"{name}.{node.name}"
    return _Module(path, name, tree, local)


def _modules(package: Path, root: Path) -> list[_Module]:
    return [_parse(p, root) for p in sorted(package.rglob("*.py"))]


def _aliases(modules: list[_Module]) -> dict[str, str]:
    """``pkg.Name`` -> where it comes from, for names a module imports (re-exports like ``from .errors
    import UserError`` in a package's __init__)."""
    return {f"{m.name}.{local}": target for m in modules for local, target in m.local.items()
            if target != f"{m.name}.{local}"}


def _resolve(name: str, aliases: dict[str, str]) -> str:
    seen = set()
    while name in aliases and name not in seen:
        seen.add(name)
        name = aliases[name]
    return name


def user_error_classes(package: Path = PACKAGE, root: Path = ROOT) -> set[str]:
    """Qualified names of UserError and every class that derives from it, directly or not, in ``package``."""
    bases: dict[str, set[str]] = {}
    modules = _modules(package, root)
    for module in modules:
        for node in module.tree.body:
            if isinstance(node, ast.ClassDef):
                found = {_qualify(b, module.local) for b in node.bases}
                bases[f"{module.name}.{node.name}"] = {b for b in found if b}
    aliases = _aliases(modules)
    bases = {cls: {_resolve(b, aliases) for b in its} for cls, its in bases.items()}
    known = {BASE}
    grown = True
    while grown:
        grown = False
        for cls, its_bases in bases.items():
            if cls not in known and its_bases & known:
                known.add(cls)
                grown = True
    return known


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _problem(call: ast.Call, template: str | None) -> str | None:
    if not call.args:
        return "no template: pass the sentence as the first argument"
    first = call.args[0]
    if isinstance(first, ast.JoinedStr):
        return 'f-string template: write "… {field} …" and pass field=value'
    if isinstance(first, ast.BinOp):
        return "template built with + or %: write one literal with {fields}"
    if template is None:
        return "template is not a string literal"
    if len(call.args) > 1:
        return "values passed by position: pass them by name (field=value)"
    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as error:
        return f"template is not a valid format string ({error})"
    roots = {f.split(".")[0].split("[")[0] for f in fields}
    if any(not r or r.isdigit() for r in roots):
        return "positional {} field: name every field"
    given = {k.arg for k in call.keywords if k.arg}
    if not any(k.arg is None for k in call.keywords) and roots - given:
        return f"fields without a value: {', '.join(sorted(roots - given))}"
    return None


def calls(paths: list[Path] | tuple[Path, ...] = MESSAGE_SOURCES, package: Path = PACKAGE,
          root: Path = ROOT) -> list[Call]:
    """Every call building a UserError (or subclass) in the files under ``paths``."""
    classes = user_error_classes(package, root)
    aliases = _aliases(_modules(package, root))
    files = sorted({f for p in paths for f in ([p] if p.is_file() else p.rglob("*.py"))})
    found = []
    for path in files:
        module = _parse(path, root)
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.Call):
                continue
            cls = _qualify(node.func, module.local)
            if cls is None or _resolve(cls, aliases) not in classes:
                continue
            template = _literal(node.args[0]) if node.args else None
            found.append(Call(path, node.lineno, cls.rpartition(".")[2], template,
                              frozenset(k.arg for k in node.keywords if k.arg),
                              any(k.arg is None for k in node.keywords), _problem(node, template)))
    return found


def templates(paths: list[Path] | tuple[Path, ...] = MESSAGE_SOURCES) -> list[str]:
    """The distinct literal templates, sorted: what the UI may have to translate."""
    return sorted({c.template for c in calls(paths) if c.template is not None})


if __name__ == "__main__":
    bad = [c for c in calls() if c.problem]
    for c in bad:
        print(f"{c.where()}: {c.cls}: {c.problem}")
    print(f"{len(bad)} of {len(calls())} user-error calls break the template rule")
