"""A zh_CN (or any language's) ``QTranslator`` built for a test, as tools/translations.py builds the shipped
ones: a .ts compiled by pyside6-lrelease.

Translations are a table ``{(context, source): translation}`` — ``(context, source, disambiguation)`` for a
source with a disambiguation; a list translation is a plural's forms. With ``sources`` the .ts is the one
pyside6-lupdate makes from those real files (so the contexts and plurals are what lupdate sees), with the
table's entries filled in; every entry must be one lupdate saw. Without, the .ts is written from the table.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

Key = tuple[str, str] | tuple[str, str, str]
Translations = dict[Key, str | list[str]]


def tool(name: str) -> str:
    """A Qt tool installed beside this Python (pyside6-lupdate, pyside6-lrelease)."""
    return str(Path(sys.executable).with_name(name))


def build_qm(translations: Translations, qm: Path, *, language: str = "zh_CN",
             sources: Iterable[Path] | None = None) -> Path:
    """Compile ``translations`` to the .qm file ``qm`` (its .ts is written beside it); returns ``qm``."""
    ts = qm.with_suffix(".ts")
    if sources is None:
        ts.write_text(_ts_text(translations, language), encoding="utf-8")
    else:
        _fill_lupdate_ts(translations, ts, language, list(sources))
    subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(qm)], check=True, capture_output=True,
                   timeout=120)
    return qm


@pytest.fixture
def chinese_translator(qapp, tmp_path):
    """A factory: ``chinese_translator(translations, sources=None)`` builds a zh_CN .qm from the table (see
    the module) and installs it; every translator installed is removed at the test's end."""
    from PySide6.QtCore import QTranslator

    installed = []

    def install(translations: Translations, *, sources: Iterable[Path] | None = None):
        qm = build_qm(translations, tmp_path / f"test{len(installed)}_zh_CN.qm", sources=sources)
        translator = QTranslator()
        assert translator.load(str(qm))
        qapp.installTranslator(translator)
        installed.append(translator)
        return translator

    yield install
    for translator in installed:
        qapp.removeTranslator(translator)


def _split(key: Key) -> tuple[str, str, str]:
    context, source, *comment = key
    return context, source, comment[0] if comment else ""


def _ts_text(translations: Translations, language: str) -> str:
    contexts: dict[str, list[str]] = {}
    for key, translation in translations.items():
        context, source, comment = _split(key)
        numerus = ' numerus="yes"' if isinstance(translation, list) else ""
        body = "".join(f"<numerusform>{escape(t)}</numerusform>" for t in translation) \
            if isinstance(translation, list) else escape(translation)
        contexts.setdefault(context, []).append(
            f"<message{numerus}><source>{escape(source)}</source>"
            + (f"<comment>{escape(comment)}</comment>" if comment else "")
            + f"<translation>{body}</translation></message>")
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", f'<TS version="2.1" language="{language}">']
    out += [f"<context><name>{escape(name)}</name>{''.join(messages)}</context>" for name, messages in contexts.items()]
    out.append("</TS>")
    return "\n".join(out)


def _fill_lupdate_ts(translations: Translations, ts: Path, language: str, sources: list[Path]) -> None:
    subprocess.run([tool("pyside6-lupdate"), *map(str, sources), "-target-language", language, "-ts", str(ts)],
                   check=True, capture_output=True, timeout=120)
    wanted = {_split(key): translation for key, translation in translations.items()}
    tree = ET.parse(ts)
    filled = set()
    for context in tree.getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            source = message.findtext("source")
            key = (name, source, message.findtext("comment") or "")
            if key not in wanted:
                key = (name, source, "")  # an entry without a disambiguation fills every one of its source
            if key not in wanted:
                continue
            text = wanted[key]
            # a %n sentence lupdate did not see as a plural gets no forms for languages that need several
            assert (message.get("numerus") == "yes") == isinstance(text, list), f"plural or not: {key}"
            translation = message.find("translation")
            translation.attrib.pop("type", None)
            if isinstance(text, list):
                for form in list(translation):
                    translation.remove(form)
                for form in text:
                    ET.SubElement(translation, "numerusform").text = form
            else:
                translation.text = text
            filled.add(key)
    assert filled == set(wanted), f"lupdate did not see {set(wanted) - filled}"
    tree.write(ts, encoding="utf-8", xml_declaration=True)
