"""A conversation as a file to take along: Markdown to read, JSON to keep (and import back).

JSON holds everything: every branch, each reply's thinking, stats, model and settings, times. Messages are
numbered 1, 2, … in the file (``parent`` refers to those numbers, ``current`` is the end of the visible
path), so a file says nothing about the database it came from and an export → import → export round trip
gives the same file. Markdown is the visible path only, for reading: thinking in a collapsible
``<details>`` block, each reply's figures as a footnote line under it, ``(reply 2 of 3)`` where there are
alternatives.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from typing import Any

from eagle_chat.core.errors import UserError
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage import branches, sources
from eagle_chat.core.storage.conversation import STATUSES, Conversation, Message

FORMAT = "eagle-chat-conversation"
FORMAT_VERSION = 1
ROLES = ("system", "user", "assistant")
ROLE_HEADINGS = {"user": "You", "assistant": "EagleChat", "system": "System"}


class ConversationFileError(UserError):
    """A file to import is not an EagleChat conversation export (or is damaged)."""


# --- JSON ---------------------------------------------------------------------------------------------
def to_json(conversation: Conversation) -> dict[str, Any]:
    """Everything about ``conversation``, as plain JSON data."""
    every = branches.nodes(conversation)
    numbers = {m.id: n for n, m in enumerate(every, start=1)}
    current = conversation.messages[-1].id if conversation.messages else None
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "title": conversation.title,
        "system_prompt": conversation.system_prompt,
        "created": conversation.created,
        "updated": conversation.updated,
        "current": numbers.get(current),
        "messages": [
            {
                "id": numbers[m.id],
                "parent": numbers.get(m.parent_id),
                "role": m.role,
                "content": m.content,
                "thinking": m.thinking,
                "status": m.status,
                "error": m.error,
                "created": m.created,
                "stats": m.stats.to_dict() if m.stats is not None else None,
                "made_with": m.made_with,
                "tool_steps": m.tool_steps,
                "sources": m.sources,
            }
            for m in every
        ],
    }


def dumps(conversation: Conversation) -> str:
    return json.dumps(to_json(conversation), indent=2, ensure_ascii=False) + "\n"


def from_json(data: Any) -> Conversation:
    """A Conversation (no database ids yet) from :func:`to_json` data; ConversationFileError if it is not
    one. Message ids in the result are the file's numbers, for the store to replace."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ConversationFileError("This file is not an EagleChat conversation export (no \"format\": "
                                    "\"{format}\").", format=FORMAT)
    if not isinstance(data.get("version"), int) or data["version"] > FORMAT_VERSION:
        raise ConversationFileError(
            "This conversation was exported by a newer EagleChat (format version {version}; this one reads "
            "{supported}). Update EagleChat to import it.", version=data.get("version"), supported=FORMAT_VERSION,
        )
    rows = data.get("messages")
    if not isinstance(rows, list):
        raise ConversationFileError("The file has no list of messages.")
    messages: list[Message] = []
    seen: set[int] = set()
    for place, row in enumerate(rows, start=1):
        messages.append(_message(row, place, seen))
        seen.add(row["id"])  # an int: _message checked it
    conversation = Conversation(
        title=_text(data, "title", "the title") or "Imported conversation",
        system_prompt=_text(data, "system_prompt", "the system prompt"),
        created=_number(data, "created", "the conversation"),
        updated=_number(data, "updated", "the conversation"),
        all_messages=messages,
    )
    current = data.get("current")
    if current is not None and current not in seen:
        raise ConversationFileError("\"current\" names message {current}, which the file does not have.",
                                    current=current)
    conversation.messages = branches.path_to(conversation, current)
    return conversation


def loads(text: str) -> Conversation:
    """The conversation a JSON export holds. A file that is not JSON says what it is instead of the parser's
    words ("Expecting value: line 1 column 1 (char 0)" was all a Markdown export got): a Markdown export is
    named as one and pointed to the JSON export; other text gets where it stops being JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        if is_markdown_export(text):
            raise ConversationFileError(
                "This is a Markdown export, which is for reading: only a JSON export can be imported (Export "
                "conversation, then JSON, every branch).") from error
        raise ConversationFileError("The file is not an EagleChat JSON export: it stops being valid JSON at line "
                                    "{line}, column {column}.", line=error.lineno, column=error.colno) from error
    return from_json(data)


def is_markdown_export(text: str) -> bool:
    """``text`` looks like :func:`to_markdown`'s: a title heading, then a role's heading."""
    head = text.lstrip("\ufeff").lstrip()
    headings = {f"## {name}" for name in ROLE_HEADINGS.values()}
    return head.startswith("# ") and any(line.split(" (")[0].rstrip() in headings for line in head.splitlines())


# --- Markdown -----------------------------------------------------------------------------------------
def to_markdown(conversation: Conversation) -> str:
    """The visible path as readable Markdown."""
    lines = [f"# {_one_line(conversation.title)}", ""]
    models = sorted({_model_name(m.made_with) for m in conversation.messages if m.made_with} - {""})
    about = [f"{len(conversation.messages)} messages", f"started {_when(conversation.created)}"]
    if models:
        about.append("model " + ", ".join(models))
    lines += ["*" + " · ".join(about) + "*", ""]
    if conversation.system_prompt.strip():
        lines += ["**System prompt:**", "", _quoted(conversation.system_prompt), ""]
    footnotes = 0
    for message in conversation.messages:
        heading = ROLE_HEADINGS.get(message.role, message.role)
        place, count = branches.position(conversation, message)
        if count > 1:
            heading += f" ({'reply' if message.role == 'assistant' else 'version'} {place} of {count})"
        if message.status not in ("complete", "streaming"):
            heading += f" — {message.status}"
        lines += [f"## {heading}", ""]
        if message.thinking:
            summary = "Thinking"
            if message.stats is not None and message.stats.thinking_ms is not None:
                summary = f"Thought for {message.stats.thinking_ms / 1000:.1f} s"
            lines += ["<details>", f"<summary>{summary}</summary>", "", close_fences(message.thinking.strip()), "",
                      "</details>", ""]
        lines += _tool_steps_markdown(message.tool_steps)
        note = ""
        if message.stats is not None:
            footnotes += 1
            note = f"[^{footnotes}]"
        if message.content:  # a reply stopped inside a code block would turn the rest of the file into code
            lines += [close_fences(message.content.rstrip()), ""]
        if note:  # a line of its own: after a code fence, on the same line, it would reopen the block
            lines += [note, ""]
        if message.error:
            lines += [f"*Error: {_one_line(message.error)}*", ""]
        lines += _sources_markdown(message.sources)
        if message.stats is not None:  # right under its reply for a plain reader; Markdown viewers gather them at the end
            lines += [f"{note}: {stats_line(message.stats)}", ""]
    return "\n".join(lines).rstrip() + "\n"


def close_fences(text: str) -> str:
    """``text`` with a closing fence added if it ends inside a fenced code block (CommonMark: a fence is 3 or
    more backticks or tildes indented at most 3 spaces; only the same character, at least as many, with
    nothing after them closes it; a backtick fence's info string has no backtick)."""
    fence = None  # (character, length) of the open fence
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        if len(line) - len(stripped) > 3 or stripped[:1] not in ("`", "~"):
            continue
        char = stripped[0]
        run = len(stripped) - len(stripped.lstrip(char))
        if run < 3:
            continue
        if fence is None:
            if char == "`" and "`" in stripped[run:]:
                continue  # inline code, not a fence
            fence = (char, run)
        elif char == fence[0] and run >= fence[1] and not stripped[run:].strip():
            fence = None
    return text if fence is None else f"{text}\n{fence[0] * fence[1]}"


def stats_line(stats: GenerationStats) -> str:
    """A reply's figures on one line (the Markdown footnote, and ``conversations export --format md``)."""
    mode = "EAGLE-3" if stats.mode == "speculative" else "baseline"
    if stats.mode == "speculative":
        mode += f" K={stats.num_assistant_tokens}" + (f" tree {stats.tree}" if stats.tree else "")
    tokens = f"{stats.generated_tokens} tokens"
    if stats.thinking_tokens is not None:
        tokens += f" ({stats.thinking_tokens} thinking, {stats.answer_tokens} answer)"
    parts = [mode, f"{stats.tokens_per_s:.1f} tok/s", f"TTFT {stats.ttft_ms:.0f} ms", tokens,
             f"{stats.input_tokens} prompt tokens"]
    if stats.mode == "speculative" and stats.acceptance is not None:
        parts.append(f"acceptance {stats.acceptance:.0%}")
    if stats.tokens_per_step is not None:
        parts.append(f"{stats.tokens_per_step:.2f} tokens/step")
    parts.append(stats.device)
    if stats.runs > 1:
        parts.append(f"written in {stats.runs} runs")
    return " · ".join(parts)


# --- helpers ------------------------------------------------------------------------------------------
def _message(row: Any, place: int, seen: set[int]) -> Message:
    where = f"message {place}"
    if not isinstance(row, dict):
        raise ConversationFileError("Message {place} is not an object.", place=place)
    number = row.get("id")
    if not isinstance(number, int) or number in seen:
        raise ConversationFileError("Message {place} has a missing or repeated \"id\".", place=place)
    parent = row.get("parent")
    if parent is not None and parent not in seen:
        raise ConversationFileError("Message {place} follows message {parent}, which does not come before it.",
                                    place=place, parent=parent)
    if row.get("role") not in ROLES:
        raise ConversationFileError("Message {place} has an unknown role {role!r}.", place=place, role=row.get("role"))
    status = row.get("status", "complete")
    if status not in STATUSES:
        raise ConversationFileError("Message {place} has an unknown status {status!r}.", place=place, status=status)
    stats = row.get("stats")
    if stats is not None:
        try:
            stats = GenerationStats.from_dict(stats)
        except (TypeError, ValueError) as error:
            raise ConversationFileError("The stats of message {place} cannot be read ({error}).",
                                        place=place, error=error) from error
    made_with = row.get("made_with")
    if made_with is not None and not isinstance(made_with, dict):
        raise ConversationFileError("\"made_with\" of message {place} is not an object.", place=place)
    error_text = row.get("error")
    return Message(
        role=row["role"], content=_text(row, "content", where), id=number, created=_number(row, "created", where),
        status=status, stats=stats, error=error_text if isinstance(error_text, str) else None,
        thinking=_text(row, "thinking", where), parent_id=parent, made_with=made_with,
        tool_steps=_tool_steps(row.get("tool_steps"), place), sources=_sources(row.get("sources"), place),
    )


def _sources(value: Any, place: int) -> list[dict] | None:
    if value is not None and not sources.valid(value):
        raise ConversationFileError("The document passages of message {place} cannot be read.", place=place)
    return value


def _tool_steps(value: Any, place: int) -> list[dict] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(step, dict) and isinstance(step.get("calls", []), list)
                                              and all(isinstance(c, dict) and isinstance(c.get("id"), str)
                                                      and isinstance(c.get("name"), str) for c in step.get("calls", []))
                                              for step in value):
        raise ConversationFileError("The tool steps of message {place} cannot be read.", place=place)
    return value


def _tool_steps_markdown(steps: list[dict] | None) -> list[str]:
    """An agent reply's tool calls: one <details> block each, the arguments and result fenced (the result
    is a tool's untrusted text: a fence longer than any run of backticks in it keeps it inert)."""
    lines: list[str] = []
    for step in steps or []:
        if step.get("content"):
            lines += [close_fences(step["content"].rstrip()), ""]
        for call in step.get("calls", []):
            summary = f"Tool call: {call.get('tool') or call['name']} · {call.get('status', '')}"
            if call.get("status") in ("done", "error"):
                summary += f" · {call.get('seconds', 0.0):.2f} s"
            lines += ["<details>", f"<summary>{html.escape(summary)}</summary>", "",
                      _fenced(call.get("arguments") or "{}", "json"), "", _fenced(call.get("result", ""), "text"), "",
                      "</details>", ""]
    return lines


def _fenced(text: str, info: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def _text(row: dict, key: str, where: str) -> str:
    value = row.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ConversationFileError("\"{key}\" of {where} is not text.", key=key, where=where)
    return value


def _number(row: dict, key: str, where: str) -> float:
    value = row.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConversationFileError("\"{key}\" of {where} is not a time.", key=key, where=where)
    return value


def _model_name(made_with: dict | None) -> str:
    if not made_with:
        return ""
    target, draft = made_with.get("target") or "", made_with.get("draft")
    return f"{target} + {draft}" if target and draft else target


def _when(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.strip().splitlines())


def _sources_markdown(passages: list[dict] | None) -> list[str]:
    """A grounded reply's passages under it: number, file and page, the file's path, and the passage quoted,
    so a reader can check each citation without the app."""
    if not passages:
        return []
    lines = ["**Sources**", ""]
    for s in passages:
        lines += [f"[{s['n']}] {_one_line(sources.where(s))} — `{_one_line(s['path'])}`", "",
                  _quoted(s.get("text", "")) or ">", ""]
    return lines
