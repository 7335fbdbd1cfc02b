"""An agent reply's tool calls in the chat view: one collapsible block per call, between the reply's
thinking and its answer — "▸ Tool weather · done · 0.02 s", expanded by a click to its arguments and result.
A step whose grammar kept a reduced-vocabulary draft from drafting says so under its calls (grammar_texts).

Arguments and results are untrusted text (a tool server wrote one, the model the other): they are shown
escaped, as plain text, never as HTML or Markdown, so nothing in them can run, link or style the view.
"""

from __future__ import annotations

import html

from eagle_chat.core.storage.conversation import Message
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.words import grammar_texts
from eagle_chat.ui.words.i18n import translate

LINK_PREFIX = "toolcall:"
SHOWN_CHARS = 4000  # of a result, when expanded (the model may have read more: up to the hub's limit)


def status_text(status: str) -> str:
    return {"asked": translate("ToolBlocks", "waiting for approval"), "running": translate("ToolBlocks", "running"),
            "done": translate("ToolBlocks", "done"), "error": translate("ToolBlocks", "error"),
            "denied": translate("ToolBlocks", "denied"), "stopped": translate("ToolBlocks", "stopped")}.get(status, status)


def step_figures(step: dict) -> str:
    """A model step's own figures, under its calls: tokens, speed, first token, and how soon the next step
    began after the last result (the agent's turnaround, where the next-turn prefill pays)."""
    f = step.get("figures") or {}
    text = translate("ToolBlocks", "This step: {tokens} tokens, {rate:.0f} tok/s, first token {ttft:.0f} ms").format(
        tokens=f.get("tokens", 0), rate=f.get("tokens_per_s", 0.0), ttft=f.get("ttft_ms", 0.0))
    if step.get("next_from_result_ms") is not None:
        text += " · " + translate("ToolBlocks", "next step {ms:.0f} ms after the result").format(
            ms=step["next_from_result_ms"])
    return text


class ToolBlocks:
    """Which call blocks are expanded (by call id), and their HTML."""

    def __init__(self) -> None:
        self.expanded: set[str] = set()

    def toggle(self, call_id: str) -> None:
        self.expanded ^= {call_id}

    def html(self, message: Message) -> str:
        if not message.tool_steps:
            return ""
        colour = theme.colours().muted
        parts = []
        for step in message.tool_steps:
            if step.get("content"):
                parts.append(f"<p>{html.escape(step['content']).replace(chr(10), '<br>')}</p>")
            for call in step.get("calls", []):
                parts.append(self._call_html(message, call, colour))
            notes = [step_figures(step)] if step.get("figures") else []
            if (step.get("figures") or {}).get("drafting_off_by_grammar"):  # tool use "Required" on a d2t draft
                notes.append(grammar_texts.figures_note())
            if notes:
                parts.append(f'<p style="color:{colour};">{html.escape(" · ".join(notes))}</p>')
        return "".join(parts)

    def _call_html(self, message: Message, call: dict, colour: str) -> str:
        open_ = call["id"] in self.expanded
        label = translate("ToolBlocks", "Tool {tool}").format(tool=call.get("tool") or call["name"])
        label += f" · {status_text(call.get('status', ''))}"
        if call.get("status") in ("done", "error"):
            label += f" · {call.get('seconds', 0.0):.2f} s"
        header = (f'<p><a href="{LINK_PREFIX}{message.id}:{html.escape(call["id"])}" style="color:{colour};'
                  f'text-decoration:none;">{"▾" if open_ else "▸"} {html.escape(label)}</a></p>')
        if not open_:
            return header
        arguments = html.escape(call.get("arguments") or "{}")
        result = call.get("result", "")
        shown = html.escape(result[:SHOWN_CHARS] + ("…" if len(result) > SHOWN_CHARS else ""))
        where = html.escape(call.get("server", ""))
        return (header + f'<p style="color:{colour}; margin-left:14px;">{where}<br><tt>{arguments}</tt></p>'
                f'<p style="margin-left:14px;"><tt>{shown.replace(chr(10), "<br>")}</tt></p>')
