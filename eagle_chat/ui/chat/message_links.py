"""The links under and beside a message in the chat view: Copy, Generate (a question left without a reply),
Edit / Regenerate, Continue, Delete, and
``‹ 2/3 ›`` between alternatives. A link is ``action:NAME:ID``; the view turns a click into
``sig_message_action(NAME, ID)``. Their colours follow the theme (secondary text; an arrow with nowhere to
go in the palette's disabled colour).
"""

from __future__ import annotations

import html

from PySide6.QtGui import QGuiApplication, QPalette

from eagle_chat.core.storage import branches
from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.words.i18n import translate

ACTION_PREFIX = "action:"


def link_style() -> str:
    return f"color:{theme.colours().muted};"


def copy_label() -> str:
    """The text of a message's Copy link (the chat view's tint skips the footer that holds it)."""
    return translate("message_links", "Copy")


def _link(action: str, message: Message, label: str, tip: str = "") -> str:
    title = f' title="{html.escape(tip, quote=True)}"' if tip else ""
    return f'<a href="{ACTION_PREFIX}{action}:{message.id}" style="{link_style()}"{title}>{label}</a>'


def action_links(conversation: Conversation | None, message: Message) -> list[str]:
    """The footer links of a finished ``message`` (none while it is being written)."""
    if message.status == "streaming" or message.id is None:
        return []
    links = []
    if message.content:
        links.append(f'<a href="copy-message:{message.id}" style="{link_style()}">{html.escape(copy_label())}</a>')
    last = conversation is not None and bool(conversation.messages) and conversation.messages[-1] is message
    if message.role == "user":
        if last:  # its reply was deleted (or never came): nothing else would answer it
            links.append(_link("generate", message, html.escape(translate("message_links", "Generate")),
                               translate("message_links", "Answer this message (Ctrl+R)")))
        links.append(_link("edit", message, html.escape(translate("message_links", "Edit")),
                           translate("message_links", "Edit and send again; the current version is kept")))
    elif message.role == "assistant":
        repeated = branches.repeats(conversation, message) if conversation is not None else None
        if repeated is not None:
            links.insert(0, html.escape(translate(
                "message_links", "Same as version {n}: greedy decoding gives the same answer every time").format(
                    n=repeated)))
            links.append(_link("vary", message, html.escape(translate("message_links", "Get a different answer…")),
                               translate("message_links", "Regenerate with sampling, or see why it repeats")))
        links.append(_link("regenerate", message, html.escape(translate("message_links", "Regenerate")),
                           translate("message_links", "Ask again; this reply is kept beside the new one")))
        if last and offers_continue(message):
            links.append(_link("continue", message, html.escape(translate("message_links", "Continue")),
                               translate("message_links", "Let the model go on from where it stopped")))
    links.append(_link("delete", message, html.escape(translate("message_links", "Delete")),
                       translate("message_links", "Delete this message and what follows it")))
    return links


def offers_continue(message: Message) -> bool:
    """A finished reply cut short, which its footer offers to continue (while it is the last message)."""
    return message.status != "streaming" and branches.is_cut(message)


def switcher(conversation: Conversation | None, message: Message) -> str:
    """``‹ 2/3 ›`` for a message with alternatives ("" without): the arrows are links where there is a
    previous or next one."""
    if conversation is None or message.id is None:
        return ""
    place, count = branches.position(conversation, message)
    if count < 2:
        return ""
    previous = (_link("previous", message, "<b>‹</b>", translate("message_links", "Previous version"))
                if place > 1 else _off("‹"))
    following = (_link("next", message, "<b>›</b>", translate("message_links", "Next version"))
                 if place < count else _off("›"))
    return f' &nbsp;{previous} <span style="{link_style()}">{place}/{count}</span> {following}'


def _off(arrow: str) -> str:
    disabled = QGuiApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
    return f'<span style="color:{disabled.name()};"><b>{arrow}</b></span>'
