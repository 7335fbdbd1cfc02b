"""ChatView: the conversation as one rich-text document, one frame per message.

While a reply streams, only the end of it that can still change is redrawn (settled blocks are drawn
once), and never more often than the previous render's cost allows, so a long reply does not stall the
GUI thread, nor the tokens, which need the GIL the GUI thread holds while it renders. Links from the
model are opened only after the user confirms; nothing (images, style sheets) is ever loaded from a URL.
Colours come from the theme: when the palette changes (View → Theme) every message is drawn again in the
new colours, those in view first and the rest between frames, as a conversation is opened.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QPoint, QTimer, QUrl, Signal
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextFrameFormat
from PySide6.QtWidgets import QTextBrowser, QWidget

from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.chat.follow_end import FollowEnd
from eagle_chat.ui.chat import anchors, message_links, message_parts, source_links
from eagle_chat.ui.chat.background_render import BackgroundRender
from eagle_chat.ui.chat.markdown_html import render_markdown, stable_prefix_end, warm_up
from eagle_chat.ui.chat.draft_tint import ChatTint
from eagle_chat.ui.chat.thinking_block import ThinkingBlocks
from eagle_chat.ui.math.view_math import ViewMath

RENDER_COST_FACTOR = 8.0
FIRST_DRAW_CHARS = 2_500  # newest messages drawn at once on opening (about a screen); the rest follow
MIN_RENDER_INTERVAL_S = 0.05
@dataclass
class _Streamed:
    """How much of the reply in flight is drawn for good: ``content[:chars]`` is in the document, taking
    ``length`` positions from the start of its frame, and holds ``code_blocks``."""

    message_id: int
    chars: int = 0
    length: int = 0
    code_blocks: list[str] = field(default_factory=list)
    thinking_live: bool = False  # drawn as still thinking: ``thinking_chars`` of its thoughts are shown
    thinking_chars: int = 0
    math_pending: bool = False  # the drawn part shows formulas as source until their images are made


class ChatView(QTextBrowser):
    """Renders a Conversation; ``update_message`` re-renders one message (the reply in flight)."""

    sig_link_refused = Signal(str)
    """A link was clicked but not opened (unsafe scheme, or the user said no)."""
    sig_message_action = Signal(str, int)
    """A message's link was clicked: the action (edit, regenerate, continue, delete, previous, next) and
    the message id."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("chatView")
        self.setAccessibleName(self.tr("Conversation"))
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(lambda url: anchors.follow(self, url))
        self._frames: dict[int, object] = {}
        self._messages: dict[int, Message] = {}
        self._conversation: Conversation | None = None  # for the alternatives of each message
        self._drawn: dict[int, theme.Colours] = {}  # message id -> the colours it was last drawn in
        self.thinking = ThinkingBlocks()
        self._code_blocks: dict[int, list[str]] = {}
        self._pending: Message | None = None
        self._streamed: _Streamed | None = None
        self._next_render = 0.0
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.timeout.connect(self._render_pending)
        self._unhighlighted: dict[int, Message] = {}  # finished replies whose code is not coloured yet
        self._highlight_timer = QTimer(self)
        self._highlight_timer.setSingleShot(True)
        self._highlight_timer.timeout.connect(self._highlight_finished)
        self.confirm_links = True
        self.drafted = ChatTint(self)  # tints text from accepted draft tokens after each drawn stretch
        self._background = BackgroundRender(self)  # older messages and code colours, between frames
        self._memory_start: int | None = None  # id of the first message the model's context still held
        self.math = ViewMath(self, self._math_ready)  # formulas as images, drawn again once made
        self.follow = FollowEnd(self)  # at the end it stays at the end, through reflows and older messages
        warm_up()  # while the window is built, not when the first code block is drawn
        self.show_conversation(None)

    # --- public API -----------------------------------------------------------------------------
    def show_conversation(self, conversation: Conversation | None) -> None:
        """Show ``conversation``: its newest messages at once, uncoloured; older messages, then code
        colours, are drawn between frames (``loading()`` says whether that is still going on)."""
        self._background.cancel()
        for table in (self._frames, self._messages, self._drawn, self._code_blocks, self._unhighlighted):
            table.clear()
        self._pending = self._streamed = None
        self._conversation = conversation
        self.clear()
        if conversation is None or not conversation.messages:
            self.setHtml(message_parts.welcome_html())
            self._welcome = True
            return
        self._welcome = False
        memory = conversation.memory_start()
        self._memory_start = memory.id if memory is not None else None
        messages = list(conversation.messages)
        first, chars = len(messages), 0
        while first > 0 and (chars < FIRST_DRAW_CHARS or len(messages) - first < 2):
            first -= 1
            chars += len(messages[first].content)
        for message in messages[first:]:  # uncoloured: Pygments is the costliest part of a render
            self.append_message(message, highlight=False)
        for message in reversed(messages[first:]):
            self._background.add(self._colour, message)
        for message in reversed(messages[:first]):  # older ones above, newest first, coloured at once
            self._background.add(self._prepend, message)

    def showing_welcome(self) -> bool:
        """The page of an empty conversation is shown (no message yet)."""
        return self._welcome

    def loading(self) -> bool:
        """True while older messages or code colours of the open conversation are still being drawn."""
        return self._background.busy()

    def append_message(self, message: Message, *, highlight: bool | None = None) -> None:
        if getattr(self, "_welcome", False):
            self.clear()
            self._welcome = False
        previous = next(reversed(self._messages.values()), None)
        if previous is not None and message_links.offers_continue(previous):
            self._render(previous)  # no longer the last message: no more "Continue" under it
        self._insert(message, at_start=False, highlight=highlight)
        self._scroll_to_end()

    def update_message(self, message: Message) -> None:
        """Re-render ``message`` soon: at once if the last render was cheap, else a little later."""
        if message.id not in self._frames:
            return
        self._pending = message
        delay_ms = max(0.0, (self._next_render - time.perf_counter()) * 1000.0)
        if delay_ms == 0.0:
            self._render_pending()
        elif not self._render_timer.isActive():
            self._render_timer.start(int(delay_ms) + 1)

    def finish_message(self, message: Message) -> None:
        """Final render of a reply (all its text, stats footer, copy links), whatever the throttle says.

        Colouring its code blocks (Pygments: ~13 ms for a 256-token reply here, with the GIL held, so it
        would delay the next reply's tokens too) follows on the next turn of the event loop: the reply
        reads as finished, and the next one can start, without waiting for it."""
        self._render_timer.stop()
        self._pending = None
        if message.id not in self._frames:
            return
        self._render(message, highlight=False)
        if self._code_blocks.get(message.id):
            self._unhighlighted[message.id] = message
            self._highlight_timer.start(0)
        self._follow_memory_start()
        self._scroll_to_end()

    def redraw(self) -> None:
        """Draw every message again (a display option such as the drafted-token tint changed)."""
        at_end = self._at_end()
        for message in list(self._messages.values()):
            self._render(message)
        if at_end:
            self._scroll_to_end()

    def message_text(self, message_id: int) -> str:
        """A message's answer (what Copy copies): never its thinking (nor formula images: their source)."""
        return message.content if (message := self._messages.get(message_id)) else ""

    def message(self, message_id: int) -> Message | None:
        return self._messages.get(message_id)

    def code_blocks(self, message_id: int) -> list[str]:
        """The code blocks of a message as drawn (what its Copy links copy)."""
        return self._code_blocks.get(message_id, [])

    # --- internals ----------------------------------------------------------------------------------
    def _insert(self, message: Message, *, at_start: bool, highlight: bool | None = None) -> None:
        """A frame for ``message`` at the end, or above all others (an older message drawn later)."""
        bar = self.verticalScrollBar()
        at_end, offset = self._at_end(), bar.maximum() - bar.value()
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.Start if at_start else QTextCursor.MoveOperation.End)
        frame_format = QTextFrameFormat()
        frame_format.setBottomMargin(10)
        frame_format.setPadding(4)
        frame = cursor.insertFrame(frame_format)
        self._frames[message.id] = frame
        self._messages[message.id] = message
        self._render(message, highlight=highlight)
        if at_start:  # keep what the reader is looking at where it is
            bar.setValue(bar.maximum() if at_end else bar.maximum() - offset)

    def _prepend(self, message: Message) -> None:
        self._insert(message, at_start=True)

    def _colour(self, message: Message) -> None:
        """Draw a finished message again with its code coloured (a background job)."""
        if self._code_blocks.get(message.id):
            self._render_in_place(message)

    def _recolour(self, message: Message) -> None:
        """Draw a message again if the theme changed since it was drawn (a background job)."""
        if self._drawn.get(message.id) is not theme.colours():
            self._render_in_place(message)

    def _render_in_place(self, message: Message) -> None:
        """Draw a finished message again, keeping the reader's place."""
        if self._messages.get(message.id) is message and message.status != "streaming":
            bar = self.verticalScrollBar()
            at_end, offset = self._at_end(), bar.maximum() - bar.value()
            self._render(message)
            bar.setValue(bar.maximum() if at_end else bar.maximum() - offset)

    def _palette_changed(self) -> None:
        """The theme changed: queue every message to be drawn again, those in view first, then the nearer
        to the view the sooner; the reply in flight is drawn whole again at its next update."""
        self._streamed = None
        top = self.cursorForPosition(QPoint(0, 0)).position()
        bottom = self.cursorForPosition(QPoint(0, self.viewport().height())).position()

        def distance(frame) -> int:  # in characters from the part of the document in view (0: in view)
            return max(frame.firstPosition() - bottom, top - frame.lastPosition(), 0)

        for message_id, _ in sorted(self._frames.items(), key=lambda item: distance(item[1])):
            self._background.add(self._recolour, self._messages[message_id])

    def _follow_memory_start(self) -> None:
        """Move the "not sent to the model" mark to where the latest reply's context began."""
        memory = self._conversation.memory_start() if self._conversation is not None else None
        new = memory.id if memory is not None else None
        if new == self._memory_start:
            return
        old, self._memory_start = self._memory_start, new
        for message_id in (old, new):
            if message_id in self._frames:
                self._render(self._messages[message_id])

    def _highlight_finished(self) -> None:
        pending, self._unhighlighted = self._unhighlighted, {}
        at_end = self._at_end()
        for message_id, message in pending.items():
            if self._messages.get(message_id) is message and message.status != "streaming":
                self._render(message)
        if at_end:
            self._scroll_to_end()

    def _render_pending(self) -> None:
        message, self._pending = self._pending, None
        if message is None:
            return
        at_end = self._at_end()
        started = time.perf_counter()
        if message.status == "streaming":
            self._render_streaming(message)
        else:
            self._render(message)
        cost = time.perf_counter() - started
        # Re-rendering holds the GIL, which OpenVINO's streaming thread needs for every token: spend at
        # most ~1/8 of the time on it, and never refresh faster than the eye needs.
        self._next_render = time.perf_counter() + max(RENDER_COST_FACTOR * cost, MIN_RENDER_INTERVAL_S)
        if at_end:
            self._scroll_to_end()

    def _render_streaming(self, message: Message) -> None:
        """Draw a reply still being written: blocks that can no longer change are drawn once and kept;
        only the text after them is drawn again. A full redraw of a long reply at every update would
        hold the GIL (and so stall the tokens) longer and longer as the reply grows."""
        frame = self._frames[message.id]
        streamed = self._streamed
        live = self.thinking.live(message)
        if streamed is None or streamed.message_id != message.id or streamed.thinking_live != live:
            cursor = frame.firstCursorPosition()
            cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
            cursor.insertHtml(self._head(message) + self.thinking.html(message))
            streamed = self._streamed = _Streamed(message.id, 0, cursor.position() - frame.firstPosition(),
                                                  thinking_live=live)
        if live:  # only the new thoughts are drawn, after those already there
            cursor = QTextCursor(self.document())
            cursor.setPosition(frame.lastPosition())
            self.thinking.append_live(cursor, message.thinking[streamed.thinking_chars:],
                                      first=not streamed.thinking_chars, start=frame.firstPosition() + streamed.length)
            streamed.thinking_chars = len(message.thinking)
            return
        text = message.content
        prefix = f"copy-code:{message.id}:"
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()  # one change for the layout to catch up with, not three
        cursor.setPosition(frame.firstPosition() + streamed.length)
        cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        cut = stable_prefix_end(text, streamed.chars)
        if cut > streamed.chars:
            settled = render_markdown(text[streamed.chars:cut], code_link_prefix=prefix, highlight=False,
                                      first_code_index=len(streamed.code_blocks), math=self.math.style())
            start = cursor.position()
            message_parts.insert_blocks(cursor, settled.html)
            self.drafted.covered(message, frame, streamed.chars, cut, start, cursor.position())
            streamed.chars = cut
            streamed.length = cursor.position() - frame.firstPosition()
            streamed.code_blocks += settled.code_blocks
            streamed.math_pending |= settled.math_pending
        rest = render_markdown(text[streamed.chars:], code_link_prefix=prefix, highlight=False,
                               first_code_index=len(streamed.code_blocks), math=self.math.style())
        self.math.drawn(message.id, streamed.math_pending or rest.math_pending)
        start = cursor.position()
        message_parts.insert_blocks(cursor, rest.html if text else message_parts.placeholder_html())
        self.drafted.covered(message, frame, streamed.chars, len(text), start, cursor.position())
        cursor.endEditBlock()
        self._code_blocks[message.id] = streamed.code_blocks + rest.code_blocks

    def _render(self, message: Message, *, highlight: bool | None = None) -> None:
        if self._streamed is not None and self._streamed.message_id == message.id:
            self._streamed = None  # redrawn whole from here on
        frame = self._frames[message.id]
        colours = self._drawn[message.id] = theme.colours()
        rendered = render_markdown(
            message.content,
            code_link_prefix=f"copy-code:{message.id}:",
            # highlighted once, when the reply is complete
            highlight=message.status != "streaming" if highlight is None else highlight, colours=colours,
            math=self.math.style(),
        )
        self._code_blocks[message.id] = rendered.code_blocks
        self.math.drawn(message.id, rendered.math_pending)
        body = rendered.html if message.content or message.thinking else message_parts.placeholder_html(colours)
        body = source_links.link_citations(body, message) + source_links.sources_html(message, colours)
        head = self._head(message, colours) + self.thinking.html(message)
        foot = message_parts.foot_html(message, self._conversation, colours)

        cursor = frame.firstCursorPosition()
        cursor.beginEditBlock()
        cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertHtml(head + body + foot)
        if message.stats is not None:
            tip = QTextCharFormat()
            tip.setToolTip(message_parts.stats_tooltip(message))
            cursor.setPosition(frame.firstPosition())
            cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(tip)
        body = frame.firstCursorPosition().block().next()  # after the role line
        self.drafted.covered(message, frame, 0, len(message.content), body.position(), frame.lastPosition())
        cursor.endEditBlock()

    def _math_ready(self, message_id: int) -> None:
        """Images were made for formulas this message shows as source: draw it again."""
        message = self._messages.get(message_id)
        if message is not None and message.status == "streaming":
            self._streamed = None if self._streamed and self._streamed.math_pending else self._streamed
            self.update_message(message)  # ^ the settled part too
        elif message is not None:
            self._background.add(self._render_in_place, message)

    def _head(self, message: Message, colours: theme.Colours | None = None) -> str:
        return message_parts.head_html(message, self._conversation, memory_start=self._memory_start,
                                       colours=colours)

    def toggle_thinking(self, message_id: int) -> None:
        if (message := self._messages.get(message_id)) is None:
            return
        self.thinking.toggle(message_id)
        if message.status == "streaming":
            self._streamed = None  # the next update redraws the reply with the block as it is now
            self.update_message(message)
        else:
            self._render(message, highlight=True)

    def _at_end(self) -> bool:
        return (bar := self.verticalScrollBar()).value() >= bar.maximum() - 4

    def _scroll_to_end(self) -> None:
        (bar := self.verticalScrollBar()).setValue(bar.maximum())

    # --- Qt overrides ---------------------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:  # Qt override
        if theme.switched(self, event):  # View → Theme (cf. theme.switched: inside the window, a PaletteChange)
            self._palette_changed()
        return super().event(event)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().paintEvent(event)
        self.drafted.paint(event.rect())  # the drafted-token tint, over the text

    def createMimeDataFromSelection(self):  # noqa: N802 - Qt override
        """Selected formulas are copied as their LaTeX source, not as blank image characters."""
        return self.math.with_sources(self.textCursor(), super().createMimeDataFromSelection())

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802 - Qt override
        """Formula images (``math:``) only: never anything a reply points at (remote images, local files)."""
        return self.math.resource(url)
