"""``eagle-chat tools …``: check the MCP servers of ``mcp.json`` from a terminal.

``list`` starts every enabled server, lists its status and tools (with their input schemas under
``--json``) and ends them; ``call SERVER TOOL JSON`` calls one tool as the model would and prints what the
model would read. Exit status: 0 done, 1 a server or the tool failed (the tool's error text is printed),
2 a usage error (bad JSON, mcp.json unreadable, no such server).
"""

from __future__ import annotations

import argparse
import json
import sys

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.paths import add_home_argument, add_home_before_subcommand, apply_home

EXIT_FAILED = 1
EXIT_USAGE = 2


def tools_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eagle-chat tools",
        description=f"Check the MCP servers in mcp.json (in the config folder; {paths.HOME_ENV} moves it).",
    )
    add_home_before_subcommand(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("list", help="start every enabled server and list its status and tools")
    p.add_argument("--json", action="store_true", help="print JSON with each tool's input schema")
    p.add_argument("--timeout", type=float, default=30.0, metavar="S", help="seconds a server has to start")
    add_home_argument(p)

    p = sub.add_parser("call", help="call one tool and print what the model would read")
    p.add_argument("server")
    p.add_argument("tool")
    p.add_argument("arguments", nargs="?", default="{}", metavar="JSON", help="the arguments (default {})")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds the call may take")
    add_home_argument(p)
    return parser


def main(argv: list[str]) -> int:
    args = tools_parser().parse_args(argv)
    apply_home(args)
    from eagle_chat.core.tools.config import load_servers

    try:
        servers = load_servers(paths.mcp_config_file())
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    return cmd_list(args, servers) if args.command == "list" else cmd_call(args, servers)


def _hub(servers, **options):
    from eagle_chat.core.tools.hub import ToolHub

    hub = ToolHub(servers, stderr_dir=paths.log_dir(), **options)
    hub.start()
    return hub


def cmd_list(args: argparse.Namespace, servers) -> int:
    if not servers:
        print(f"No MCP servers in {paths.mcp_config_file()}.", file=sys.stderr)
        return 0
    hub = _hub(servers, start_timeout=args.timeout)
    try:
        hub.wait_started(args.timeout + 5)
        states = [s.as_dict() for s in hub.states()]
    finally:
        hub.close()
    if args.json:
        print(json.dumps(states, indent=2, ensure_ascii=False))
    else:
        for state in states:
            line = f"{state['name']}  {state['status']}  {state['where']}"
            print(line + (f"  — {state['error']}" if state["error"] else ""))
            for tool in state["tools"]:
                auto = "  (runs without asking)" if tool["name"] in state["auto_approve"] else ""
                print(f"    {tool['name']}: {tool['description'].splitlines()[0] if tool['description'] else ''}{auto}")
    return EXIT_FAILED if any(s["status"] == "failed" for s in states) else 0


def cmd_call(args: argparse.Namespace, servers) -> int:
    try:
        arguments = json.loads(args.arguments)
    except json.JSONDecodeError as error:
        print(f"error: the arguments are not JSON: {error}", file=sys.stderr)
        return EXIT_USAGE
    chosen = [s for s in servers if s.name == args.server]
    if not chosen:
        names = ", ".join(s.name for s in servers) or "none"
        print(f"error: no server {args.server!r} in mcp.json (there: {names})", file=sys.stderr)
        return EXIT_USAGE
    from dataclasses import replace

    hub = _hub([replace(chosen[0], disabled=False)], call_timeout=args.timeout)
    try:
        hub.wait_started(60)
        result = hub.call(args.server, args.tool, arguments).result(args.timeout + 30)
    finally:
        hub.close()
    print(result.text)
    if result.is_error:
        print(f"(tool error after {result.seconds:.2f} s)", file=sys.stderr)
        return EXIT_FAILED
    return 0
