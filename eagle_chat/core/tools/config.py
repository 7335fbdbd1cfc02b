"""``mcp.json``: the MCP servers the model may call, in the ``mcpServers`` format.

The format is the one Claude Desktop, Cursor and LM Studio read, so a file copied from them works here:
``{"mcpServers": {"NAME": {"command": "...", "args": [...], "env": {...}}}}`` for a server the app starts
(stdio) and ``{"url": "https://...", "headers": {...}}`` for a remote one (Streamable HTTP). Cline's
``disabled`` and ``autoApprove`` (a list of tool names that run without asking) are read per server.

``env`` and ``headers`` often hold API keys: :meth:`ServerConfig.describe` is what may be logged or shown,
and it never includes their values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eagle_chat.core.errors import UserError


class ToolConfigError(UserError):
    """mcp.json cannot be read or a server in it is not described in a way we can use."""


@dataclass(frozen=True)
class ServerConfig:
    """One entry of ``mcpServers``. ``command`` for stdio, ``url`` for Streamable HTTP (exactly one)."""

    name: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict, repr=False)
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    disabled: bool = False
    auto_approve: frozenset[str] = frozenset()

    @property
    def transport(self) -> str:
        return "stdio" if self.command else "http"

    def describe(self) -> str:
        """What the log and the tools list may say about this server: no env or header values, no args
        (a key passed as ``--api-key KEY`` is as secret as one in env), no query string in the URL."""
        if self.command:
            return f"stdio: {Path(self.command).name} ({len(self.args)} arguments)"
        return f"http: {self.url.split('?', 1)[0]}"


def load_servers(path: Path) -> list[ServerConfig]:
    """The servers in ``path``, in file order; none when the file does not exist."""
    if not path.exists():
        return []
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ToolConfigError("Could not read {path}: {reason}", path=str(path), reason=str(error)) from error
    except json.JSONDecodeError as error:
        raise ToolConfigError("{path} is not valid JSON (line {line}): fix or remove it.",
                              path=str(path), line=error.lineno) from error
    return parse_servers(document, path)


def parse_servers(document: Any, path: Path | str = "mcp.json") -> list[ServerConfig]:
    if not isinstance(document, dict) or not isinstance(document.get("mcpServers", {}), dict):
        raise ToolConfigError('{path} needs an object "mcpServers" with one entry per server.', path=str(path))
    return [_server(name, entry, path) for name, entry in document.get("mcpServers", {}).items()]


def _server(name: str, entry: Any, path: Path | str) -> ServerConfig:
    if not isinstance(entry, dict):
        raise ToolConfigError('The server "{name}" in {path} is not an object.', name=name, path=str(path))
    command, url = entry.get("command"), entry.get("url")
    if bool(command) == bool(url):
        raise ToolConfigError('The server "{name}" in {path} needs either "command" (a program to start) or '
                              '"url" (a Streamable HTTP endpoint), not both or neither.', name=name, path=str(path))
    if url and not (isinstance(url, str) and url.startswith(("http://", "https://"))):
        raise ToolConfigError('The server "{name}" in {path} has a "url" that is not http:// or https://.',
                              name=name, path=str(path))
    if command and not isinstance(command, str):
        raise ToolConfigError('The server "{name}" in {path} has a "command" that is not text.', name=name,
                              path=str(path))
    args = entry.get("args", [])
    env = entry.get("env", {})
    headers = entry.get("headers", {})
    approve = entry.get("autoApprove", [])
    if not (_strings(args) and isinstance(env, dict) and _strings(env.values()) and isinstance(headers, dict)
            and _strings(headers.values()) and _strings(approve)):
        raise ToolConfigError('The server "{name}" in {path} has "args", "env", "headers" or "autoApprove" of '
                              'the wrong kind (lists and objects of text).', name=name, path=str(path))
    return ServerConfig(name=name, command=command or "", args=tuple(args), env=dict(env), url=url or "",
                        headers=dict(headers), disabled=bool(entry.get("disabled", False)),
                        auto_approve=frozenset(approve))


def _strings(values: Any) -> bool:
    if isinstance(values, (str, bytes, dict)):
        return False
    try:
        return all(isinstance(v, str) for v in values)
    except TypeError:
        return False


def set_disabled(path: Path, name: str, disabled: bool) -> None:
    """Turn one server of ``path`` off or on (its ``disabled`` flag), keeping everything else in the file
    as it was, so a file shared with another client stays theirs."""
    from eagle_chat.core.files import write_json_atomic

    document = json.loads(path.read_text(encoding="utf-8"))
    entry = parse_servers(document, path) and document["mcpServers"].get(name)
    if not isinstance(entry, dict):
        raise ToolConfigError('There is no server "{name}" in {path}.', name=name, path=str(path))
    if disabled:
        entry["disabled"] = True
    else:
        entry.pop("disabled", None)
    write_json_atomic(path, document, mode=path.stat().st_mode & 0o777)  # keys inside: keep its permissions
