"""The parts of a message in the chat view that are not its text: the role line (role, ‹ n/m ›, status,
the "not sent to the model" mark), the stats tooltip, the welcome page and the link confirmation."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QMessageBox, QWidget

from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui import texts
from eagle_chat.ui.chat import message_links

ROLE_LABELS = {"user": "You", "assistant": "EagleChat", "system": "System"}
STATUS_NOTES = {
    "stopped": "stopped",
    "interrupted": "interrupted — the app closed before this reply finished",
    "failed": "failed",
    "streaming": "writing…",
}
WELCOME = (
    "<h2>EagleChat</h2><p>Type a message below and press <b>Enter</b> "
    "(<b>Shift+Enter</b> for a new line, <b>Esc</b> stops a reply).</p>"
)


def head_html(message: Message, conversation: Conversation | None, *, memory_start: int | None) -> str:
    """The role line above a message; above it, the mark where the model's context began."""
    role = ROLE_LABELS.get(message.role, message.role)
    colour = "#1d4ed8" if message.role == "user" else "#047857"
    note = STATUS_NOTES.get(message.status, "")
    head = f'<p><b style="color:{colour};">{role}</b>' + message_links.switcher(conversation, message)
    if message.id is not None and message.id == memory_start:
        head = (f'<p align="center" style="color:#6b7280;">— {html.escape(texts.MEMORY_START)} ↑ —</p>'
                + head)
    if note:
        head += f' <span style="color:#b45309;">({html.escape(note)})</span>'
    return head + "</p>"


def confirm_link(parent: QWidget, target: str) -> bool:
    """Ask before opening a link from the model's reply; True to open it."""
    answer = QMessageBox.question(
        parent,
        "Open link?",
        f"The model's reply links to:\n\n{target}\n\nOpen it in your browser?",
        QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Open


def stats_tooltip(message: Message) -> str:
    s = message.stats
    rows = [
        ("Mode", s.mode + (f" (K={s.num_assistant_tokens})" if s.mode == "speculative" else "")),
        ("Device", s.device),
        ("Tokens/s", f"{s.tokens_per_s:.1f}"),
        ("Time to first token", f"{s.ttft_ms:.0f} ms"),
        ("Time per token", f"{s.tpot_ms:.2f} ms"),
        ("Generated / prompt tokens", f"{s.generated_tokens} / {s.input_tokens}"),
    ]
    if s.thinking_tokens is not None:
        rows.append(("Thinking / answer tokens", f"{s.thinking_tokens} / {s.answer_tokens}"))
    if s.mode == "speculative":
        rows.append(("Accepted / drafted", f"{s.accepted_tokens} / {s.draft_tokens}"))
        if s.acceptance is not None:
            rows.append(("Acceptance", f"{s.acceptance:.0%}"))
        if s.tokens_per_step is not None:
            rows.append(("Tokens per step", f"{s.tokens_per_step:.2f}"))
    return "\n".join(f"{k}: {v}" for k, v in rows)
