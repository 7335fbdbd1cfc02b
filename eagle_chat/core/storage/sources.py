"""The passages a reply was given to answer from, and how they reach the model.

A grounded reply (the conversation has documents) carries ``Message.sources``: one dict per numbered passage,
``{"n": 1, "path": "/abs/file.pdf", "page": 3 or None, "text": "...", "score": 0.03 or None,
"repeat": False}``. Numbers run through the whole conversation: a passage given to an earlier reply of the path
keeps its number and is marked ``repeat`` (its text is not sent again, the model has it further up).

The passages go into the user's turn that the reply answers, before the question, with the instruction to
cite them as [n]. Whole documents go the same way, once, on the first question: every later question's turn
only names them, so the prompt up to there stays the same and the prefix cache reuses it.
"""

from __future__ import annotations

import os
import re

CITATION = re.compile(r"\[(\d{1,3})\]")
INSTRUCTION = ("Answer the question from the numbered document passages. After each statement taken from a "
               "passage, cite it as [n]. If the passages do not hold the answer, say so.")


def where(source: dict) -> str:
    """``report.pdf, page 3`` (file name only; the page when the file has pages)."""
    name = os.path.basename(source.get("path", "")) or "?"
    return f"{name}, page {source['page']}" if source.get("page") is not None else name


def grounded_question(question: str, sources: list[dict]) -> str:
    """The user's turn as the model reads it: the new passages, the numbers of those given before, the
    instruction, then the question as typed."""
    fresh = [s for s in sources if not s.get("repeat")]
    parts = [f"[{s['n']}] {where(s)}:\n{s.get('text', '').strip()}" for s in fresh]
    before = [str(s["n"]) for s in sources if s.get("repeat")]
    if before:
        parts.append("Passages given earlier that also apply: " + ", ".join(f"[{n}]" for n in before) + ".")
    return "\n\n".join(["Document passages:", *parts, INSTRUCTION, "Question: " + question])


def cited(text: str, sources: list[dict] | None) -> list[int]:
    """The passage numbers ``text`` cites that are among ``sources``, in order of first citation."""
    known = {s["n"] for s in sources or []}
    seen: list[int] = []
    for match in CITATION.finditer(text):
        n = int(match.group(1))
        if n in known and n not in seen:
            seen.append(n)
    return seen


def valid(value) -> bool:
    """Whether ``value`` (from a file or the database) has the shape of ``Message.sources``."""
    return isinstance(value, list) and all(
        isinstance(s, dict) and isinstance(s.get("n"), int) and isinstance(s.get("path"), str)
        and isinstance(s.get("text", ""), str) and (s.get("page") is None or isinstance(s.get("page"), int))
        for s in value)
