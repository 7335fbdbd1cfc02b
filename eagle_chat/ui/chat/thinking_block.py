"""The thinking block of a reply in the chat view: "Thinking…" while the model thinks, with its thoughts
streaming under it; "▸ Thought for 3.2 s" once the answer begins, expanded by a click.

While the model thinks, new thoughts are *appended* to the document (no redraw of what is there: a long
think would otherwise cost more at every update, holding the GIL the tokens need), and only its last
``LIVE_LINES`` lines are kept on screen: painting a frame costs in proportion to its blocks, so an
unbounded live block (Qwen3 can think for thousands of tokens) would slow every update down. The block is
drawn whole only when it changes shape (the answer begins, a click); expanded, it shows every thought.
"""

from __future__ import annotations

import html
import time

from PySide6.QtGui import QColor, QTextBlockFormat, QTextCharFormat, QTextCursor

from eagle_chat.core.storage.conversation import Message
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.chat.tool_blocks import ToolBlocks
from eagle_chat.ui.words.i18n import translate

LINK_PREFIX = "thinking:"
LIVE_LINES = 40  # lines of thoughts shown while thinking; older ones are taken off in batches of
LIVE_TRIM = 20  # this many, so trimming is rare


def thinking_colour() -> str:
    """Thoughts are secondary text: the theme's muted colour (readable on a light or dark page)."""
    return theme.colours().muted


class ThinkingBlocks:
    """Which blocks are expanded, how long each reply thought, and their HTML / live drawing."""

    def __init__(self) -> None:
        self.expanded: set[int] = set()
        self.tools = ToolBlocks()  # an agent reply's tool calls come after its thinking, before its answer
        self._seen_answer: dict[int, float] = {}  # reply id -> seconds it thought, as seen live

    def clear(self) -> None:
        self.expanded.clear()
        self._seen_answer.clear()

    def toggle(self, message_id: int) -> None:
        self.expanded ^= {message_id}

    @staticmethod
    def live(message: Message) -> bool:
        """True while the reply is still thinking (its answer has not begun)."""
        return message.status == "streaming" and bool(message.thinking) and not message.content

    def seconds(self, message: Message) -> float | None:
        """How long the reply thought: the engine's figure once the reply is done, else as seen here."""
        if message.stats is not None and message.stats.thinking_ms is not None:
            return message.stats.thinking_ms / 1000.0
        if message.id not in self._seen_answer and message.content and message.status == "streaming":
            self._seen_answer[message.id] = max(time.time() - message.created, 0.0)
        return self._seen_answer.get(message.id)

    def html(self, message: Message) -> str:
        """What comes before ``message``'s answer: its thinking block and its tool calls."""
        return self._thinking_html(message) + self.tools.html(message)

    def _thinking_html(self, message: Message) -> str:
        """The block for ``message`` ("" if it has no thinking); while live, only its header (the thoughts
        are appended by :meth:`append_live`)."""
        if not message.thinking:
            return ""
        colour = thinking_colour()
        if self.live(message):
            thinking = translate("ThinkingBlocks", "Thinking…")
            return f'<p style="color:{colour};"><i>{html.escape(thinking)}</i></p>'
        open_ = message.id in self.expanded or not message.content  # nothing else to show: show the thoughts
        seconds = self.seconds(message)
        if seconds is not None:
            label = translate("ThinkingBlocks", "Thought for {seconds:.1f} s").format(seconds=seconds)
        else:
            label = translate("ThinkingBlocks", "Thoughts")
        header = (f'<p><a href="{LINK_PREFIX}{message.id}" style="color:{colour};'
                  f'text-decoration:none;">{"▾" if open_ else "▸"} {html.escape(label)}</a></p>')
        if not open_:
            return header
        body = html.escape(message.thinking).replace("\n", "<br>")
        return (header + f'<p style="color:{colour}; margin-left:14px;">{body}</p>')

    @staticmethod
    def append_live(cursor: QTextCursor, text: str, *, first: bool, start: int) -> None:
        """Append thoughts at ``cursor`` (the end of the reply's frame): in a block of their own the first
        time, then running on. ``start`` is where the block begins (the end of its header): the oldest
        lines past ``LIVE_LINES`` are taken off there."""
        char = QTextCharFormat()
        char.setForeground(QColor(thinking_colour()))
        if first:
            block = QTextBlockFormat()
            block.setLeftMargin(14)
            cursor.insertBlock(block, char)
        cursor.insertText(text, char)
        oldest = cursor.document().findBlock(start + 1)
        lines = cursor.block().blockNumber() - oldest.blockNumber() + 1
        if lines > LIVE_LINES + LIVE_TRIM:
            trim = QTextCursor(cursor.document())
            trim.setPosition(oldest.position())
            trim.movePosition(QTextCursor.MoveOperation.NextBlock, QTextCursor.MoveMode.KeepAnchor, lines - LIVE_LINES)
            trim.removeSelectedText()
