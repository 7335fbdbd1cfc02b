"""PresetsRow: the demo's prompt buttons — built-in presets in English and Chinese, then the presenter's own.

The buttons wrap onto more lines rather than widen the window. The first nine carry Alt+1…9 mnemonics, so a presenter can run any of them without the mouse. The prompts
are content and stay as they are; a button's label names the prompt's language in that language (as
View → Language does) and its topic in the UI's language.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QTimer, Signal
from PySide6.QtWidgets import QPushButton, QWidget

from eagle_chat.ui.widgets.flow_layout import FlowLayout

# ((the prompt's language, its topic), the prompt)
PRESET_PROMPTS = (
    (("English", QT_TRANSLATE_NOOP("PresetsRow", "quicksort")),
     "Write quicksort in Python and explain its time complexity"),
    (("中文", QT_TRANSLATE_NOOP("PresetsRow", "quicksort")), "请用 Python 写一个快速排序，并解释时间复杂度。"),
    (("English", QT_TRANSLATE_NOOP("PresetsRow", "context manager")),
     "Explain what a context manager is in Python and show an example."),
    (("中文", QT_TRANSLATE_NOOP("PresetsRow", "binary search")), "请用 Python 实现二分查找，并说明它的复杂度。"),
)
LABEL_CHARS = 24


def clean_prompts(prompts) -> list[str]:
    """The presenter's prompts as they are kept: whitespace folded, empty ones and repeats dropped."""
    seen: list[str] = []
    for prompt in prompts:
        text = " ".join(str(prompt).split())
        if text and text not in seen and text not in (t for _, t in PRESET_PROMPTS):
            seen.append(text)
    return seen


class PresetsRow(QWidget):
    sig_chosen = Signal(str)
    """A preset (or one of the presenter's prompts) was picked: its text."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("comparePresets")
        self._layout = FlowLayout(self)  # wraps: the presenter's prompts never widen the window
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.custom: list[str] = []
        self.set_custom([])

    def prompts(self) -> list[str]:
        """Every prompt offered, presets first."""
        return [text for _, text in PRESET_PROMPTS] + self.custom

    def set_custom(self, prompts) -> None:
        """Show the presenter's prompts after the built-in presets."""
        self.custom = clean_prompts(prompts)
        while (item := self._layout.takeAt(0)) is not None:
            if item.widget() is not None:
                item.widget().deleteLater()
        entries = [(self.tr("{language} · {topic}").format(language=language, topic=self.tr(topic)), text)
                   for (language, topic), text in PRESET_PROMPTS]
        entries += [(self.tr("Mine · {prompt}").format(prompt=_shortened(p)), p) for p in self.custom]
        for number, (label, text) in enumerate(entries, start=1):
            button = PresetButton(f"&{number} {label}" if number <= 9 else label)
            button.setObjectName(f"comparePreset{number}")
            button.setToolTip(text)
            button.clicked.connect(lambda _=False, t=text: self.sig_chosen.emit(t))
            self._layout.addWidget(button)


class PresetButton(QPushButton):
    """A preset's button whose Alt+N picks it at once. Qt's mnemonic is an animated click: ``clicked`` comes
    100 ms after the key, so an F5 pressed within that time (a clicker, a macro) ran the previous prompt."""

    ANIMATION_MS = 100

    def event(self, event) -> bool:  # noqa: D102 - Qt override
        if event.type() == QEvent.Type.Shortcut and self.isEnabled():
            self.setDown(True)  # the same flash as an animated click, but the click itself happens now
            QTimer.singleShot(self.ANIMATION_MS, self, lambda: self.setDown(False))
            self.click()
            return True
        return super().event(event)


def _shortened(prompt: str) -> str:
    return prompt[:LABEL_CHARS] + ("…" if len(prompt) > LABEL_CHARS else "")
