"""Core's user errors shown in the window's language, through a real QTranslator and a .qm built here."""

import pytest
from PySide6.QtCore import QCoreApplication

from eagle_chat.core.acquisition.pull_steps import AcquireError
from eagle_chat.core.errors import UserError
from eagle_chat.core.models.folders import ModelFolderError, inspect_target
from eagle_chat.ui.words import i18n
from eagle_chat.ui.words.core_text import user_error_text
from tests.helpers.language import build_qm

CORE = {  # (context, source) -> translation; a list: the plural's forms
    ("core", "The {role} folder {path} does not exist."): "{role} 文件夹 {path} 不存在。",
    ("core", "Downloading {repo} failed: {detail}"): "下载 {repo} 失败：{detail}",
    ("core", "The download was stopped; start it again to resume."): "下载已停止；重新开始即可继续。",
    ("core", "{port} is not a port number (0–65535)."): "{prot} 不是有效的端口号（0–65535）。",
    ("texts", "%n token(s)"): ["%n token", "%n tokens"],
}


@pytest.fixture
def chinese(chinese_translator):
    return chinese_translator(CORE)


def test_a_core_error_is_shown_in_chinese_with_its_values(chinese, tmp_path):
    with pytest.raises(ModelFolderError) as caught:
        inspect_target(tmp_path / "missing")  # the real core raise site
    error = caught.value
    assert str(error) == f"The target model folder {tmp_path / 'missing'} does not exist."
    assert user_error_text(error) == f"target model 文件夹 {tmp_path / 'missing'} 不存在。"


def test_a_user_error_inside_another_is_translated_too(chinese):
    inner = UserError("The download was stopped; start it again to resume.")
    error = AcquireError("Downloading {repo} failed: {detail}", repo="OpenVINO/Qwen3-8B-int4-ov", detail=inner)
    assert user_error_text(error) == "下载 OpenVINO/Qwen3-8B-int4-ov 失败：下载已停止；重新开始即可继续。"
    assert str(error) == ("Downloading OpenVINO/Qwen3-8B-int4-ov failed: The download was stopped; start it "
                          "again to resume.")


def test_a_translation_that_cannot_be_filled_falls_back_to_english(chinese):
    error = UserError("{port} is not a port number (0–65535).", port=70000)
    assert user_error_text(error) == "70000 is not a port number (0–65535)."


def test_without_a_translation_the_english_sentence_shows(qapp):
    error = UserError("The {role} folder {path} does not exist.", role="draft", path="/x")
    assert user_error_text(error) == "The draft folder /x does not exist."
    assert user_error_text(OSError("disk full")) == "disk full"


def test_english_gets_its_plural_forms_from_the_app_translation(qapp, tmp_path, monkeypatch):
    build_qm(CORE, tmp_path / "eaglechat_en.qm", language="en")
    monkeypatch.setattr(i18n, "translations_dir", lambda: tmp_path)
    translators = i18n.install_translators(qapp, "en")
    try:
        assert len(translators) == 1
        assert QCoreApplication.translate("texts", "%n token(s)", "", 1) == "1 token"
        assert QCoreApplication.translate("texts", "%n token(s)", "", 5) == "5 tokens"
    finally:
        for translator in translators:
            qapp.removeTranslator(translator)


def test_the_shipped_english_translation_loads(qapp):
    translators = i18n.install_translators(qapp, "en")
    try:
        assert len(translators) == 1, "resources/translations/eaglechat_en.qm did not load"
    finally:
        for translator in translators:
            qapp.removeTranslator(translator)
