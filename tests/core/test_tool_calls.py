"""The <tool_call> parser: whole and streamed in chunks of every size give the same calls and content."""

from __future__ import annotations

import itertools
import json

import pytest

from eagle_chat.core.generation.tool_calls import ToolCallParser

WEATHER = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "c"}}\n</tool_call>'
NESTED = ('<tool_call>\n{"name": "write_file", "arguments": {"path": "a}b.py", "text": "if x: {\\"k\\": [1, 2]}\\n'
          '</tool_call> \\\\", "q": "a \\"}\\" b", "opts": {"mode": [1, {"x": null}]}}}\n</tool_call>')


def ids():
    counter = itertools.count()
    return lambda: f"call_{next(counter)}"


def parse(text: str, sizes=None):
    """Feed ``text`` in chunks (sizes cycle) and return (content from deltas, calls, argument text from
    deltas by index, the order the first delta of each call came in)."""
    parser = ToolCallParser(new_id=ids())
    chunks, at = [], 0
    for size in itertools.cycle(sizes or [len(text) or 1]):
        if at >= len(text):
            break
        chunks.append(text[at:at + size])
        at += size
    content, arguments, started = "", {}, []
    for delta in [*(parser.feed(c) for c in chunks), parser.finish()]:
        content += delta.content
        started += [c.index for c in delta.started]
        for index, piece in delta.arguments:
            assert index in started  # a call is announced before its arguments
            arguments[index] = arguments.get(index, "") + piece
    assert content == parser.content
    return content, parser.calls, arguments, started


SIZES = [None, [1], [2], [3], [5, 1, 7], [11]]


@pytest.mark.parametrize("sizes", SIZES)
def test_one_call_split_anywhere(sizes):
    content, calls, arguments, _ = parse(WEATHER, sizes)
    assert content == ""
    assert [(c.name, c.arguments, c.error, c.closed) for c in calls] == [
        ("get_weather", '{"city": "Paris", "unit": "c"}', None, True)]
    assert arguments == {0: calls[0].arguments}
    assert calls[0].id == "call_0"


@pytest.mark.parametrize("sizes", SIZES)
def test_two_calls_and_prose_around_them(sizes):
    text = "Let me look.\n\n" + WEATHER + "\n" + WEATHER.replace("Paris", "Rome") + "\n\nDone."
    content, calls, arguments, started = parse(text, sizes)
    assert content == "Let me look.Done."
    assert [json.loads(c.arguments)["city"] for c in calls] == ["Paris", "Rome"]
    assert [c.index for c in calls] == started == [0, 1]
    assert arguments == {0: calls[0].arguments, 1: calls[1].arguments}
    assert all(c.error is None for c in calls)


@pytest.mark.parametrize("sizes", SIZES)
def test_braces_quotes_and_the_close_tag_inside_strings(sizes):
    _, calls, arguments, _ = parse(NESTED, sizes)
    assert len(calls) == 1 and calls[0].error is None
    args = json.loads(calls[0].arguments)
    assert args["path"] == "a}b.py" and args["text"].endswith("</tool_call> \\") and args["q"] == 'a "}" b'
    assert args["opts"]["mode"][1] == {"x": None}
    assert arguments[0] == calls[0].arguments


@pytest.mark.parametrize("sizes", SIZES)
def test_no_half_written_tag_reaches_content(sizes):
    parser = ToolCallParser(new_id=ids())
    text = "x < y and <tool_ca"  # "<tool_ca" may still become the tag
    shown = "".join(parser.feed(c).content for c in _chunks(text, sizes))
    assert shown == "x < y and"
    assert "<tool" not in shown
    assert parser.finish().content == " <tool_ca"  # the reply ended: it was text after all (whitespace kept)


def _chunks(text, sizes):
    out, at = [], 0
    for size in itertools.cycle(sizes or [len(text)]):
        if at >= len(text):
            return out
        out.append(text[at:at + size])
        at += size


@pytest.mark.parametrize("sizes", SIZES)
def test_a_block_that_is_not_a_call_stays_content(sizes):
    text = "See <tool_call>not json at all</tool_call> here."
    content, calls, _, _ = parse(text, sizes)
    assert calls == [] and content == text  # as written, the whitespace around it too


@pytest.mark.parametrize("sizes", SIZES)
def test_other_key_order_is_read_when_the_block_ends(sizes):
    text = '<tool_call>{"arguments": {"a": 1}, "name": "add"}</tool_call>'
    content, calls, arguments, _ = parse(text, sizes)
    assert content == "" and [(c.name, json.loads(c.arguments)) for c in calls] == [("add", {"a": 1})]
    assert arguments == {0: calls[0].arguments}


@pytest.mark.parametrize("sizes", SIZES)
def test_malformed_arguments_are_kept_and_flagged(sizes):
    text = '<tool_call>\n{"name": "add", "arguments": {"a": 1,, "b"}}\n</tool_call>'
    _, calls, arguments, _ = parse(text, sizes)
    assert calls[0].arguments == '{"a": 1,, "b"}' == arguments[0]
    assert calls[0].error == "the arguments are not a JSON object"


@pytest.mark.parametrize("sizes", SIZES)
def test_a_reply_cut_inside_a_call(sizes):
    text = '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b'
    _, calls, arguments, _ = parse(text, sizes)
    assert calls[0].arguments == '{"a": 1, "b' == arguments[0]
    assert calls[0].error == "the reply ended inside this call" and not calls[0].closed


@pytest.mark.parametrize("sizes", SIZES)
def test_a_reply_cut_before_the_calls_name_is_neither_call_nor_content(sizes):
    parser = ToolCallParser(new_id=ids())
    content = "".join(parser.feed(c).content for c in _chunks('Sure. <tool_call>\n{"name": "ad', sizes))
    content += parser.finish().content
    assert (content, parser.calls) == ("Sure.", []) and "before the call's name" in (parser.cut or "")


def test_a_missing_outer_brace_and_a_missing_close_tag():
    _, calls, _, _ = parse('<tool_call>\n{"name": "add", "arguments": {"a": 1}\n</tool_call>')
    assert calls[0].arguments == '{"a": 1}' and calls[0].error == "the call's JSON object is not closed"
    _, calls, _, _ = parse('<tool_call>\n{"name": "add", "arguments": {"a": 1}}')  # EOS before </tool_call>
    assert calls[0].arguments == '{"a": 1}' and calls[0].error is None


def test_text_without_calls_is_untouched():
    text = "def f(x):\n    return {'a': [1, 2]}  # no calls here\n\n"
    for sizes in SIZES:
        content, calls, _, _ = parse(text, sizes)
        assert calls == [] and content == text
