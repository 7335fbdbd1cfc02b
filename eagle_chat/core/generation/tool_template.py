"""Tools and the chat template: can a model's template take a tool list, and the list on its way to it.

A template with a tools branch (Qwen3's, Llama 3.1's, Mistral's …) reads the ``tools`` variable and renders
the functions, the assistant's ``tool_calls`` and the ``tool`` results in the format the model was trained
on. One without it still "accepts" tools in GenAI 2026.4.1: minja then injects a generic "You can call any of
the following tools…" system prompt and rewrites assistant tool calls and tool messages as JSON blobs — a
prompt the model never saw. So the app looks at the template first: tools (and messages holding tool calls or
tool results) go only to a template that reads ``tools``.

The tool list travels to the engine host as JSON text inside the pickled GenerationSettings: a string is
hashable (it is part of the rendered prompt's cache key) and is rendered exactly as the client sent it.
"""

from __future__ import annotations

import json
import re

_JINJA_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)  # expressions and statements, not the template's text
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", re.S)
_TOOLS = re.compile(r"\btools\b")


def takes_tools(template: str | None) -> bool:
    """Does this chat template read the ``tools`` variable (in its code, not in a string it writes)?"""
    if not template:
        return False
    return any(_TOOLS.search(_STRING.sub("''", code)) for code in _JINJA_CODE.findall(template))


def tools_text(tools: list[dict] | None) -> str | None:
    """The tool list as it travels in GenerationSettings (None: no tools)."""
    return json.dumps(tools, ensure_ascii=False) if tools else None


def tools_list(text: str | None) -> list[dict] | None:
    """The tool list back from its travelling form, for the chat template."""
    return json.loads(text) if text else None
