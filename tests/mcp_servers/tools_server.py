"""A real MCP server written with the official SDK, for the tests (stdio by default, or Streamable HTTP).

``python tools_server.py`` serves on stdio; ``python tools_server.py http PORT`` serves Streamable HTTP on
127.0.0.1:PORT at /mcp. Its tools cover the good path (add, weather) and the faults a client must survive:
a crash mid-call, a hang, megabytes of output, a tool error. ``FAIL_AT_START=1`` in the environment makes
it exit before it speaks; ``ONLY_TOOLS=add,weather`` serves only those; ``ECHO_ENV`` names a variable whose value ``secret_len`` reports the length of
(so a test can check a secret reached the server without it being printed).
"""

from __future__ import annotations

import os
import sys
import time

from mcp.server.mcpserver import MCPServer

time.sleep(float(os.environ.get("START_DELAY") or 0))  # a server slow to start (GUI test of "Required")
if os.environ.get("FAIL_AT_START"):
    print("this server is configured to fail at start", file=sys.stderr)
    sys.exit(3)

server = MCPServer("eagle-test-tools")
_ONLY = {n for n in os.environ.get("ONLY_TOOLS", "").split(",") if n}  # serve only these tools (GUI tests)


def tool():
    def register(function):
        if not _ONLY or function.__name__ in _ONLY:
            server.tool()(function)
        return function
    return register


@tool()
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


@tool()
def weather(city: str) -> str:
    """Today's weather in a city."""
    return f"Weather in {city}: 21 degrees, light rain, code EAGLE-7."


@tool()
def crash() -> str:
    """Exit the server process in the middle of the call."""
    os._exit(9)


@tool()
def hang() -> str:
    """Never answer (sleeps an hour)."""
    time.sleep(3600)
    return "late"


@tool()
def huge(megabytes: int = 3) -> str:
    """Return megabytes of text."""
    return "x" * (megabytes * 1024 * 1024)


@tool()
def fail() -> str:
    """Raise an error inside the tool."""
    raise ValueError("the tool failed on purpose")


@tool()
def secret_len() -> str:
    """The length of the variable named by ECHO_ENV."""
    return str(len(os.environ.get(os.environ.get("ECHO_ENV", ""), "")))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
