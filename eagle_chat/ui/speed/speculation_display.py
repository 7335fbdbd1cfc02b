"""SpeculationDisplay: what the main window shows of the speculation itself.

- The line that says whether the next reply will be speculative, and why not (facts from
  :mod:`eagle_chat.core.generation.outlook`, sentence from ``ui/words/texts.py``), refreshed whenever one of its
  facts may have changed — the agent mode's tool use among them (its "Required" grammar can turn drafting off).
  Where Automatic decides, it names what ``speculation.choose`` picks for the message as typed (the kind of
  work, the conversation's documents, this pair's measured replies in the engine's record file) and why;
  typing refreshes it once the keys rest.
- The acceptance chart for the reply on screen: live while it streams, then GenAI's final record; after a
  branch switch or a delete, the record of the reply then shown.
- The Speculation list, kept in step with the EAGLE-3 button (:class:`MethodPin`, ``pin``): the method the next
  reply asks for.
- "Show drafted tokens": a checkable action shared by the side panel's check box and the comparison's,
  remembered in the settings, switching the chat view's tint.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton

from eagle_chat import paths
from eagle_chat.core.generation import outlook, speculation
from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.ui.runtime.reply_handle import ReplyHandle
from eagle_chat.ui.speed.method_pin import MethodPin
from eagle_chat.ui.words import texts


def bind_toggle(button: QAbstractButton, action: QAction) -> None:
    """Keep a checkable button and a checkable action in step (either may be clicked)."""
    button.setChecked(action.isChecked())
    button.toggled.connect(action.setChecked)
    action.toggled.connect(button.setChecked)


def max_accepted(settings: GenerationSettings) -> int:
    """The most drafted tokens a step can accept with these settings: the tree's depth, or K."""
    return settings.tree_depth or settings.num_assistant_tokens


class SpeculationDisplay(QObject):
    """Built by the main window after its panes; wires itself to the controller and the controls."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        side = window.side
        self.pin = MethodPin(window)  # first: the window's generation_settings reads it
        self.line, self.acceptance, self.tint = side.next_reply, side.acceptance, window.chat.drafted
        self.drafted_action = QAction(self.tr("Show drafted tokens"), window, checkable=True)
        self.drafted_action.setChecked(bool(window.settings.show_drafted_tokens))
        self.tint.set_enabled(self.drafted_action.isChecked())
        bind_toggle(side.drafted_toggle, self.drafted_action)
        self.drafted_action.toggled.connect(self._on_drafted)
        self.outlook: outlook.Outlook | None = None
        self._agent = None  # the agent mode (AgentLoop), built after this: see follow
        self._live: tuple[ReplyHandle, int] | None = None  # (handle, K) of the conversation reply in flight
        self._live_method: str | None = None  # the method pinned for it (None: chosen as it starts)
        self._line_timer = QTimer(self)  # facts change in bursts (a load sets several): one refresh after
        self._line_timer.setSingleShot(True)
        self._line_timer.setInterval(0)
        self._line_timer.timeout.connect(self.refresh_line)
        self._typing_timer = QTimer(self)  # the message as typed decides Automatic's pick: once the keys rest
        self._typing_timer.setSingleShot(True)
        self._typing_timer.setInterval(300)
        self._typing_timer.timeout.connect(self._line_timer.start)
        window.prompt.textChanged.connect(self._typing_timer.start)
        self._documents = None  # the conversation documents (whether a reply is given passages): see follow
        self._record: speculation.Record | None = None  # the engine's record of this pair, read when it changes
        c = self.controller
        c.sig_reply_started.connect(self._on_started)
        c.sig_reply_finished.connect(self._on_finished)
        c.sig_conversation_opened.connect(self._on_opened)
        c.sig_path_changed.connect(self._on_path_changed)  # a branch switch or a delete shows another reply
        for signal in (c.sig_loaded, c.sig_state, c.sig_reply_finished, c.sig_conversation_opened,
                       window.model_bar.sig_speculative_toggled, window.model_bar.sig_k_changed,
                       window.options.sig_changed, self.pin.sig_changed):
            signal.connect(lambda *_: self._line_timer.start())
        self._line_timer.start()  # once the window is built: its generation_settings read the pin above

    def follow(self, agent, documents) -> None:
        """Read the next reply's settings as the agent mode will send them (tool use "Required" holds the first
        step to a grammar, which a reduced-vocabulary draft cannot draft under), and whether the conversation's
        documents will give it passages; refresh when either changes."""
        self._agent, self._documents = agent, documents
        agent.sig_offer_changed.connect(self._line_timer.start)
        documents.sig_grounding_changed.connect(self._line_timer.start)
        self._line_timer.start()

    def refresh_line(self) -> None:
        """Work out the next reply's outlook from what the window would send now."""
        w, c = self.window, self.controller
        loaded = c.loaded
        spec = loaded.spec if loaded else None
        settings = self._agent.preview(w.generation_settings()) if self._agent else w.generation_settings()
        self.outlook = outlook.next_reply(
            loaded=loaded is not None and c.state != "empty",
            loading=c.state == "loading",
            has_draft=bool(loaded and loaded.has_draft),
            device=loaded.device if loaded else "",
            draft_device=loaded.draft_device if loaded else None,
            settings=settings,
            sampling_asked=w.options.sampling.isChecked(),
            history_tokens=self._history_tokens(),
            npu_prompt_limit=npu.max_prompt_len if (npu := getattr(spec, "npu", None)) is not None else None,
            draft_reduced_vocab=bool(loaded and loaded.draft_reduced_vocab),
            choice=self._choice(loaded, settings),
        )
        self.line.setText(texts.next_reply_line(self.outlook))

    def _choice(self, loaded, settings: GenerationSettings) -> speculation.Choice | None:
        """What Automatic picks for the message in the box (as the engine will: ``Engine.choose``); None where it
        does not decide, or before anything is typed in a conversation without documents."""
        typed = self.window.prompt.toPlainText()
        grounded = bool(self._documents is not None and self._documents.grounded)
        if (loaded is None or settings.method != speculation.AUTO or not settings.speculative or settings.do_sample
                or not typed.strip() and not grounded):
            return None
        if self._record is None or self._record.key != loaded.record_key:
            self._record = (speculation.Record(path=paths.speculation_record_file(), key=loaded.record_key)
                            if loaded.record_key else None)
        conversation = self.controller.conversation
        messages = (conversation.history() if conversation else []) + [{"role": "user", "content": typed}]
        return speculation.choose(messages, loaded.methods, k=settings.num_assistant_tokens, tools=settings.tools,
                                  record=self._record, grounded=grounded)

    def _history_tokens(self) -> int | None:
        """Tokens the open conversation already holds: its last reply's prompt plus the reply."""
        conversation = self.controller.conversation
        replies = [m for m in (conversation.messages if conversation else []) if m.stats is not None]
        return replies[-1].stats.input_tokens + replies[-1].stats.generated_tokens if replies else None

    def _on_drafted(self, on: bool) -> None:
        self.tint.set_enabled(on)
        self.window.binder.update(show_drafted_tokens=on)

    def _on_started(self, handle: ReplyHandle) -> None:
        settings = handle.settings
        if handle.message is None:
            return  # comparisons and tuning show their own figures
        if handle.mode != "speculative":
            self._live = None
            self.acceptance.show_steps(None, max_accepted(settings), now=True)
            return
        self._live = (handle, max_accepted(settings))
        self._live_method = None if settings.method == speculation.AUTO else settings.method  # a pin: known now
        self.tint.set_live(handle.message.id, handle.steps)
        self.acceptance.show_steps(handle.steps, self._live[1], now=True, method=self._live_method)
        handle.sig_steps.connect(lambda record: self._on_steps(handle, record))

    def _on_steps(self, handle: ReplyHandle, record) -> None:
        if self._live is not None and self._live[0] is handle:
            self.acceptance.show_steps(record, self._live[1], method=self._live_method)

    def _on_finished(self, message, result) -> None:
        self._record = None  # the engine added this reply to its record: read it again
        self.tint.set_live(message.id, None)  # the final record (message.stats) from here on
        self._live = None
        self._show_stats(result.stats if result is not None else message.stats)

    def _on_path_changed(self, conversation) -> None:
        if self._live is None:  # a regenerate's own steps are on their way
            self._on_opened(conversation)

    def _on_opened(self, conversation) -> None:
        replies = [m for m in (conversation.messages if conversation else []) if m.stats is not None]
        self._show_stats(replies[-1].stats if replies else None)

    def _show_stats(self, stats) -> None:
        if stats is None or stats.mode != "speculative" or stats.steps is None:
            self.acceptance.show_steps(None, stats.max_accepted if stats else 5, now=True)
            return
        # After a stop GenAI's counts can include drafts the target never verified: not worth comparing.
        genai = None if stats.stopped else stats.accepted_tokens
        self.acceptance.show_steps(stats.steps, stats.max_accepted, genai, now=True, method=stats.speculation)
