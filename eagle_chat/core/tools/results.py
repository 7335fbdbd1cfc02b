"""What a tool call gives back to the model: text, whether it is an error, how long it took.

Everything a server sends is untrusted: content is turned into plain text (images and binary resources
become a one-line note), a result longer than the model can use is cut with a note saying so, and arguments
that do not match the tool's schema become an error *for the model* to correct rather than an exception.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import jsonschema

# ~5,000 tokens: enough for a page of search results, small enough for a 4k-8k context to go on.
MAX_RESULT_CHARS = 20_000


@dataclass(frozen=True)
class ToolResult:
    """One call's outcome as the model will read it (``text``) and as the window shows it."""

    server: str
    tool: str
    text: str
    is_error: bool = False
    seconds: float = 0.0
    truncated_from: int = 0  # characters before truncation; 0 when nothing was cut

    def as_dict(self) -> dict[str, Any]:
        return {"server": self.server, "tool": self.tool, "text": self.text, "is_error": self.is_error,
                "seconds": round(self.seconds, 3), "truncated_from": self.truncated_from}


def argument_problem(schema: dict[str, Any] | None, arguments: Any) -> str:
    """Why ``arguments`` do not fit the tool's input schema, or "" when they do (or the schema is unusable:
    then the server is the judge)."""
    if not isinstance(arguments, dict):
        return "arguments must be a JSON object"
    if not isinstance(schema, dict):
        return ""
    try:
        validator = jsonschema.validators.validator_for(schema)(schema)
        error = jsonschema.exceptions.best_match(validator.iter_errors(arguments))
    except (jsonschema.exceptions.SchemaError, jsonschema.exceptions.RefResolutionError, TypeError):
        return ""
    if error is None:
        return ""
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where}: {error.message}" if where else error.message


def content_text(result: Any) -> str:
    """The text of an MCP ``CallToolResult`` (typed by the SDK), content item by content item."""
    parts = []
    for item in getattr(result, "content", None) or []:
        kind = getattr(item, "type", "")
        if kind == "text":
            parts.append(str(getattr(item, "text", "")))
        elif kind in ("image", "audio"):
            data = getattr(item, "data", "") or ""
            parts.append(f"[{kind}: {getattr(item, 'mime_type', '?')}, {len(data) * 3 // 4} bytes, not shown]")
        elif kind == "resource":
            resource = getattr(item, "resource", None)
            text = getattr(resource, "text", None)
            parts.append(str(text) if text is not None else f"[resource {getattr(resource, 'uri', '')}, not shown]")
        elif kind == "resource_link":
            parts.append(f"[link: {getattr(item, 'uri', '')}]")
        else:
            parts.append(f"[content of type {kind!r}, not shown]")
    if not parts and getattr(result, "structured_content", None) is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    return "\n".join(parts)


def truncated(text: str, limit: int = MAX_RESULT_CHARS) -> tuple[str, int]:
    """``text`` cut to ``limit`` characters with a note for the model, and the length before (0: not cut)."""
    if len(text) <= limit:
        return text, 0
    note = (f"\n\n[Truncated by EagleChat: the tool returned {len(text):,} characters; "
            f"only the first {limit:,} are shown.]")
    return text[:limit] + note, len(text)
