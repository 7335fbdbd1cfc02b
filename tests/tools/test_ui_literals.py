"""The checker for UI literals shown without tr()/translate(), on synthetic sources."""

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("ui_literals", ROOT / "tools" / "ui_literals.py")
ui_literals = importlib.util.module_from_spec(spec)
sys.modules["ui_literals"] = ui_literals
spec.loader.exec_module(ui_literals)


def found(body: str) -> list[str]:
    source = "from PySide6.QtWidgets import *\n\n\ndef build(self, n, name, icon, path, ok):\n" + textwrap.indent(
        textwrap.dedent(body), "    ")
    return [f.text for f in ui_literals.unwrapped_in(source)]


@pytest.mark.parametrize("line, text", [
    ('self.label.setText("Loading the model…")', "'Loading the model…'"),
    ('self.button.setToolTip(f"Run on the {name}")', "f'Run on the {name}'"),
    ('QPushButton("Send", self)', "'Send'"),
    ('QLabel(text="No model")', "'No model'"),
    ('QAction(icon, "Rename", self)', "'Rename'"),
    ('menu.addAction("Get models…")', "'Get models…'"),
    ('menu.addAction(icon, "Export…")', "'Export…'"),
    ('self.tabs.addTab(widget, "Speed")', "'Speed'"),
    ('combo.addItem("f32 (exact comparisons)", "f32")', "'f32 (exact comparisons)'"),
    ('combo.addItems(["Light", "Dark"])', "'Light'"),
    ('table.setHorizontalHeaderLabels(["Prompt", "tok/s"])', "'Prompt'"),
    ('QMessageBox.warning(self, "Delete conversation", "Delete it?")', "'Delete conversation'"),
    ('self.statusBar().showMessage("Exported " + str(path), 8000)', "'Exported '"),
    ('self.status.setText("Done." if ok else "Failed.")', "'Failed.'"),
    ('self.status.setText("Loaded {name}".format(name=name))', "'Loaded {name}'"),
    ('self.status.setText(self.tr("Loaded {name}").format(name="the model"))', "'the model'"),
    ('self.status.setText(" · ".join(["Fast", name]))', "'Fast'"),
    ('self.status.setText(str("Ready"))', "'Ready'"),
    ('self.label.setText(texts.speed_line(n, "plain"))', "'plain'"),  # a helper's text argument: mark or wrap
])
def test_an_unwrapped_literal_is_flagged(line, text):
    assert text in found(line)


@pytest.mark.parametrize("line", [
    'self.label.setText(self.tr("Loading the model…"))',
    'self.button.setToolTip(self.tr("Run on the {name}").format(name=name))',
    'self.status.setText(translate("texts", "Loaded {name}").format(name=name))',
    'QMessageBox.warning(self, QCoreApplication.translate("Dialogs", "Delete"), self.tr("Delete it?"))',
    'QPushButton(QT_TRANSLATE_NOOP("Buttons", "Send"))',
    'self.tabs.addTab(widget, self.tr("Speed"))',
    'self.label.setText("")',
    'self.label.setText("  ")',
    'self.label.setText("—")',
    'self.label.setText(f"{n:.1f} × {n}")',
    'self.label.setText("<b>{}</b>")',
    'self.label.setText(f"<b>{name}</b>")',
    'self.label.setText(name)',
    'self.label.setText(texts.speed_line(n, "plain"))  # i18n: ok',
    'self.button.setIcon(QIcon(":/icons/send.png"))',
    'QPushButton(QIcon(":/icons/send.png"), self.tr("Send"))',
    'self.label.setText(LABELS.get("speed", name))',
    'self.label.setText(" · ".join([self.tr("Fast"), name]))',
    'combo.addItem(self.tr("Fastest"), "default")',  # the item's data is not shown
    'menu.addAction(self.tr("Demo"), "Ctrl+D")',
    'self.edit.setPlaceholderText("http://127.0.0.1:8000/v1")  # i18n: ok',
    'self.edit.setObjectName("composer")',
])
def test_wrapped_or_harmless_text_is_fine(line):
    assert found(line) == []


def test_the_ok_mark_covers_a_call_over_several_lines():
    assert found('''
        self.brand.setText(  # i18n: ok
            "EAGLE-3")
    ''') == []
    assert found('''
        self.brand.setText(
            "EAGLE-3")
    ''') == ["'EAGLE-3'"]


def test_findings_name_file_line_and_call(tmp_path):
    path = tmp_path / "panel.py"
    path.write_text('def f(self):\n    self.button.setText("API server")\n', encoding="utf-8")
    [finding] = ui_literals.unwrapped([tmp_path])
    assert (finding.path, finding.line, finding.call) == (path, 2, "setText")
    assert "setText('API server') is not wrapped" in str(finding)


def test_the_command_prints_findings_and_counts_per_file(tmp_path):
    (tmp_path / "a.py").write_text('def f(w):\n    w.setText("One")\n    w.setToolTip("Two")\n', encoding="utf-8")
    (tmp_path / "b.py").write_text('def f(w):\n    w.setText(w.tr("Fine"))\n', encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "translations.py"), "literals", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "a.py:2: setText('One')" in done.stdout
    assert f"   2  {tmp_path / 'a.py'}" in done.stdout
    assert "2 unwrapped literal(s)" in done.stdout
