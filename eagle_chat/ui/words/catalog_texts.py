"""The sentences of the Get models dialog: a catalog entry's line, its description and sources, and why its
download is off. Same translation context as :mod:`eagle_chat.ui.words.texts` ("texts")."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from eagle_chat.core.acquisition.eagle3_converter import nncf_available
from eagle_chat.core.acquisition.staging import format_bytes
from eagle_chat.core.models.catalog import CatalogEntry
from eagle_chat.ui.words.i18n import translate

# what stands out on a line of the Get models list
CATALOG_MARKS = {"installed": QT_TRANSLATE_NOOP("texts", "installed"),
                 "unverified": QT_TRANSLATE_NOOP("texts", "unverified"),
                 "blocked": QT_TRANSLATE_NOOP("texts", "needs a draft export")}


def catalog_item_text(entry: CatalogEntry, size: str, installed: bool, blocked: bool) -> str:
    """One line of the Get models list: title, size and what stands out (installed, unverified, blocked)."""
    marks = [translate("texts", CATALOG_MARKS[m]) for m, on in (
        ("installed", installed), ("unverified", bool(entry.unverified)), ("blocked", blocked)) if on]
    return translate("texts", "{title}  ({size})").format(title=entry.title, size=size) + \
        "".join(f" — {m}" for m in marks)


def catalog_entry_details(entry: CatalogEntry) -> str:
    """The description pane of the Get models dialog for one catalog entry, in what a user chooses by: what
    it is good for (the catalog's own words), download size, devices, languages, licence, how long it takes
    to be ready. Where the repositories come from is :func:`catalog_entry_sources` (the pane's tooltip)."""
    facts = [translate("texts", "Download: {size}").format(size=format_bytes(entry.variant("CPU").approx_bytes)),
             translate("texts", "Runs on: {devices}").format(devices=", ".join(entry.devices()))]
    if entry.languages:
        facts.append(translate("texts", "Languages: {languages}").format(languages=entry.languages))
    lines = [entry.description, " · ".join(facts)]
    if entry.license:
        lines.append(translate("texts", "Licence: {license}.").format(license=entry.license))
    if not entry.needs_export:
        lines.append(translate("texts", "Ready to run as downloaded."))
    elif nncf_available():
        lines.append(translate("texts", "Its draft is converted to OpenVINO on this computer after the download "
                                        "(under a minute; no extra packages)."))
    else:
        lines.append(translate("texts", "Its draft is converted to OpenVINO on this computer after the download "
                                        "(under a minute). NNCF is not installed, so the draft keeps 16-bit weights: "
                                        "about {size} on disk, where int4 would take about a third of that.").format(
            size=format_bytes(entry.variant("CPU").draft.approx_bytes)))
    if entry.unverified:
        lines.append(translate("texts", "Unverified: {what}").format(what=entry.unverified))
    return "\n".join(lines)


def catalog_entry_sources(entry: CatalogEntry) -> str:
    """Where an entry's repositories come from and why they are believed to fit (for the curious)."""
    return translate("texts", "Where these repositories come from: {evidence}").format(evidence=entry.evidence) \
        if entry.evidence else ""


def export_blocked_text(problem: str) -> str:
    """Why Download is off for an entry whose Hugging Face-format draft cannot be exported here."""
    return translate("texts", "Download is off: this entry's EAGLE-3 draft comes in Hugging Face format and must be "
                              "exported to OpenVINO first. {problem}").format(problem=problem)
