"""PreflightPanel (F11): before a demo, check what can embarrass the presenter, fix what the app can, then go
full screen.

One line per check, a mark (✓ ⚠ ✗ ?) and a sentence saying what is fine or what to do, with a button when the
app can do it itself: load the pair on the intended device, switch to the speed-demo pair, tune K, warm up
both modes. "Fix what can be fixed" runs those one after another. The facts and rules are in
:mod:`eagle_chat.core.measure.preflight`; the sentences in :mod:`eagle_chat.ui.words.demo_texts`.

Keyboard only: Tab moves between the buttons (each has an Alt mnemonic) and Enter or Space presses the one
with focus; elsewhere Enter starts the demo (in the prompt box it adds the prompt); F5 checks again, Delete
removes the selected prompt, Esc closes.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QSize, Qt, QTimer
from PySide6.QtGui import QFontMetricsF, QKeySequence, QPainter, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from eagle_chat.core.measure import preflight as pf
from eagle_chat.core.measure.tuning import tuned_choice
from eagle_chat.ui.widgets import screen_fit
from eagle_chat.ui.words import demo_texts
from eagle_chat.ui.words.i18n import translate
from eagle_chat.ui.speed.presenter_mode import demo_screen

KEYS = ("model", "speedup", "tuned", "warm", "cache", "power", "cpu", "screen")
FIXABLE = ("model", "speedup", "tuned", "warm", "cache")  # the order "Fix what can be fixed" goes in
CPU_SAMPLE_MS = 1500


class CheckMark(QLabel):
    """A line's mark in a column of fixed width, on the first line of its sentence: the marks are drawn from
    different glyphs (and fonts) of different widths and heights, so each is centred in the column and on the
    middle of the sentence's lower-case letters, where ✓ and ✗ read as one row of marks."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        metrics = QFontMetricsF(self.font())
        widest = max(metrics.horizontalAdvance(mark) for mark in demo_texts.MARKS.values())
        return QSize(math.ceil(widest + metrics.averageCharWidth()), math.ceil(metrics.height()))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.sizeHint()

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt override
        if not self.text():
            return
        metrics = QFontMetricsF(self.font())
        ink = metrics.tightBoundingRect(self.text())
        middle = metrics.ascent() - metrics.xHeight() / 2  # of the sentence's first line (it starts at the top)
        x = (self.width() - ink.width()) / 2 - ink.left()
        y = middle - (ink.top() + ink.bottom()) / 2
        painter = QPainter(self)
        painter.setFont(self.font())
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(QPointF(x, y), self.text())
        painter.end()


class PreflightPanel(QDialog):
    def __init__(self, window, kit, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("preflightPanel")
        self.setWindowTitle(self.tr("EagleChat — demo pre-flight check"))
        self._window, self._kit = window, kit
        self._cpu_load: pf.CpuLoad | None = None
        self._cpu_before: pf.CpuSample | None = None
        self._fixing = False
        self._last_fix: tuple[str, str] | None = None
        self._outcome = ""  # how the last "Fix what can be fixed" ended, shown until the next one
        self._cpu_timer = QTimer(self)
        self._cpu_timer.setSingleShot(True)
        self._cpu_timer.setInterval(CPU_SAMPLE_MS)
        self._cpu_timer.timeout.connect(self._cpu_sampled)
        self._build()
        controller = window.controller
        for signal in (controller.sig_loaded, controller.sig_state, kit.sig_changed, kit.sig_tuned,
                       kit.warm_start.sig_warmed, kit.flow.sig_ready, kit.flow.sig_failed):
            signal.connect(self._on_event)
        kit.flow.sig_failed.connect(self._on_flow_failed)

    # --- public API ------------------------------------------------------------------------------------
    def checks(self) -> list[pf.Check]:
        """Every check, from the facts as they are now (the CPU line from the last sample)."""
        w, kit = self._window, self._kit
        loaded = w.controller.loaded
        spec = loaded.spec if loaded else None
        device = w.settings.device
        model = pf.check_model(w.model.target_dir, w.model.draft_dir, device,
                               None if spec is None else spec.target_dir, loaded.device if loaded else None,
                               bool(loaded and loaded.has_draft), w.model.name)
        outlook = kit.outlook()
        speedup = pf.check_speedup(outlook.kind, outlook.speedup, kit.precision(), outlook.is_speed_demo)
        tuned = tuned_choice(w.settings, w.model.target_dir, w.model.draft_dir, device)
        warm = kit.warm_start
        cache_dir = w.pipeline_spec().cache_dir
        screen = demo_screen()  # where the demo will go full screen, and what its real layout needs there
        need, area = w.dialogs.compare_view().needed_size(screen), screen.geometry()
        return [
            model,
            speedup,
            pf.check_tuned(tuned.k, tuned.tree, device, w.model.draft_dir is not None),
            pf.check_warm(warm.expected_modes(), tuple(warm.ran), bool(loaded)),
            pf.check_cache(cache_dir, pf.cache_blobs(cache_dir), warm.new_blobs,
                           loaded.load_time_ms if loaded else None, bool(loaded)),
            pf.check_power(pf.power_facts()),
            pf.check_cpu(self._cpu_load),
            pf.check_screen(area.width(), area.height(), need.width(), need.height()),
        ]

    def recheck(self) -> None:
        """Check everything again; the CPU line after a fresh sample of a second and a half."""
        self._cpu_before = pf.sample_cpu()
        self._cpu_timer.start()
        self.refresh()

    def refresh(self) -> None:
        for check in self.checks():
            mark, text, fix = self._rows[check.key]
            mark.setText(demo_texts.MARKS[check.status])
            text.setText(self.tr("Measuring the CPU load from other programs…") if check.key == "cpu" and
                         self._cpu_timer.isActive() else demo_texts.check_line(check))
            fix.setVisible(check.fix is not None)
            if check.fix is not None:
                fix.setText(translate("demo_texts", demo_texts.FIX_LABELS[check.fix]))
                fix.setProperty("fix", check.fix)
            fix.setEnabled(not self._busy())
        self.fix_all_button.setEnabled(not self._busy() and not self._fixing)
        self.status.setText(self._busy_text())

    def fix(self, what: str) -> bool:
        """Apply one fix ("load", "speed-demo", "tune", "warm-up"); False if it could not start."""
        kit = self._kit
        if what == "load":
            self._window.load_model()
            return True
        if what == "speed-demo":
            return kit.flow.start(run=False)
        if what == "tune":
            return kit.tune()
        if what == "warm-up":
            return kit.warm_start.start()
        return False

    def fix_all(self) -> None:
        """Apply every fix the checks offer, one after another (each waits for the one before)."""
        self._fixing, self._last_fix, self._outcome = True, None, ""
        self._fix_next()

    def start_demo(self) -> None:
        """Close the panel and open the comparison full screen."""
        self.accept()
        self._window.open_compare(demo=True)

    def prompts(self) -> list[str]:
        return [self.prompt_list.item(i).text() for i in range(self.prompt_list.count())]

    def add_prompt(self, text: str | None = None) -> None:
        text = " ".join((text if text is not None else self.prompt_edit.text()).split())
        if text and text not in self.prompts():
            self.prompt_list.addItem(text)
            self._kit.set_demo_prompts(self.prompts())
        self.prompt_edit.clear()

    def remove_prompt(self) -> None:
        row = self.prompt_list.currentRow()
        if row >= 0:
            self.prompt_list.takeItem(row)
            self._kit.set_demo_prompts(self.prompts())

    # --- internals -----------------------------------------------------------------------------------------
    def _busy(self) -> bool:
        """Busy with something a fix must not interrupt (the warm start gives way to any of them)."""
        controller, kit = self._window.controller, self._kit
        reply = controller.reply
        return (controller.state == "loading" or (reply is not None and not reply.background)
                or kit.flow.is_running() or kit.quick_tune.is_running())

    def _busy_text(self) -> str:
        kit, controller = self._kit, self._window.controller
        if kit.flow.is_running():
            return demo_texts.flow_text(kit.flow.step)
        if kit.quick_tune.is_running():
            return demo_texts.flow_text("tune")
        if kit.warm_start.is_running():
            return self.tr("Warming up both modes…")
        if controller.state == "loading":
            return self.tr("Loading…")
        if self._busy():
            return self.tr("The model is busy with a reply.")
        return self.tr("Fixing…") if self._fixing else self._outcome

    def _fix_next(self) -> None:
        if not self._fixing or self._busy():
            return
        todo = [c for c in self.checks() if c.key in FIXABLE and c.fix is not None]
        step = (todo[0].key, todo[0].fix) if todo else None
        if step is not None and step[1] == "warm-up" and self._kit.warm_start.is_running():
            return  # under way already: its end is the next event
        if step is None or step == self._last_fix or not self.fix(step[1]):
            self._fixing = False
            self._outcome = (self.tr("Everything the app can fix is fixed.") if step is None
                             else self.tr("Stopped: {reason}").format(reason=demo_texts.check_line(todo[0])))
            self.refresh()
            return
        self._last_fix = step
        self.refresh()

    def _on_event(self, *_args) -> None:
        self.refresh()
        if self._fixing:
            QTimer.singleShot(0, self, self._fix_next)  # after every other listener has seen the event

    def _on_flow_failed(self, message: str) -> None:
        self._fixing, self._outcome = False, message
        self.refresh()

    def _cpu_sampled(self) -> None:
        if self._cpu_before is not None:
            self._cpu_load = pf.cpu_load(self._cpu_before, pf.sample_cpu())
        self.refresh()

    def _build(self) -> None:
        grid = QGridLayout()
        self._rows: dict[str, tuple[QLabel, QLabel, QPushButton]] = {}
        for row, key in enumerate(KEYS):
            mark, text, fix = CheckMark(), QLabel(), QPushButton()
            mark.setObjectName(f"preflightMark_{key}")
            text.setObjectName(f"preflightLine_{key}")
            text.setWordWrap(True)
            # At the top, as the mark is: centred in a row as tall as its button, the sentence sat below its ✗.
            text.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            fix.setObjectName(f"preflightFix_{key}")
            fix.clicked.connect(lambda _=False, b=fix: self.fix(b.property("fix")))
            fix.setVisible(False)
            grid.addWidget(mark, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(text, row, 1)
            grid.addWidget(fix, row, 2, Qt.AlignmentFlag.AlignTop)
            self._rows[key] = (mark, text, fix)
        grid.setColumnStretch(1, 1)
        self.status = QLabel()
        self.status.setObjectName("preflightStatus")
        self.prompt_list = QListWidget()
        self.prompt_list.setObjectName("preflightPrompts")
        self.prompt_list.setAccessibleName(self.tr("Your prompts for the demo"))
        self.prompt_list.addItems(self._window.settings.demo_prompts)
        self.prompt_list.setMaximumHeight(110)
        self.prompt_edit = QLineEdit()
        self.prompt_edit.setObjectName("preflightPromptEdit")
        self.prompt_edit.setPlaceholderText(self.tr("A prompt of your own for the demo (Enter adds it)"))
        self.prompt_edit.setAccessibleName(self.tr("New prompt for the demo"))
        prompts_label = QLabel(self.tr("Your pr&ompts (after the English and Chinese presets):"))
        prompts_label.setBuddy(self.prompt_edit)
        add = self._button(self.tr("A&dd"), "preflightAddPrompt", self.add_prompt)
        remove = self._button(self.tr("Re&move"), "preflightRemovePrompt", self.remove_prompt)
        self.fix_all_button = self._button(self.tr("&Fix what can be fixed"), "preflightFixAll", self.fix_all)
        recheck = self._button(self.tr("&Re-check (F5)"), "preflightRecheck", self.recheck)
        self.start_button = self._button(self.tr("&Start the demo (full screen)"), "preflightStart", self.start_demo)
        self.start_button.setDefault(True)
        close = self._button(self.tr("Close"), "preflightClose", self.reject)
        edit_row = QHBoxLayout()
        for widget in (self.prompt_edit, add, remove):
            edit_row.addWidget(widget)
        buttons = QHBoxLayout()
        for widget in (self.fix_all_button, recheck):
            buttons.addWidget(widget)
        buttons.addStretch(1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("<b>Before the demo</b> — each line says what is fine (✓) or what to do.")))
        layout.addLayout(grid)
        layout.addWidget(self.status)
        layout.addWidget(prompts_label)
        layout.addWidget(self.prompt_list)
        layout.addLayout(edit_row)
        layout.addStretch(1)
        layout.addLayout(buttons)
        QShortcut(QKeySequence(Qt.Key.Key_F5), self, activated=self.recheck).setWhatsThis(self.tr("Check again"))
        QShortcut(QKeySequence(Qt.Key.Key_Delete), self.prompt_list, activated=self.remove_prompt,
                  context=Qt.ShortcutContext.WidgetShortcut).setWhatsThis(self.tr("Remove the selected prompt"))
        screen_fit.fit(self, QSize(900, 480))
        screen_fit.keep_on_screen(self)

    def _button(self, label: str, name: str, slot) -> QPushButton:
        button = QPushButton(label)
        button.setObjectName(name)
        button.clicked.connect(lambda _=False: slot())
        return button

    # --- Qt overrides --------------------------------------------------------------------------------------
    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.focusWidget() is self.prompt_edit:
            self.add_prompt()
            return
        super().keyPressEvent(event)

    def done(self, result: int) -> None:
        self._cpu_timer.stop()
        self._fixing = False
        super().done(result)
