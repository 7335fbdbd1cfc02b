"""The parts of a message in the chat view that are not its text: the role line (role, ‹ n/m ›, status,
the "not sent to the model" mark), the stats tooltip, the welcome page and the link confirmation.

Their words go through Qt's translation (context "message_parts"); their colours come from the theme, so
the chat view draws them again in the new colours when the palette changes."""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QMessageBox, QWidget

from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.words import texts
from eagle_chat.ui.chat import message_links
from eagle_chat.ui.words.i18n import translate

# "EagleChat" is the app's name: never translated, so not marked.
ROLE_LABELS = {"user": QT_TRANSLATE_NOOP("message_parts", "You"), "assistant": "EagleChat",
               "system": QT_TRANSLATE_NOOP("message_parts", "System")}
STATUS_NOTES = {
    "stopped": QT_TRANSLATE_NOOP("message_parts", "stopped"),
    "interrupted": QT_TRANSLATE_NOOP("message_parts", "interrupted — the app or its engine stopped before this reply finished"),
    "failed": QT_TRANSLATE_NOOP("message_parts", "failed"),
    "streaming": QT_TRANSLATE_NOOP("message_parts", "writing…"),
}
MODE_NAMES = {"speculative": QT_TRANSLATE_NOOP("message_parts", "speculative"),
              "baseline": QT_TRANSLATE_NOOP("message_parts", "baseline")}
MEMORY_START = QT_TRANSLATE_NOOP("message_parts", "Earlier messages are not sent to the model")


def welcome_html() -> str:
    """The page an empty conversation shows."""
    keys = translate("message_parts", "Type a message below and press {enter} ({shift_enter} for a new line, "
                                      "{esc} stops a reply).")
    return "<h2>EagleChat</h2><p>" + html.escape(keys).format(
        enter="<b>Enter</b>", shift_enter="<b>Shift+Enter</b>", esc="<b>Esc</b>") + "</p>"


def role_label(role: str) -> str:
    label = ROLE_LABELS.get(role)
    return translate("message_parts", label) if label is not None else role


def status_note(status: str) -> str:
    note = STATUS_NOTES.get(status)
    return translate("message_parts", note) if note is not None else ""


def head_html(message: Message, conversation: Conversation | None, *, memory_start: int | None,
              colours: theme.Colours | None = None) -> str:
    """The role line above a message; above it, the mark where the model's context began."""
    c = colours or theme.colours()
    colour = c.user_role if message.role == "user" else c.assistant_role
    note = status_note(message.status)
    head = (f'<p><b style="color:{colour};">{html.escape(role_label(message.role))}</b>'
            + message_links.switcher(conversation, message))
    if message.id is not None and message.id == memory_start:
        mark = html.escape(translate("message_parts", MEMORY_START))
        head = f'<p align="center" style="color:{c.muted};">— {mark} ↑ —</p>' + head
    if note:
        head += f' <span style="color:{c.warning};">({html.escape(note)})</span>'
    return head + "</p>"


def foot_html(message: Message, conversation: Conversation | None, colours: theme.Colours) -> str:
    """The line under a message: its figures, why it failed, and its links ("" when there is none)."""
    parts = [html.escape(texts.stats_summary(message.stats))] if message.stats is not None else []
    if message.error:
        parts.append(error_html(message.error, colours))
    parts += message_links.action_links(conversation, message)
    return f'<p style="color:{colours.muted};">{" · ".join(parts)}</p>' if parts else ""


def placeholder_html(colours: theme.Colours | None = None) -> str:
    """What a reply shows before its first word."""
    return f'<p style="color:{(colours or theme.colours()).faint};">…</p>'


def error_html(error: str, colours: theme.Colours | None = None) -> str:
    """Why a reply failed, under it."""
    return f'<span style="color:{(colours or theme.colours()).danger};">{html.escape(error)}</span>'


def confirm_link(parent: QWidget, target: str) -> bool:
    """Ask before opening a link from the model's reply; True to open it."""
    answer = QMessageBox.question(
        parent,
        translate("message_parts", "Open link?"),
        translate("message_parts", "The model's reply links to:\n\n{target}\n\nOpen it in your browser?")
        .format(target=target),
        QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Open


def stats_tooltip(message: Message) -> str:
    s = message.stats
    mode = translate("message_parts", MODE_NAMES[s.mode]) if s.mode in MODE_NAMES else s.mode
    if s.mode == "speculative":
        mode = translate("message_parts", "{mode} (K={k})").format(mode=mode, k=s.num_assistant_tokens)
    rows = [
        (translate("message_parts", "Mode"), mode),
        (translate("message_parts", "Device"), s.device),
        (translate("message_parts", "Tokens/s"), f"{s.tokens_per_s:.1f}"),
        (translate("message_parts", "Time to first token"),
         translate("message_parts", "{ms:.0f} ms").format(ms=s.ttft_ms)),
        (translate("message_parts", "Time per token"), translate("message_parts", "{ms:.2f} ms").format(ms=s.tpot_ms)),
        (translate("message_parts", "Generated / prompt tokens"), f"{s.generated_tokens} / {s.input_tokens}"),
    ]
    if s.thinking_tokens is not None:
        rows.append((translate("message_parts", "Thinking / answer tokens"),
                     f"{s.thinking_tokens} / {s.answer_tokens}"))
    if s.mode == "speculative":
        rows.append((translate("message_parts", "Accepted / drafted"), f"{s.accepted_tokens} / {s.draft_tokens}"))
        if s.acceptance is not None:
            rows.append((translate("message_parts", "Acceptance"), f"{s.acceptance:.0%}"))
        if s.tokens_per_step is not None:
            rows.append((translate("message_parts", "Tokens per step"), f"{s.tokens_per_step:.2f}"))
    row = translate("message_parts", "{label}: {value}", "a row of the reply's statistics tooltip")
    return "\n".join(row.format(label=label, value=value) for label, value in rows)


def insert_blocks(cursor: QTextCursor, fragment: str) -> None:
    """Insert HTML as blocks of its own at ``cursor``, not run into the block the cursor is in."""
    if cursor.block().length() > 1:  # not an empty block: start a plain new one
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
    cursor.insertHtml(fragment)
