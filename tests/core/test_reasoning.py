"""The <think> splitter: tags split anywhere across chunks, templates that open the tag in the prompt."""

import random

import pytest

from eagle_chat.core.generation.reasoning import (
    ReasoningSplitter,
    join_reasoning,
    prompt_opens_reasoning,
    split_reasoning,
)

QWEN3_REPLY = "<think>\nThe user wants a reversal. I will use slicing.\n</think>\n\nHere:\n\n```python\ns[::-1]\n```"


def feed_in_pieces(text: str, cuts: list[int], **kwargs) -> ReasoningSplitter:
    splitter = ReasoningSplitter(**kwargs)
    streamed_thinking, streamed_answer = [], []
    for start, end in zip([0, *cuts], [*cuts, len(text)]):
        thinking, answer = splitter.feed(text[start:end])
        streamed_thinking.append(thinking)
        streamed_answer.append(answer)
    thinking, answer = splitter.finish()
    streamed_thinking.append(thinking)
    streamed_answer.append(answer)
    assert "".join(streamed_thinking) == splitter.thinking and "".join(streamed_answer) == splitter.answer
    return splitter


def test_a_qwen3_reply_splits_into_thinking_and_answer():
    split = split_reasoning(QWEN3_REPLY)
    assert split.thinking == "The user wants a reversal. I will use slicing."
    assert split.answer == "Here:\n\n```python\ns[::-1]\n```"
    assert split.closed and QWEN3_REPLY[: split.reasoning_chars].endswith("</think>")


def test_every_way_of_cutting_the_stream_gives_the_same_split():
    whole = split_reasoning(QWEN3_REPLY)
    for cut in range(1, len(QWEN3_REPLY)):  # every single cut, tags included: "<thi" + "nk>", "</thi" + "nk>"
        s = feed_in_pieces(QWEN3_REPLY, [cut])
        assert (s.thinking, s.answer, s.reasoning_chars) == (whole.thinking, whole.answer, whole.reasoning_chars), cut
    rng = random.Random(7)
    for _ in range(300):  # and many random chunkings, down to one character per chunk
        cuts = sorted(rng.sample(range(1, len(QWEN3_REPLY)), rng.randint(1, 40)))
        s = feed_in_pieces(QWEN3_REPLY, cuts)
        assert (s.thinking, s.answer) == (whole.thinking, whole.answer), cuts


def test_the_answer_streams_as_soon_as_the_thinking_closes():
    splitter = ReasoningSplitter()
    assert splitter.feed("<think>\nplan") == ("plan", "")
    assert splitter.thinking_open
    assert splitter.feed(" more</th") == (" more", "")  # the partial close tag is held back
    assert splitter.feed("ink>\n\nHel") == ("", "Hel")
    assert not splitter.thinking_open and splitter.closed
    assert splitter.feed("lo") == ("", "lo")


def test_a_reply_without_tags_is_all_answer_and_shows_at_once():
    splitter = ReasoningSplitter()
    assert splitter.feed("Hello") == ("", "Hello")
    assert splitter.feed(" world") == ("", " world")
    assert split_reasoning("Hello world!") .thinking == ""
    # a tag later in the answer is answer text (code that prints "<think>")
    assert split_reasoning('Use print("<think>") and "</think>".').answer == 'Use print("<think>") and "</think>".'


def test_a_lone_partial_open_tag_is_answer_text_when_the_reply_ends():
    splitter = ReasoningSplitter()
    assert splitter.feed("<thi") == ("", "")
    assert splitter.finish() == ("", "<thi")
    assert splitter.answer == "<thi"


def test_a_prompt_that_opens_the_tag_makes_the_reply_start_inside_the_thinking():
    reply = "Let me think.\nStill thinking.\n</think>\n\nThe answer is 4."
    for cut in range(1, len(reply)):
        s = feed_in_pieces(reply, [cut], inside=True)
        assert (s.thinking, s.answer) == ("Let me think.\nStill thinking.", "The answer is 4."), cut


def test_a_reply_stopped_while_thinking_keeps_its_thinking_open():
    split = split_reasoning("<think>\nhalf a thought\n")
    assert (split.thinking, split.answer, split.closed) == ("half a thought", "", False)
    assert split.has_thinking


def test_an_empty_think_block_is_no_thinking():
    split = split_reasoning("<think>\n\n</think>\n\nJust the answer.")
    assert split.thinking == "" and split.answer == "Just the answer." and split.closed


@pytest.mark.parametrize("prompt, inside", [
    ("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", False),  # Qwen3, thinking on: the model opens
    ("<|im_start|>assistant\n<think>\n\n</think>\n\n", False),  # Qwen3, thinking off: closed in the prompt
    ("<|im_start|>assistant\n<think>\n", True),  # QwQ-style template
    ("<|im_start|>assistant\n<think>\n\n</think>\n\nold<|im_end|>\n<|im_start|>assistant\n<think>\nhalf", True),
])
def test_which_prompts_open_the_thinking(prompt, inside):
    assert prompt_opens_reasoning(prompt) is inside


def test_join_is_what_split_reads_back():
    for thinking, answer in [("plan", "answer"), ("", "only an answer"), ("a\nb", "")]:
        split = split_reasoning(join_reasoning(thinking, answer))
        assert (split.thinking, split.answer) == (thinking, answer)
    assert split_reasoning(join_reasoning("half", "", closed=False)) == split_reasoning("<think>\nhalf")


def test_the_rest_of_a_cut_reply_goes_on_where_the_cut_left_it():
    # cut mid-thought at "The user wants": the rest starts with the space before the next word
    rest = split_reasoning(" a reversal.\n</think>\n\nHere.", inside=True, continuing=True)
    assert (rest.thinking, rest.answer, rest.closed) == (" a reversal.", "Here.", True)
    # cut mid-answer: everything is answer, a "<think>" in it included
    assert split_reasoning(" <think> is a tag.", continuing=True).answer == " <think> is a tag."
