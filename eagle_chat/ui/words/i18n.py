"""The UI language: EagleChat's own translations and Qt's, installed before any widget is made.

The language follows the system locale (``LANG`` / the OS setting) unless View → Language chose one (saved
in the settings; applied on restart). Translations are compiled ``.qm`` files in
``resources/translations`` (built from the ``.ts`` sources by ``tools/translations.py``); Qt's own
``qt_<lang>.qm`` comes with PySide6, so standard dialogs and buttons speak the same language.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from eagle_chat import paths

# code -> name shown in View → Language (each in its own language)
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
TRANSLATION_PREFIX = "eaglechat_"

# Module-level text (ui/words/texts.py, tables) is looked up with ``translate("context", "literal")``; lupdate
# recognises the name, so the context and the source text must be literals at the call.
translate = QCoreApplication.translate


def translations_dir() -> Path:
    return paths.resources_dir() / "translations"


def choose_language(saved: str | None, locale: QLocale | None = None) -> str:
    """The language to use: the saved choice if it is one we have, else the system locale's, else English."""
    if saved in LANGUAGES:
        return saved
    locale = locale or QLocale.system()
    name = locale.name()  # e.g. "zh_CN", "zh_TW", "en_US"
    if name in LANGUAGES:
        return name
    if locale.language() == QLocale.Language.Chinese:
        return "zh_CN"
    return "en"


_installed: list[QTranslator] = []


def apply_language(app: QCoreApplication, language: str) -> list[QTranslator]:
    """Replace whatever translators an earlier call installed with those for ``language``."""
    for translator in _installed:
        app.removeTranslator(translator)
    _installed[:] = install_translators(app, language)
    if language == "en":
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    return list(_installed)


def install_translators(app: QCoreApplication, language: str) -> list[QTranslator]:
    """Load and install the app's and Qt's translators for ``language``; returns those installed (keep them
    alive as long as the app). English gets only the app's plural forms (``eaglechat_en.qm``: "1 token",
    "5 tokens" for a source written "%n token(s)"); the source texts are English already."""
    installed = []
    if language == "en":
        translator = QTranslator(app)
        if translator.load(f"{TRANSLATION_PREFIX}en", str(translations_dir())):
            app.installTranslator(translator)
            installed.append(translator)
        return installed
    candidates = (
        (f"{TRANSLATION_PREFIX}{language}", str(translations_dir())),
        (f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)),
        (f"qt_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)),
    )
    loaded_qt = False
    for name, folder in candidates:
        if name.startswith("qt_") and loaded_qt:
            continue  # qt_<lang> is the meta catalog that includes qtbase; one of the two is enough
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            installed.append(translator)
            loaded_qt = loaded_qt or name.startswith("qt")
    QLocale.setDefault(QLocale(language))
    return installed


def current_language() -> str:
    """The UI's language as :func:`apply_language` left it ("zh_CN", "en_US"…): the default locale it sets."""
    return QLocale().name()


class Context:
    """A translation context for module-level text: ``texts.tr("…", "", n)`` is
    ``translate("texts", "…", "", n)``. Plurals go through this: lupdate 6.11's Python parser reads a bare name
    in ``translate()``'s 4th place as the old PyQt4 encoding argument (not a count) and drops ``len(x)`` or
    ``x.y`` there, while ``<name>.tr(…, "", n)`` is a plural in context ``<name>`` whatever ``n`` is."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def tr(self, source: str, disambiguation: str = "", n: int = -1) -> str:
        return translate(self.name, source, disambiguation, n)
