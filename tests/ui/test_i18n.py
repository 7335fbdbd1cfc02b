"""Language choice, translators, and translation sources that are complete and built."""

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale

from eagle_chat.ui.words import i18n

ROOT = Path(__file__).resolve().parents[2]


def test_language_follows_the_saved_choice_then_the_system_locale():
    assert i18n.choose_language("en", QLocale("zh_CN")) == "en"
    assert i18n.choose_language(None, QLocale("zh_CN")) == "zh_CN"
    assert i18n.choose_language(None, QLocale("zh_SG")) == "zh_CN"
    assert i18n.choose_language(None, QLocale("de_DE")) == "en"
    assert i18n.choose_language("xx", QLocale("en_US")) == "en"


def test_qt_s_own_chinese_translation_loads(qapp):
    translators = i18n.install_translators(qapp, "zh_CN")
    try:
        assert translators, "no translator was installed for zh_CN"
    finally:
        for translator in translators:
            qapp.removeTranslator(translator)
        QLocale.setDefault(QLocale("en_US"))


@pytest.mark.slow
def test_translation_sources_are_current_complete_and_built():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "translations.py"), "check"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
