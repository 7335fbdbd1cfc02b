"""tools/translations.py on a small source tree of its own: messages, English plurals, fill, check.

Runs the real pyside6-lupdate / pyside6-lrelease and loads the built .qm into a real QTranslator.
"""

import importlib.util
import json
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


translations = _load("translations")
ts_files = _load("ts_files")

UI = '''
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

translate = QCoreApplication.translate


def tokens_line(n):
    return translate("texts", "%n token(s) in {where}", "", n)


def plain(x):
    return translate("texts", "Loaded {name}").format(name=x)


class Shortcuts(QWidget):
    def label(self, n):
        return self.tr("%n shortcut(s)", "", n), self.tr("%n repl(y) waiting", "", n)
'''


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A copy of the tool's world: eagle_chat/ui with one module, resources/translations, one core template."""
    ui = tmp_path / "eagle_chat" / "ui"
    ui.mkdir(parents=True)
    (ui / "texts.py").write_text(textwrap.dedent(UI), encoding="utf-8")
    out = tmp_path / "resources" / "translations"
    out.mkdir(parents=True)
    (out / "eaglechat_zh_CN.ts").write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n'
                                            '<TS version="2.1" language="zh_CN">\n</TS>\n', encoding="utf-8")
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    monkeypatch.setattr(translations, "SOURCES", tmp_path / "eagle_chat")
    monkeypatch.setattr(translations, "OUT", out)
    monkeypatch.setattr(translations, "CORE_MESSAGES", ui / "core_messages.py")
    monkeypatch.setattr(translations, "core_templates", lambda: ["The folder {path} is gone.\nLook \"here\"."])
    return tmp_path


def _qm_translate(qapp, qm: Path, context: str, source: str, n: int = -1) -> str:
    translator = QTranslator()
    assert translator.load(str(qm)), qm
    qapp.installTranslator(translator)
    try:
        return QCoreApplication.translate(context, source, "", n)
    finally:
        qapp.removeTranslator(translator)


def test_english_forms_are_derived_from_the_source():
    assert ts_files.english_forms("%n token(s)") == ("%n token", "%n tokens")
    assert ts_files.english_forms("Delete this message and the %n message(s) after it?") == (
        "Delete this message and the %n message after it?", "Delete this message and the %n messages after it?")
    assert ts_files.english_forms("%n match(es)") == ("%n match", "%n matches")
    assert ts_files.english_forms("%n reply(s)") == ("%n reply", "%n replies")
    assert ts_files.english_forms("%n day(s)") == ("%n day", "%n days")
    assert ts_files.english_forms("%n tokens") is None
    assert ts_files.english_forms("token(s)") is None


def test_update_writes_core_messages_english_plurals_and_a_ts_lupdate_agrees_with(tree, qapp):
    assert translations.update() == 0
    generated = translations.CORE_MESSAGES.read_text(encoding="utf-8")
    assert "generated" in generated.lower()
    assert 'QT_TRANSLATE_NOOP("core", "The folder {path} is gone.\\nLook \\"here\\".")' in generated
    # the module-level plural lupdate would not mark numerus is declared with a literal count
    assert 'QCoreApplication.translate("texts", "%n token(s) in {where}", "", 1)' in generated

    english = ts_files.TsFile.read(translations.ts_path("en"))
    forms = {m.source: m.forms() for m in english.messages}
    assert forms == {"%n token(s) in {where}": ["%n token in {where}", "%n tokens in {where}"],
                     "%n shortcut(s)": ["%n shortcut", "%n shortcuts"],
                     "%n repl(y) waiting": ["", ""]}  # not "%n thing(s)": left for a person
    assert all(m.numerus for m in english.messages)

    chinese = ts_files.TsFile.read(translations.ts_path("zh_CN"))
    assert {(m.context, m.source) for m in chinese.messages} >= {
        ("core", "The folder {path} is gone.\nLook \"here\"."), ("texts", "Loaded {name}"),
        ("texts", "%n token(s) in {where}"), ("Shortcuts", "%n shortcut(s)")}
    assert all(m.numerus for m in chinese.messages if "%n" in m.source)

    translations.release()
    qm = translations.ts_path("en").with_suffix(".qm")
    assert _qm_translate(qapp, qm, "texts", "%n token(s) in {where}", 1) == "1 token in {where}"
    assert _qm_translate(qapp, qm, "texts", "%n token(s) in {where}", 5) == "5 tokens in {where}"
    assert _qm_translate(qapp, qm, "Shortcuts", "%n shortcut(s)", 2) == "2 shortcuts"


def test_check_names_what_is_missing_then_passes_once_filled(tree, tmp_path, qapp):
    translations.update()
    translations.release()
    errors = translations.check()
    assert any("eaglechat_zh_CN.ts: 5 unfinished" in e for e in errors), errors
    assert any("repl(y) waiting" in e and "by hand" in e for e in errors), errors

    zh = {"core": {"The folder {path} is gone.\nLook \"here\".": "文件夹 {path} 不见了。\n看“这里”。"},
          "texts": {"Loaded {name}": "已加载 {name}", "%n token(s) in {where}": ["{where} 中有 %n 个 token"],
                    "Not in the sources": "不存在"},
          "Shortcuts": {"%n shortcut(s)": ["%n 个快捷键"], "%n repl(y) waiting": ["%n 条回复"]}}
    path = tmp_path / "zh.json"
    path.write_text(json.dumps(zh, ensure_ascii=False), encoding="utf-8")
    assert translations.fill(path) == 1  # one source is not in the .ts: reported, the rest written
    english = translations.ts_path("en")
    text = english.read_text(encoding="utf-8")
    text = text.replace("<source>%n repl(y) waiting</source>\n        <translation type=\"unfinished\">\n"
                        "            <numerusform></numerusform>\n            <numerusform></numerusform>",
                        "<source>%n repl(y) waiting</source>\n        <translation>\n"
                        "            <numerusform>%n reply waiting</numerusform>\n"
                        "            <numerusform>%n replies waiting</numerusform>")
    english.write_text(text, encoding="utf-8")  # the one English plural written by hand
    translations.release()
    assert translations.check() == []

    qm = translations.ts_path("zh_CN").with_suffix(".qm")
    assert _qm_translate(qapp, qm, "texts", "%n token(s) in {where}", 3) == "{where} 中有 3 个 token"
    assert _qm_translate(qapp, qm, "core", "The folder {path} is gone.\nLook \"here\".") == "文件夹 {path} 不见了。\n看“这里”。"

    # a new wrapped text, a stale core_messages.py, a .qm not rebuilt: each is named
    ui = tree / "eagle_chat" / "ui" / "texts.py"
    ui.write_text(ui.read_text(encoding="utf-8") + '\n\ndef more():\n    return translate("texts", "New text")\n',
                  encoding="utf-8")
    translations.CORE_MESSAGES.write_text("# edited\n", encoding="utf-8")
    errors = translations.check()
    assert any("core_messages.py is stale" in e for e in errors), errors
    assert any("eaglechat_zh_CN.ts is stale" in e for e in errors), errors


def test_fill_refuses_translations_that_lose_a_placeholder_or_accelerator(tree, tmp_path):
    (tree / "eagle_chat" / "ui" / "menus.py").write_text(textwrap.dedent('''
        from PySide6.QtWidgets import QWidget
        class Menus(QWidget):
            def build(self):
                return self.tr("&File"), self.tr("Open {path}"), self.tr("Open", "conversation")
    '''), encoding="utf-8")
    translations.update()
    path = tmp_path / "zh.json"
    path.write_text(json.dumps({"Menus": {"&File": "文件", "Open {path}": "打开",
                                          "Open": {"conversation": "打开对话"}}}, ensure_ascii=False),
                    encoding="utf-8")
    assert translations.fill(path) == 1
    menus = {(m.source, m.comment): m for m in ts_files.TsFile.read(translations.ts_path("zh_CN")).messages}
    assert menus[("&File", "")].unfinished
    assert menus[("Open {path}", "")].unfinished
    assert menus[("Open", "conversation")].forms() == ["打开对话"]
    assert not menus[("Open", "conversation")].unfinished


def test_check_finds_a_text_lupdate_silently_dropped(tree):
    ui = tree / "eagle_chat" / "ui" / "texts.py"
    ui.write_text(ui.read_text(encoding="utf-8") + textwrap.dedent('''

        def dropped():
            return translate("texts", "Open", disambiguation="menu")
    '''), encoding="utf-8")
    translations.update()
    errors = translations.check()
    assert any("lupdate did not find texts/'Open'" in e for e in errors), errors
