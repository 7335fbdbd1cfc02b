"""What a click on a link in the chat view does: copy a code block or a message, run a message's action,
open or close a thinking block, preview a cited passage — or, for a link in the model's reply, open it in the browser, only if its
scheme is safe and the user confirms."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication

from eagle_chat.ui.chat import message_links, message_parts
from eagle_chat.ui.chat.markdown_html import SAFE_LINK_SCHEMES
from eagle_chat.ui.chat.thinking_block import LINK_PREFIX as THINKING_LINK
from eagle_chat.ui.chat.source_links import LINK_PREFIX as SOURCE_LINK
from eagle_chat.ui.chat.tool_blocks import LINK_PREFIX as TOOL_LINK
from eagle_chat.ui.chat import source_preview


def follow(view, url: QUrl) -> None:
    """Do what the link ``url`` clicked in ``view`` (a ChatView) stands for."""
    target = url.toString()
    if target.startswith("copy-code:"):
        _, message_id, index = target.split(":")
        blocks = view.code_blocks(int(message_id))
        if int(index) < len(blocks):
            QGuiApplication.clipboard().setText(blocks[int(index)])
        return
    if target.startswith("copy-message:"):
        QGuiApplication.clipboard().setText(view.message_text(int(target.split(":")[1])))
        return
    if target.startswith(message_links.ACTION_PREFIX):
        _, action, message_id = target.split(":")
        view.sig_message_action.emit(action, int(message_id))
        return
    if target.startswith(THINKING_LINK):
        view.toggle_thinking(int(target[len(THINKING_LINK):]))
        return
    if target.startswith(SOURCE_LINK):
        message_id, n = target[len(SOURCE_LINK):].split(":")
        source_preview.show_source(view, view.message(int(message_id)), int(n))
        return
    if target.startswith(TOOL_LINK):
        message_id, call_id = target[len(TOOL_LINK):].split(":", 1)
        view.thinking.tools.toggle(call_id)
        view.thinking.toggle(int(message_id))  # toggle_thinking flips it back and redraws the reply
        view.toggle_thinking(int(message_id))
        return
    if not target.lower().startswith(SAFE_LINK_SCHEMES):
        view.sig_link_refused.emit(target)
        return
    if view.confirm_links and not message_parts.confirm_link(view, target):
        view.sig_link_refused.emit(target)
        return
    QDesktopServices.openUrl(url)
