from eagle_chat.core.storage.conversation import Conversation, Message


def test_history_skips_failed_turns_but_keeps_stopped_ones():
    conversation = Conversation(system_prompt="Be brief.", messages=[
        Message("user", "hi"), Message("assistant", "hello"),
        Message("user", "x" * 100_000), Message("assistant", "", status="failed", error="too long"),
        Message("user", "tell a story"), Message("assistant", "Once upon", status="stopped"),
        Message("user", "go on"),
    ])
    assert conversation.history() == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"},
        {"role": "user", "content": "tell a story"}, {"role": "assistant", "content": "Once upon"},
        {"role": "user", "content": "go on"},
    ]


def test_title_from_first_message():
    assert Conversation().title_from("  Write   quicksort\nin Python ") == "Write quicksort in Python"
    assert len(Conversation().title_from("word " * 40)) == 48
