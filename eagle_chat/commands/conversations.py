"""``eagle-chat conversations …``: list, export and import conversations from a terminal.

The files are the ones the window's Conversation menu writes (:mod:`eagle_chat.core.storage.export`):
Markdown to read, JSON with every branch, stat, model and setting, which ``import`` reads back. Safe beside
a running app: a reply it is writing is left alone. Exit status: 0 done, 1 a file could not be
read or written, 2 a usage error (unknown id, not an export).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.errors import UserError
from eagle_chat.paths import add_home_argument, add_home_before_subcommand, apply_home

EXIT_FAILED = 1
EXIT_USAGE = 2


def conversations_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eagle-chat conversations",
        description="List your conversations, export one as Markdown or JSON, import a JSON export.",
    )
    add_home_before_subcommand(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("list", help="id, title, messages and last change of every conversation, newest first")
    p.add_argument("--json", action="store_true", help="print JSON (for scripts)")
    add_home_argument(p)

    p = sub.add_parser("export", help="write one conversation as Markdown (to read) or JSON (every branch)")
    p.add_argument("id", type=int, metavar="ID", help="see `eagle-chat conversations list`")
    p.add_argument("--format", choices=["md", "json"], default="md")
    p.add_argument("--output", "-o", type=Path, metavar="FILE", help="write to FILE (default: print it)")
    add_home_argument(p)

    p = sub.add_parser("import", help="add a conversation from a JSON export (as a new conversation)")
    p.add_argument("file", type=Path, metavar="FILE")
    add_home_argument(p)
    return parser


def main(argv: list[str]) -> int:
    args = conversations_parser().parse_args(argv)
    apply_home(args)
    from eagle_chat.core.storage.store import ConversationStore

    store = ConversationStore(paths.database_file(), recover=False)
    try:
        if store.notice:
            print(f"note: {store.notice}", file=sys.stderr)
        return {"list": cmd_list, "export": cmd_export, "import": cmd_import}[args.command](args, store)
    finally:
        store.close()


def cmd_list(args: argparse.Namespace, store) -> int:
    from eagle_chat.core.storage import branches

    rows = []
    for summary in store.list_conversations():
        conversation = store.load_conversation(summary.id)
        every = branches.nodes(conversation)
        rows.append({"id": conversation.id, "title": conversation.title, "messages": len(conversation.messages),
                     "all_messages": len(every),
                     "alternatives": sum(1 for m in every if branches.position(conversation, m)[0] > 1),
                     "created": conversation.created, "updated": conversation.updated})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print("No conversations yet.")
        return 0
    print(f"{'ID':>5}  {'UPDATED':<16}  {'MESSAGES':>8}  TITLE")
    for row in rows:
        count = str(row["messages"])
        if row["all_messages"] > row["messages"]:
            count = f"{row['messages']}+{row['all_messages'] - row['messages']}"
        when = dt.datetime.fromtimestamp(row["updated"]).strftime("%Y-%m-%d %H:%M")
        print(f"{row['id']:>5}  {when:<16}  {count:>8}  {row['title']}")
    if any(r["all_messages"] > r["messages"] for r in rows):
        print("\n(MESSAGES a+b: a on the path shown, b more on other branches; JSON exports carry them all)")
    return 0


def cmd_export(args: argparse.Namespace, store) -> int:
    from eagle_chat.core.storage import export

    conversation = store.load_conversation(args.id)
    if conversation is None:
        print(f"eagle-chat conversations export: there is no conversation {args.id}; "
              "`eagle-chat conversations list` shows them.", file=sys.stderr)
        return EXIT_USAGE
    text = export.dumps(conversation) if args.format == "json" else export.to_markdown(conversation)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    from eagle_chat.core.files import write_text_atomic

    try:
        write_text_atomic(args.output, text)
    except OSError as error:
        print(f"eagle-chat conversations export: cannot write {args.output}: {error.strerror or error}",
              file=sys.stderr)
        return EXIT_FAILED
    print(f"Wrote {args.output}", file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace, store) -> int:
    from eagle_chat.core.storage import export

    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"eagle-chat conversations import: cannot read {args.file}: {error}", file=sys.stderr)
        return EXIT_FAILED
    try:
        conversation = store.insert_conversation(export.loads(text))
    except UserError as error:
        print(f"eagle-chat conversations import: {args.file}: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Imported “{conversation.title}” as conversation {conversation.id} "
          f"({len(conversation.all_messages)} messages).")
    return 0
