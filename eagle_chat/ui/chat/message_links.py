"""The links under and beside a message in the chat view: Copy, Edit / Regenerate, Continue, Delete, and
``‹ 2/3 ›`` between alternatives. A link is ``action:NAME:ID``; the view turns a click into
``sig_message_action(NAME, ID)``.
"""

from __future__ import annotations

from eagle_chat.core.storage import branches
from eagle_chat.core.storage.conversation import Conversation, Message

ACTION_PREFIX = "action:"
LINK_STYLE = "color:#6b7280;"


def _link(action: str, message: Message, label: str, tip: str = "") -> str:
    title = f' title="{tip}"' if tip else ""
    return f'<a href="{ACTION_PREFIX}{action}:{message.id}" style="{LINK_STYLE}"{title}>{label}</a>'


def action_links(conversation: Conversation | None, message: Message) -> list[str]:
    """The footer links of a finished ``message`` (none while it is being written)."""
    if message.status == "streaming" or message.id is None:
        return []
    links = []
    if message.content:
        links.append(f'<a href="copy-message:{message.id}" style="{LINK_STYLE}">Copy</a>')
    if message.role == "user":
        links.append(_link("edit", message, "Edit", "Edit and send again; the current version is kept"))
    elif message.role == "assistant":
        links.append(_link("regenerate", message, "Regenerate", "Ask again; this reply is kept beside the new one"))
        last = conversation is not None and conversation.messages and conversation.messages[-1] is message
        if last and offers_continue(message):
            links.append(_link("continue", message, "Continue", "Let the model go on from where it stopped"))
    links.append(_link("delete", message, "Delete", "Delete this message and what follows it"))
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
    previous = _link("previous", message, "<b>‹</b>", "Previous version") if place > 1 else _off("‹")
    following = _link("next", message, "<b>›</b>", "Next version") if place < count else _off("›")
    return f' &nbsp;{previous} <span style="{LINK_STYLE}">{place}/{count}</span> {following}'


def _off(arrow: str) -> str:
    return f'<span style="color:#d1d5db;"><b>{arrow}</b></span>'
