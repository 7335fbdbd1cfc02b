"""Reading and changing Qt Linguist .ts files: English plural forms, and translations filled in from JSON.

Changes are written with ElementTree and then passed through ``pyside6-lupdate`` once more by the caller
(tools/translations.py), so the file keeps exactly lupdate's layout and ``check`` can compare it byte for byte.

The JSON that ``fill`` reads maps a context to its sources::

    {"core": {"The {role} folder {path} does not exist.": "{role}文件夹 {path} 不存在。"},
     "ChatView": {"%n token(s)": ["%n 个 token"],            # numerus: one form per plural form of the language
                  "Open": {"conversation": "打开", "": "打开文件"}}}   # by disambiguation (the .ts <comment>)
"""

from __future__ import annotations

import re
import string
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

# "%n token(s)" -> "%n token" / "%n tokens"; "match(es)" -> "match"/"matches"; "reply(s)" -> "reply"/"replies"
_PLURAL_MARK = re.compile(r"(\w+?)(y)?\((e?s)\)")


def english_forms(source: str) -> tuple[str, str] | None:
    """The English singular and plural of a numerus source written as "%n thing(s)", or None if it is not of
    that shape (then someone has to write the forms in eaglechat_en.ts by hand)."""
    if "%n" not in source or not _PLURAL_MARK.search(source):
        return None

    def singular(m: re.Match) -> str:
        return m.group(1) + (m.group(2) or "")

    def plural(m: re.Match) -> str:
        stem, y, ending = m.group(1), m.group(2), m.group(3)
        if y and stem[-1:].lower() not in "aeiou":
            return stem + "ies"
        return stem + (y or "") + ending

    return _PLURAL_MARK.sub(singular, source), _PLURAL_MARK.sub(plural, source)


@dataclass
class Message:
    context: str
    source: str
    comment: str
    numerus: bool
    element: ET.Element

    @property
    def translation(self) -> ET.Element:
        found = self.element.find("translation")
        if found is None:
            found = ET.SubElement(self.element, "translation")
        return found

    @property
    def unfinished(self) -> bool:
        return self.translation.get("type") == "unfinished"

    def forms(self) -> list[str]:
        if self.numerus:
            return [f.text or "" for f in self.translation.findall("numerusform")]
        return [self.translation.text or ""]

    def set(self, forms: list[str]) -> None:
        """Write the translation (one text, or one per numerus form) and mark it finished."""
        translation = self.translation
        if self.numerus:
            slots = translation.findall("numerusform")
            for slot, text in zip(slots, forms):
                slot.text = text
        else:
            translation.text = forms[0]
        translation.attrib.pop("type", None)


@dataclass
class TsFile:
    path: Path
    tree: ET.ElementTree
    messages: list[Message] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> TsFile:
        tree = ET.parse(path)
        ts = cls(path, tree)
        for context in tree.getroot().iter("context"):
            name = context.findtext("name") or ""
            for message in context.iter("message"):
                ts.messages.append(Message(name, message.findtext("source") or "", message.findtext("comment") or "",
                                           message.get("numerus") == "yes", message))
        return ts

    def write(self) -> None:
        self.tree.write(self.path, encoding="utf-8", xml_declaration=True)

    def find(self, context: str, source: str) -> list[Message]:
        return [m for m in self.messages if m.context == context and m.source == source]


def fill_english_plurals(path: Path) -> list[str]:
    """Give every unfinished numerus message of the English .ts its forms; returns the sources it could not
    derive forms for (not of the "%n thing(s)" shape)."""
    ts = TsFile.read(path)
    underivable = []
    for message in ts.messages:
        if not message.numerus or not message.unfinished:
            continue
        forms = english_forms(message.source)
        if forms is None or len(message.translation.findall("numerusform")) != 2:
            underivable.append(f"{message.context}: {message.source}")
            continue
        message.set(list(forms))
    ts.write()
    return underivable


_FIELD = re.compile(r"%n|%L?\d+")


def placeholders(text: str) -> list[str]:
    """The placeholders a translation must keep: {fields} (as written, spec included), %n and %1…"""
    found = []
    try:
        for _, name, spec, conversion in string.Formatter().parse(text):
            if name is not None:
                found.append("{" + name + ("!" + conversion if conversion else "") + (":" + spec if spec else "") + "}")
    except ValueError:
        found.append("<invalid format string>")
    return sorted(found + _FIELD.findall(text))


def _accelerator(text: str) -> bool:
    return bool(re.search(r"&(?!&)\S", text.replace("&&", "")))


def check_translation(source: str, translation: str) -> str | None:
    """Why ``translation`` cannot stand for ``source`` (a placeholder lost or added, an accelerator lost),
    or None."""
    if placeholders(source) != placeholders(translation):
        return f"placeholders differ: {placeholders(source)} vs {placeholders(translation)}"
    if _accelerator(source) and not _accelerator(translation):
        return "the accelerator (&) is missing"
    return None


@dataclass
class FillReport:
    filled: int = 0
    unchanged: int = 0
    not_found: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"filled {self.filled}, already so {self.unchanged}"]
        out += [f"not in the .ts: {s}" for s in self.not_found]
        out += [f"rejected: {s}" for s in self.rejected]
        return out


def fill(path: Path, translations: dict) -> FillReport:
    """Write ``translations`` (the JSON described above) into the .ts at ``path``; keeps every other entry."""
    ts = TsFile.read(path)
    report = FillReport()
    for context, entries in translations.items():
        if not isinstance(entries, dict):
            report.rejected.append(f"{context}: not an object of source -> translation")
            continue
        for source, value in entries.items():
            messages = ts.find(context, source)
            if not messages:
                report.not_found.append(f"{context}: {source}")
                continue
            for message in messages:
                wanted = value.get(message.comment) if isinstance(value, dict) else value
                if wanted is None:
                    if isinstance(value, dict):
                        report.not_found.append(f"{context}: {source} [{message.comment}]")
                    continue
                problem = _apply(message, wanted)
                if problem == "unchanged":
                    report.unchanged += 1
                elif problem:
                    report.rejected.append(f"{context}: {source}: {problem}")
                else:
                    report.filled += 1
    ts.write()
    return report


def _apply(message: Message, wanted: object) -> str | None:
    if message.numerus:
        if isinstance(wanted, str):
            wanted = [wanted]
        slots = len(message.translation.findall("numerusform"))
        if not isinstance(wanted, list) or len(wanted) != slots or not all(isinstance(w, str) for w in wanted):
            return f"a numerus message needs a list of {slots} form(s)"
    elif not isinstance(wanted, str):
        return "needs one translated text"
    else:
        wanted = [wanted]
    if not all(w.strip() for w in wanted):
        return "empty translation"
    for text in wanted:
        problem = check_translation(message.source, text)
        if problem:
            return problem
    if not message.unfinished and message.forms() == wanted:
        return "unchanged"
    message.set(wanted)
    return None
