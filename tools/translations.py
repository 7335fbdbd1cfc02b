"""Translation sources and builds: ``update`` the .ts files from the code, ``release`` them to .qm.

    python tools/translations.py update    # pyside6-lupdate eagle_chat/ui → resources/translations/*.ts
    python tools/translations.py release   # pyside6-lrelease *.ts → *.qm (shipped in the wheel and bundle)
    python tools/translations.py check     # exit 1 if the .ts files are stale, unfinished or obsolete

Both tools ship with PySide6 (``pyside6-lupdate``, ``pyside6-lrelease`` next to the Python that runs this).
The .ts files are the sources translators edit (Qt Linguist, or by hand); the .qm files are committed
build outputs, checked against their sources by the test suite.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "eagle_chat"
OUT = ROOT / "resources" / "translations"
LANGUAGES = ("zh_CN",)


def tool(name: str) -> str:
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: it ships with PySide6 (pip install PySide6)")
    return found


def source_files() -> list[Path]:
    """Every Python file whose strings are shown to users: the UI (core messages come as UserError
    templates, collected in eagle_chat/ui/core_messages.py)."""
    return sorted((SOURCES / "ui").rglob("*.py"))


def ts_path(language: str) -> Path:
    return OUT / f"eaglechat_{language}.ts"


def lupdate(ts: Path) -> str:
    """Refresh ``ts`` from the sources (keeping translations, dropping obsolete entries)."""
    files = [str(p) for p in source_files()]
    result = subprocess.run([tool("pyside6-lupdate"), *files, "-no-obsolete", "-locations", "none", "-ts", str(ts)],
                            capture_output=True, text=True, check=True)
    return result.stdout + result.stderr


def lrelease(ts: Path, qm: Path) -> None:
    subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(qm)], capture_output=True, text=True, check=True)


def problems(ts: Path) -> dict[str, int]:
    text = ts.read_text(encoding="utf-8")
    return {
        "messages": len(re.findall(r"<message[ >]", text)),
        "unfinished": len(re.findall(r'type="unfinished"', text)),
        "obsolete": len(re.findall(r'type="(?:obsolete|vanished)"', text)),
    }


def check() -> list[str]:
    """What is wrong with the committed translations, as sentences (empty: all good)."""
    errors = []
    for language in LANGUAGES:
        committed = ts_path(language)
        if not committed.exists():
            errors.append(f"{committed} is missing")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / committed.name
            shutil.copy(committed, fresh)
            lupdate(fresh)
            if fresh.read_text(encoding="utf-8") != committed.read_text(encoding="utf-8"):
                errors.append(f"{committed.name} is stale: run tools/translations.py update")
            counts = problems(fresh)
            if counts["unfinished"] or counts["obsolete"]:
                errors.append(f"{committed.name}: {counts['unfinished']} unfinished, {counts['obsolete']} obsolete")
            qm = committed.with_suffix(".qm")
            built = Path(tmp) / qm.name
            lrelease(committed, built)
            if not qm.exists() or qm.read_bytes() != built.read_bytes():
                errors.append(f"{qm.name} is not built from {committed.name}: run tools/translations.py release")
    return errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["update", "release", "check"])
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    if args.action == "update":
        for language in LANGUAGES:
            print(lupdate(ts_path(language)).strip())
            print(ts_path(language).name, problems(ts_path(language)))
    elif args.action == "release":
        for language in LANGUAGES:
            lrelease(ts_path(language), ts_path(language).with_suffix(".qm"))
            print("built", ts_path(language).with_suffix(".qm").name)
    else:
        errors = check()
        for error in errors:
            print(error)
        return 1 if errors else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
