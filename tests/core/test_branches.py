"""Branches: siblings for regenerated replies and edited messages, the visible path, delete, continue."""

from dataclasses import replace

import pytest

from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.storage import branches
from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.store import ConversationStore


def stats(tokens=40, tps=500.0, tpot=2.0, thinking=None, steps=20, **more):
    return GenerationStats(mode="speculative", num_assistant_tokens=5, generated_tokens=tokens, input_tokens=12,
                           ttft_ms=3.0, tpot_ms=tpot, tokens_per_s=tps, duration_ms=tokens / tps * 1000 + 3,
                           accepted_tokens=tokens // 2, draft_tokens=tokens, acceptance=0.5,
                           tokens_per_step=tokens / steps, thinking_tokens=thinking, **more)


@pytest.fixture
def store(tmp_path):
    store = ConversationStore(tmp_path / "c.sqlite3")
    yield store
    store.close()


def texts(conversation):
    return [m.content for m in conversation.messages]


def three_turns(store):
    c = store.create_conversation()
    for text in ("u1", "a1", "u2", "a2"):
        store.add_message(c, Message("user" if text[0] == "u" else "assistant", text))
    return c


def test_regenerate_and_edit_keep_the_old_branch_and_the_path_persists(store):
    c = three_turns(store)
    a2 = c.messages[3]
    branches.cut_before(c, a2)  # regenerate a2: a sibling under u2
    store.add_message(c, Message("assistant", "a2'"))
    assert texts(c) == ["u1", "a1", "u2", "a2'"]
    assert branches.position(c, c.messages[3]) == (2, 2)
    u2 = c.messages[2]
    branches.cut_before(c, u2)  # edit u2: a sibling under a1, and its reply
    store.add_message(c, Message("user", "u2 edited"))
    store.add_message(c, Message("assistant", "a3"))
    assert texts(c) == ["u1", "a1", "u2 edited", "a3"]
    assert [m.content for m in branches.siblings(c, c.messages[2])] == ["u2", "u2 edited"]
    assert c.history()[-2:] == [{"role": "user", "content": "u2 edited"}, {"role": "assistant", "content": "a3"}]

    again = store.load_conversation(c.id)  # reopened on the branch last shown
    assert texts(again) == ["u1", "a1", "u2 edited", "a3"] and len(again.all_messages) == 7
    assert branches.switch(again, again.messages[2], -1).content == "u2"
    assert texts(again) == ["u1", "a1", "u2", "a2'"]  # the newest reply of that branch
    assert branches.switch(again, again.messages[3], -1).content == "a2"
    assert texts(again) == ["u1", "a1", "u2", "a2"]
    assert branches.switch(again, again.messages[3], -1) is None  # the first has no previous
    store.save_path(again)
    assert texts(store.load_conversation(c.id)) == ["u1", "a1", "u2", "a2"]


def test_delete_takes_what_follows_and_shows_a_sibling(store):
    c = three_turns(store)
    branches.cut_before(c, c.messages[2])
    store.add_message(c, Message("user", "u2b"))
    store.add_message(c, Message("assistant", "a2b"))
    gone = branches.remove(c, c.messages[2])  # u2b and its reply
    store.delete_messages(c, gone)
    assert [m.content for m in gone] == ["u2b", "a2b"]
    assert texts(c) == ["u1", "a1", "u2", "a2"]
    again = store.load_conversation(c.id)
    assert texts(again) == ["u1", "a1", "u2", "a2"] and len(again.all_messages) == 4
    gone = branches.remove(again, again.messages[1])  # a1: everything after it goes, the path ends at u1
    store.delete_messages(again, gone)
    assert texts(again) == ["u1"] and texts(store.load_conversation(c.id)) == ["u1"]


def test_a_conversation_without_branches_has_one_of_everything():
    from eagle_chat.core.storage.conversation import Conversation

    c = Conversation(messages=[Message("user", "hi", id=1), Message("assistant", "hello", id=2, parent_id=1)])
    assert branches.position(c, c.messages[1]) == (1, 1)


def test_which_replies_can_be_continued():
    limit = {"settings": {"max_new_tokens": 40}}
    assert branches.is_cut(Message("assistant", "x", stats=stats(40), made_with=limit))
    assert not branches.is_cut(Message("assistant", "x", stats=stats(39), made_with=limit))
    assert branches.is_cut(Message("assistant", "x", status="stopped"))
    assert branches.is_cut(Message("assistant", "x", status="interrupted"))
    assert not branches.is_cut(Message("assistant", "x", status="failed"))
    assert not branches.is_cut(Message("user", "x", status="stopped"))
    # a continued reply: its tokens add up past the last run's limit, but that run ended by itself
    ended = branches.made_with(None, {"max_new_tokens": 40}, hit_limit=False)
    assert not branches.is_cut(Message("assistant", "x", stats=stats(70), made_with=ended))
    assert branches.is_cut(Message("assistant", "x", stats=stats(12), made_with={**ended, "hit_limit": True}))


def test_continuing_sends_the_reply_as_written_so_far(store):
    c = three_turns(store)
    reply = c.messages[3]
    reply.thinking, reply.content = "plan", "Here is"
    assert branches.continuation_history(c, reply)[-1] == {
        "role": "assistant", "content": "<think>\nplan\n</think>\n\nHere is"}
    reply.content, reply.stats = "", stats(10, thinking=10)  # cut while still thinking
    assert branches.continuation_history(c, reply)[-1]["content"] == "<think>\nplan"
    assert branches.continuation_history(c, reply)[:-1] == c.history()[:3]


def test_two_runs_of_one_reply_add_up():
    first, second = stats(40, tps=400.0, tpot=2.5, steps=20), stats(60, tps=600.0, tpot=1.5, steps=20)
    both = branches.continued_stats(first, second)
    assert both.generated_tokens == 100 and both.runs == 2
    assert both.tokens_per_s == pytest.approx(100 / (40 / 400 + 60 / 600))
    assert both.tpot_ms == pytest.approx((40 * 2.5 + 60 * 1.5) / 100)
    assert both.accepted_tokens == 50 and both.draft_tokens == 100 and both.acceptance == 0.5
    assert both.tokens_per_step == pytest.approx(100 / 40)
    assert both.ttft_ms == first.ttft_ms and both.duration_ms == first.duration_ms + second.duration_ms
    thought = branches.continued_stats(stats(10, thinking=10, thinking_ms=50.0), stats(30, thinking=8, thinking_ms=20.0))
    assert (thought.thinking_tokens, thought.thinking_ms, thought.answer_tokens) == (18, 70.0, 22)


def test_a_continued_remote_reply_keeps_draft_counts_it_was_never_told():
    """A remote server that does not report drafting gives None; two runs of it add up to None, not a crash."""
    unknown = dict(accepted_tokens=None, draft_tokens=None, acceptance=None)
    both = branches.continued_stats(replace(stats(40), **unknown), replace(stats(60), **unknown))
    assert both.generated_tokens == 100
    assert (both.accepted_tokens, both.draft_tokens, both.acceptance) == (None, None, None)


def test_a_continued_reply_streams_on_from_where_it_was_cut():
    from eagle_chat.ui.runtime.live_reply import LiveReply

    reply = Message("assistant", "", thinking="The user", status="streaming")
    live = LiveReply(reply, inside=True, continuing=True)
    for chunk in (" wants", " it.\n</th", "ink>\n\nHere", " is"):
        live.feed(chunk)
        live.apply()
    assert (reply.thinking, reply.content) == ("The user wants it.", "Here is")
    answer = Message("assistant", "Here", thinking="plan", status="streaming")
    live = LiveReply(answer, inside=False, continuing=True)
    live.feed(" is <think>")
    live.apply()
    assert (answer.thinking, answer.content) == ("plan", "Here is <think>")


def test_a_greedy_reply_that_repeats_an_older_version_says_which():
    c = three_turns_free()
    u2 = c.messages[2]
    greedy = {"settings": {"do_sample": False}}
    first = c.messages[3]
    first.made_with = greedy
    again = Message("assistant", first.content, id=10, parent_id=u2.id, made_with=greedy)
    other = Message("assistant", "something else", id=11, parent_id=u2.id, made_with=greedy)
    sampled = Message("assistant", first.content, id=12, parent_id=u2.id, made_with={"settings": {"do_sample": True}})
    c.all_messages += [again, other, sampled]
    assert branches.repeats(c, again) == 1  # word for word the first version
    assert branches.repeats(c, first) is None  # the oldest repeats nothing
    assert branches.repeats(c, other) is None
    assert branches.repeats(c, sampled) is None  # sampled: the same text is chance, not the decoding
    again.thinking = "a different thought"
    assert branches.repeats(c, again) is None
    again.thinking, again.status = "", "stopped"
    assert branches.repeats(c, again) is None  # only finished replies


def three_turns_free():
    from eagle_chat.core.storage.conversation import Conversation

    c = Conversation(id=1, title="t")
    parent = None
    for index, text in enumerate(("u1", "a1", "u2", "a2"), start=1):
        message = Message("user" if text[0] == "u" else "assistant", text, id=index, parent_id=parent)
        c.all_messages.append(message)
        parent = index
    c.messages = list(c.all_messages)
    return c
