"""Conversations to take along: JSON (every branch, round trip identical), Markdown, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from eagle_chat.core.generation.engine import GenerationSettings, PipelineSpec
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage import branches, export
from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.store import ConversationStore

SPEC = PipelineSpec(Path("/home/someone/models/tiny-qwen3"), Path("/home/someone/models/tiny-qwen3-eagle3"),
                    precision="f32")


def stats(tokens, mode="speculative", thinking=None):
    return GenerationStats(mode=mode, num_assistant_tokens=5 if mode == "speculative" else 0,
                           generated_tokens=tokens, input_tokens=19, ttft_ms=4.0, tpot_ms=2.1, tokens_per_s=476.2,
                           duration_ms=130.0, accepted_tokens=tokens // 2, draft_tokens=tokens,
                           acceptance=0.5 if mode == "speculative" else None, tokens_per_step=2.0,
                           thinking_tokens=thinking, thinking_ms=61.5 if thinking else None)


def branched(store: ConversationStore):
    """Ask, a reply with thinking, the reply regenerated as a baseline, then an edited follow-up."""
    c = store.create_conversation(title="Reverse a string", system_prompt="You write Python.")
    made = branches.made_with(SPEC, GenerationSettings(max_new_tokens=96, thinking=True))
    store.add_message(c, Message("user", "Write a Python function that reverses a string."))
    first = store.add_message(c, Message("assistant", "Here is one:\n\n```python\ns[::-1]\n```",
                                         thinking="The user wants slicing.", stats=stats(60, thinking=21),
                                         made_with=made))
    branches.cut_before(c, first)
    store.add_message(c, Message("assistant", "Use `reversed`.", stats=stats(12, "baseline"), made_with=made))
    store.add_message(c, Message("user", "And in C?"))
    follow = store.add_message(c, Message("assistant", "", status="failed", error="too long"))
    branches.cut_before(c, c.messages[-2])
    store.add_message(c, Message("user", "And in Rust?"))
    store.add_message(c, Message("assistant", "`s.chars().rev()`", status="stopped", stats=stats(7)))
    assert follow.id is not None
    return store.load_conversation(c.id)


def test_json_export_import_round_trip_is_identical(tmp_path):
    store = ConversationStore(tmp_path / "a.sqlite3")
    original = branched(store)
    text = export.dumps(original)
    data = json.loads(text)
    assert len(data["messages"]) == 7 and data["current"] == 7
    assert [m["parent"] for m in data["messages"]] == [None, 1, 1, 3, 4, 3, 6]
    assert data["messages"][1]["thinking"] == "The user wants slicing."
    assert data["messages"][1]["stats"]["thinking_tokens"] == 21
    assert data["messages"][1]["made_with"]["target"] == "tiny-qwen3"
    assert data["messages"][1]["made_with"]["settings"]["max_new_tokens"] == 96
    assert "/home/someone" not in text  # folder names only

    other = ConversationStore(tmp_path / "b.sqlite3")
    other.create_conversation("already here")  # the import gets new database ids
    imported = other.insert_conversation(export.loads(text))
    assert imported.id != original.id
    assert export.dumps(imported) == text
    assert [m.content for m in imported.messages] == [m.content for m in original.messages]
    reopened = ConversationStore(tmp_path / "b.sqlite3").load_conversation(imported.id)
    assert export.dumps(reopened) == text
    store.close()
    other.close()


@pytest.mark.parametrize("mutate, says", [
    (lambda d: d.update(format="something"), "not an EagleChat conversation"),
    (lambda d: d.update(version=99), "newer EagleChat"),
    (lambda d: d["messages"][2].update(parent=9), "does not come before it"),
    (lambda d: d["messages"][0].update(role="robot"), "unknown role"),
    (lambda d: d["messages"][0].update(content=5), "not text"),
    (lambda d: d.update(current=42), "does not have"),
])
def test_a_damaged_file_is_refused_with_a_reason(tmp_path, mutate, says):
    store = ConversationStore(tmp_path / "a.sqlite3")
    data = export.to_json(branched(store))
    mutate(data)
    with pytest.raises(export.ConversationFileError, match=says):
        export.from_json(data)
    with pytest.raises(export.ConversationFileError, match="stops being valid JSON at line 1, column 3"):
        export.loads("{ not json")
    store.close()


def test_markdown_is_the_visible_path_with_thinking_folded_and_stats_as_footnotes(tmp_path):
    store = ConversationStore(tmp_path / "a.sqlite3")
    conversation = branched(store)
    branches.switch(conversation, conversation.messages[1], -1)  # back to the first reply, with thinking
    text = export.to_markdown(conversation)
    assert text.startswith("# Reverse a string\n")
    assert "> You write Python." in text
    assert "## EagleChat (reply 1 of 2)" in text
    assert "<details>\n<summary>Thought for 0.1 s</summary>\n\nThe user wants slicing.\n\n</details>" in text
    assert "```python\ns[::-1]\n```\n\n[^1]\n\n[^1]: EAGLE-3 K=5 · 476.2 tok/s · TTFT 4 ms · 60 tokens " \
           "(21 thinking, 39 answer)" in text
    assert "model tiny-qwen3 + tiny-qwen3-eagle3" in text and "Use `reversed`." not in text
    assert "<think>" not in text and "And in" not in text  # that reply has no follow-up

    branches.switch(conversation, conversation.messages[1], +1)  # the regenerated reply and what followed
    text = export.to_markdown(conversation)
    assert "## EagleChat (reply 2 of 2)" in text and "Use `reversed`.\n\n[^1]\n\n[^1]: baseline · " in text
    assert "## You (version 2 of 2)" in text and "And in Rust?" in text and "And in C?" not in text
    assert "## EagleChat — stopped" in text and "[^2]: EAGLE-3" in text
    store.close()


def cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "eagle_chat", "conversations", *args, "--home", str(home)],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_the_command_line_lists_exports_and_imports(tmp_path):
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    store = ConversationStore(home / "data" / "conversations.sqlite3")
    conversation = branched(store)
    store.add_message(store.create_conversation("A streaming one"), Message("assistant", "half", status="streaming"))
    store.close()

    listed = cli("list", home=home)
    assert listed.returncode == 0, listed.stderr
    assert "Reverse a string" in listed.stdout and "4+3" in listed.stdout
    rows = json.loads(cli("list", "--json", home=home).stdout)
    assert {r["title"]: (r["messages"], r["all_messages"], r["alternatives"]) for r in rows}[
        "Reverse a string"] == (4, 7, 2)

    md = cli("export", str(conversation.id), "--format", "md", home=home)
    assert md.returncode == 0 and md.stdout == export.to_markdown(conversation)
    out = tmp_path / "out" / "c.json"
    done = cli("export", str(conversation.id), "--format", "json", "--output", str(out), home=home)
    assert done.returncode == 0 and out.read_text(encoding="utf-8") == export.dumps(conversation)
    missing = cli("export", "999", home=home)
    assert missing.returncode == 2 and "no conversation 999" in missing.stderr

    imported = cli("import", str(out), home=home)
    assert imported.returncode == 0 and "7 messages" in imported.stdout, imported.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}', encoding="utf-8")
    refused = cli("import", str(bad), home=home)
    assert refused.returncode == 2 and "not an EagleChat conversation" in refused.stderr

    store = ConversationStore(home / "data" / "conversations.sqlite3", recover=False)
    titles = [c.title for c in store.list_conversations()]
    assert titles.count("Reverse a string") == 2
    streaming = next(c for c in store.list_conversations() if c.title == "A streaming one")
    assert store.load_conversation(streaming.id).messages[0].status == "streaming"  # the CLI left it alone
    newest = store.load_conversation(max(c.id for c in store.list_conversations()))
    assert export.dumps(newest) == export.dumps(conversation)
    store.close()


def test_markdown_says_why_a_reply_failed(tmp_path):
    store = ConversationStore(tmp_path / "a.sqlite3")
    conversation = branched(store)
    branches.switch(conversation, conversation.messages[2], -1)
    text = export.to_markdown(conversation)
    assert "## You (version 1 of 2)" in text and "And in C?" in text
    assert "## EagleChat — failed\n\n*Error: too long*" in text
    store.close()


def blocks(markdown: str) -> list[tuple[str, str]]:
    """How a CommonMark reader sees ``markdown``: (kind, text) of each block — "inline" for text outside
    code, "fence" / "code_block" for code, "html_block" for raw HTML such as <details>."""
    from markdown_it import MarkdownIt

    return [(t.type, t.content) for t in MarkdownIt("commonmark").parse(markdown)
            if t.type in ("inline", "fence", "code_block", "html_block")]


@pytest.mark.parametrize("cut", [
    "Here:\n\n```python\ndef merge(a, b):\n    return sor",  # stopped mid-line in a ``` block
    "Nested:\n\n````markdown\n```python\nprint(1)\n```\nstill in the outer",  # ```` holds a ``` block
    "Tildes:\n\n~~~\nx = 1\n```\nnot closed by backticks",  # ~~~ is closed by ~~~ only
    "Indented:\n\n   ```sh\nls -l",  # a fence may be indented 3 spaces
    "Short close:\n\n`````\ncode\n````",  # four backticks do not close five
])
def test_a_reply_cut_inside_a_code_block_leaves_no_fence_open(tmp_path, cut):
    store = ConversationStore(tmp_path / "a.sqlite3")
    c = store.create_conversation(title="Cut")
    store.add_message(c, Message("user", "Write it"))
    store.add_message(c, Message("assistant", cut, status="stopped", stats=stats(9), thinking="```\nhalf a thought"))
    store.add_message(c, Message("user", "Go on after the code"))
    text = export.to_markdown(store.load_conversation(c.id))
    read = blocks(text)
    outside = "\n".join(content for kind, content in read if kind == "inline")
    assert "[^1]: EAGLE-3" in outside and "Go on after the code" in outside  # not swallowed as code
    assert "EagleChat — stopped" in outside and "You" in outside
    assert ("html_block", "</details>\n") in read  # the thinking cut in a fence is closed, too
    assert cut.rstrip() in text  # the reply itself kept as written
    store.close()


def test_closed_fences_are_left_alone():
    for whole in ("```py\nx\n```", "~~~\na\n~~~~", "Use ``` for code: ```inline``` stays.", "````\n```\n````",
                  "``` \nx\n```   "):
        assert export.close_fences(whole) == whole
    assert export.close_fences("````\n```\ncode") == "````\n```\ncode\n````"
    assert export.close_fences("~~~~\ncode\n~~~") == "~~~~\ncode\n~~~\n~~~~"
