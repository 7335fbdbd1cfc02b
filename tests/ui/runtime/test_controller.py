"""The runtime without a window: a ChatController alone loads the tiny pair in its engine host, answers into
the store, refuses a second message or a comparison run while one is written, stops the window's reply within
a step, runs a comparison once free, and shuts down with its thread ended. Its signals carry the classes they
declare (LoadedPipeline, Message, GenerationResult)."""

from __future__ import annotations

import pytest

from eagle_chat.core.generation.engine import GenerationResult, GenerationSettings, PipelineSpec
from eagle_chat.core.generation.loaded import LoadedPipeline
from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.store import ConversationStore
from eagle_chat.ui.runtime.controller import ChatController
from tests.conftest import F32, TINY_DRAFT, TINY_TARGET
from tests.helpers.window import LOAD_TIMEOUT_MS, REPLY_TIMEOUT_MS


@pytest.fixture
def controller(qtbot, tmp_path):
    store = ConversationStore(tmp_path / "conversations.sqlite3")
    c = ChatController(store)
    yield c
    c.shutdown()
    store.close()


def test_a_controller_alone_loads_answers_queues_stops_and_shuts_down(qtbot, controller):
    c = controller
    with qtbot.waitSignal(c.sig_loaded, timeout=LOAD_TIMEOUT_MS) as loaded:
        c.load(PipelineSpec(TINY_TARGET, TINY_DRAFT, precision=F32))
    info = loaded.args[0]
    assert isinstance(info, LoadedPipeline) and info.has_draft and c.state == "ready"

    with qtbot.waitSignal(c.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as done:
        assert c.send("What is a parser?", GenerationSettings(max_new_tokens=16))
    message, result = done.args
    assert isinstance(message, Message) and isinstance(result, GenerationResult)
    split = result.reasoning  # the tiny pair thinks first: thinking and answer are kept apart
    assert message.role == "assistant" and message.status == "complete" and result.stats.generated_tokens > 0
    assert (message.thinking, message.content) == ((split.thinking, split.answer) if split else ("", result.text))
    stored = c.store.load_conversation(c.conversation.id).messages
    assert [(m.role, m.content, m.thinking) for m in stored] == [
        ("user", "What is a parser?", ""), ("assistant", message.content, message.thinking)]

    errors: list[str] = []
    c.sig_error.connect(errors.append)
    long = GenerationSettings(max_new_tokens=2000)
    with qtbot.waitSignal(c.sig_reply_text, timeout=REPLY_TIMEOUT_MS):  # streaming
        assert c.send("Write a long story about parsers", long)
    assert not c.send("And another?", long)  # one of the window's replies at a time (API jobs queue)
    assert c.run_ephemeral("def parse(text):", GenerationSettings(max_new_tokens=8)) is None  # nor a comparison
    assert errors == ["A reply is still being generated; stop it first."] * 2
    with qtbot.waitSignal(c.sig_reply_finished, timeout=REPLY_TIMEOUT_MS) as stopped:
        c.stop()
    message, result = stopped.args
    assert message.status == "stopped" and result.stopped and result.stats.generated_tokens < 2000
    handle = c.run_ephemeral("def parse(text):", GenerationSettings(max_new_tokens=8))  # free again
    assert handle is not None and handle.message is None and not handle.background
    with qtbot.waitSignal(handle.sig_ended, timeout=REPLY_TIMEOUT_MS) as ran:  # the reply's own handle hears it
        pass
    assert isinstance(ran.args[0], GenerationResult) and ran.args[0] is handle.result and c.state == "ready"

    c.shutdown()
    assert c.shutting_down and c.shut_down() and not c.engine.is_running()
    assert not c.send("Still there?", long)
