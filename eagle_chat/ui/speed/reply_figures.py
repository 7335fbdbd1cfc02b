"""ReplyFigures: the side panel's speed chart and stats line follow the conversation on screen.

- Each reply of the open conversation draws a line in the speed chart as it streams; when it ends, its
  figures go with the line (the chart's tooltip). Opening another conversation, or a new one, takes the
  conversation's lines off (API requests keep theirs: ui/server draws them) and draws the opened one's recent
  replies at their mean speed (after a restart too), and a deleted reply's line goes with it: the chart shows
  this conversation's recent replies, never the previous one's.
- The stats line shows the figures of the last reply on the visible path, whatever changed it: a reply
  ending, a branch switch, a delete, a regenerate, opening a conversation ("No reply yet" without one).
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from eagle_chat.core.generation import speculation
from eagle_chat.ui.runtime.reply_handle import ReplyHandle
from eagle_chat.ui.speed.speed_chart import MAX_SERIES
from eagle_chat.ui.words import method_texts, texts
from eagle_chat.ui.words.i18n import translate


def last_figures(conversation):
    """The stats of the last reply on ``conversation``'s visible path that has them, or None."""
    messages = conversation.messages if conversation is not None else []
    return next((m.stats for m in reversed(messages) if m.stats is not None), None)


class ReplyFigures(QObject):
    """Built by the main window after its side panel; wires itself to the controller."""

    def __init__(self, window):
        super().__init__(window)
        self.chart, self.label, self.controller = window.chart, window.stats_label, window.controller
        self._conversation_id: int | None = None
        self._lines: dict[object, int] = {}  # a reply's handle (or a stored reply's key) -> message id, on the chart
        c = self.controller
        c.sig_reply_started.connect(self._on_started)
        c.sig_reply_finished.connect(self._on_finished)
        c.sig_path_changed.connect(self._on_path_changed)
        c.sig_conversation_opened.connect(self._on_opened)

    def show_visible(self) -> None:
        """The stats line: the last visible reply's figures."""
        stats = last_figures(self.controller.conversation)
        text = texts.stats_summary(stats) if stats is not None else translate("SidePanel", "No reply yet")
        self.label.setText(text)
        self.label.setToolTip(text if stats is not None else "")

    # --- slots ---------------------------------------------------------------------------------------
    def _on_started(self, handle: ReplyHandle) -> None:
        if handle.message is None:
            return  # comparisons, tuning and API requests chart elsewhere; a prefill draws nothing
        self._lines[handle] = handle.message.id
        # The line is named by the method pinned, else by the mode ("EAGLE-3", "baseline"); when the reply ends,
        # by the method it ran with
        mode, settings, chart = handle.mode, handle.settings, self.chart
        pinned = mode == "speculative" and settings.method not in (speculation.AUTO, speculation.OFF)
        chart.begin(handle, mode, method_texts.name(settings.method) if pinned else None)
        handle.sig_rate_points.connect(lambda points: chart.add_points(handle, points))

    def _on_finished(self, message, result) -> None:
        key = next((k for k, m in self._lines.items() if message is not None and m == message.id), None)
        if key is not None:
            self.chart.finish(key, result.stats if result is not None else None)
            if result is not None and (name := method_texts.line_name(result.stats)) is not None:
                self.chart.rename(key, name)
        self.show_visible()

    def _on_path_changed(self, conversation) -> None:
        kept = {m.id for m in conversation.all_messages} if conversation is not None else set()
        for key in [k for k, m in self._lines.items() if m not in kept]:
            del self._lines[key]
            self.chart.remove(key)
        self.show_visible()

    def _on_opened(self, conversation) -> None:
        opened = conversation.id if conversation is not None else None
        if opened != self._conversation_id:
            for key in self._lines:
                self.chart.remove(key)
            self._lines.clear()
            self._conversation_id = opened
            self._draw_stored(conversation)
        self.show_visible()

    def _draw_stored(self, conversation) -> None:
        """An opened conversation's recent replies, each as a line at its mean speed from its first token to
        its end: their curves are not stored, and an empty chart under the last reply's figures (after a
        restart) read as if nothing had been measured."""
        if conversation is None:
            return
        replies = [m for m in conversation.messages if m.role == "assistant" and m.stats is not None]
        for message in replies[-MAX_SERIES:]:
            stats, key = message.stats, ("stored", message.id)
            start = stats.ttft_ms / 1000.0
            end = max(stats.duration_ms / 1000.0, start + 0.001)
            self.chart.begin(key, stats.mode, method_texts.line_name(stats))
            self.chart.add_points(key, [(start, stats.tokens_per_s), (end, stats.tokens_per_s)])
            self.chart.finish(key, stats)
            self._lines[key] = message.id
