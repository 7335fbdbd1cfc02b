"""The README and docs/ as a newcomer reads them: every relative link leads somewhere, and every
``eagle-chat …`` command they show is one the command line still accepts (parsed, never run)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from eagle_chat import cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
INLINE_CODE = re.compile(r"`(eagle-chat(?: [^`]*)?)`")
FENCE = re.compile(r"^```.*?$(.*?)^```", re.MULTILINE | re.DOTALL)
# The command placeholders and alternatives the pages write: `[--json]`, `md|json`, `NAME|DIR`, `…`.
OPTIONAL = re.compile(r"\[([^\[\]]*)\]")
# Placeholders that stand for numbers, as an argument parser would be given them.
PLACEHOLDER_VALUES = {"N": "3", "ID": "1", "K": "5", "PORT": "8000", "MS": "50", "SECONDS": "30"}


def heading_anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    anchors = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def relative_links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def shown_commands(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    commands = INLINE_CODE.findall(FENCE.sub("", text))
    for block in FENCE.findall(text):
        commands += [line.strip() for line in block.splitlines() if line.strip().startswith("eagle-chat")]
    return commands


def argv_of(command: str) -> list[str]:
    """A shown command as the argv it stands for: comments dropped, optional parts taken, the first of
    each set of alternatives chosen."""
    command = re.sub(r"\s+#\s.*$", "", command).replace("…", "").replace("...", "x")
    while OPTIONAL.search(command):
        command = OPTIONAL.sub(lambda m: m.group(1), command)
    words = [PLACEHOLDER_VALUES.get(word, word) for word in shlex.split(command)]
    if "|" in words:  # `docs remove ~/papers | --collection work | --all`
        words = words[: words.index("|")]
    return [word.split("|")[0] for word in words][1:]


def parser_for(name: str):
    from eagle_chat import app
    from eagle_chat.commands import bench, conversations, docs, models, self_test, serve, tools

    return {"gui": app.gui_parser, "bench": bench.bench_parser, "models": models.models_parser,
            "serve": serve.serve_parser, "conversations": conversations.conversations_parser,
            "docs": docs.docs_parser, "tools": tools.tools_parser, "self_test": self_test._parser}[name]()


def test_the_docs_pages_exist_and_are_found():
    names = {page.name for page in PAGES}
    assert {"README.md", "using-the-window.md", "api-and-agents.md", "documents.md", "demos.md",
            "benchmarks.md", "security-and-privacy.md", "developing.md", "speculative-decoding.md"} <= names


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_resolves(page):
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in heading_anchors(resolved):
            broken.append(target)
    assert not broken, f"{page.name}: links that lead nowhere: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_shown_command_parses(page, capsys):
    refused = []
    for command in shown_commands(page):
        argv = argv_of(command)
        if argv[:2] and argv[0] == "--home":  # the global option, before any command
            argv = argv[2:]
        name = cli.COMMANDS.get(argv[0]) if argv else None
        if name and len(argv) == 1 and name != "self_test":
            continue  # a command named in prose (`eagle-chat docs`), not a command line
        name, rest = ("gui", argv) if name is None else (name, argv[1:])
        try:
            parser_for(name).parse_args(rest)
        except SystemExit as exit_:
            if exit_.code:
                refused.append(f"{command!r}: {capsys.readouterr().err.strip().splitlines()[-1]}")
    assert not refused, f"{page.name}: commands the command line refuses:\n" + "\n".join(refused)


def test_a_command_that_no_longer_exists_is_caught(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("Run `eagle-chat models frobnicate NAME` or `eagle-chat docs search \"q\" --k 5 [--json]`.\n"
                    "A [link](nowhere.md) and [another](#no-such-heading).\n", encoding="utf-8")
    argv = argv_of(shown_commands(page)[0])
    with pytest.raises(SystemExit):
        parser_for(cli.COMMANDS[argv[0]]).parse_args(argv[1:])
    assert argv_of(shown_commands(page)[1]) == ["docs", "search", "q", "--k", "5", "--json"]
    assert relative_links(page) == ["nowhere.md", "#no-such-heading"]
    assert "no-such-heading" not in heading_anchors(page)
