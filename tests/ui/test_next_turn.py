"""The next-turn prefill through the real window on the tiny pair: after a reply the conversation is run
once more in the background (the window stays ready, nothing is drawn), a send meanwhile waits for it
instead of being refused or stopping it, a load stops it, and without prefix caching it does not run."""

from __future__ import annotations

from eagle_chat.core.generation import prefill
from tests.gui import LOAD_TIMEOUT_MS, REPLY_TIMEOUT_MS, send, wait_ready


def when_the_prefill_starts(controller, action):
    """Run ``action`` once, from the signal that starts the prefill (so it runs while the prefill does)."""
    done = []

    def on_started(handle):
        if not done and handle.settings.next_turn:
            done.append(handle)
            action()

    controller.sig_background_started.connect(on_started)
    return done


def test_listeners_of_the_reply_broadcasts_hear_only_the_replies_someone_asked_for(qtbot, open_window):
    """The warm start and the prefill are no one's reply: a listener of sig_reply_started or sig_reply_text
    (the chart, the crash marker's test, the API's series) must not take either for the user's reply. They
    are announced on sig_background_started instead, and their handles stream nothing."""
    window = open_window(wait_loaded=False, warm_start=True, next_turn_prefill=True)
    c = window.controller
    started, background, foreign = [], [], []

    def on_background(handle):
        background.append((handle, handle.settings))
        for signal in (handle.sig_text, handle.sig_steps, handle.sig_rate_points):
            signal.connect(lambda *_: foreign.append(handle))

    c.sig_reply_started.connect(started.append)
    c.sig_background_started.connect(on_background)
    c.sig_reply_text.connect(lambda message, _text: message is None and foreign.append("text"))
    with qtbot.waitSignal(window.demo.warm_start.sig_warmed, timeout=REPLY_TIMEOUT_MS):
        wait_ready(qtbot, window)
    window.options.max_tokens.setValue(24)
    with qtbot.waitSignal(c.next_turn.sig_prefilled, timeout=REPLY_TIMEOUT_MS) as prefilled:
        message, result = send(qtbot, window, "What is a parser?")
    assert prefilled.args[1] is not None  # the prefill ran, after two warm-up replies
    assert len(started) == 1 and foreign == []  # the user's reply only
    assert [s.next_turn for _, s in background] == [False, False, True]
    assert prefilled.args[0] is background[-1][0]  # the prefill knew itself by its background start


def test_after_a_reply_the_conversation_is_prefilled_in_the_background(qtbot, open_window):
    window = open_window(next_turn_prefill=True)
    window.options.max_tokens.setValue(24)
    c = window.controller
    states, series = [], len(window.chart._series)
    c.sig_state.connect(states.append)
    c.sig_reply_finished.connect(lambda *_: states.append("reply finished"))
    with qtbot.waitSignal(c.next_turn.sig_prefilled, timeout=REPLY_TIMEOUT_MS) as prefilled:
        message, result = send(qtbot, window, "What is a parser?")
    _, pre = prefilled.args
    assert pre is not None and not pre.stopped
    # The conversation so far, reply included, went in; only a few tokens came out.
    assert pre.stats.input_tokens > result.stats.input_tokens + result.stats.generated_tokens // 2
    assert pre.stats.generated_tokens <= window.generation_settings().num_assistant_tokens + prefill.EXTRA_STEPS
    assert states[states.index("reply finished"):] == ["reply finished"]  # the window stayed "ready"
    assert c.state == "ready" and c.reply is None and window.notice.text() == ""
    assert len(window.chart._series) == series + 1  # the reply's line, none for the prefill
    assert [m.content for m in c.conversation.messages] == ["What is a parser?", message.content]


def test_a_send_during_the_prefill_waits_for_it_and_is_answered(qtbot, open_window):
    window = open_window(next_turn_prefill=True)
    window.options.max_tokens.setValue(24)
    c = window.controller
    prefills, finished = [], []
    c.next_turn.sig_prefilled.connect(lambda _handle, result: prefills.append(result))
    c.sig_reply_finished.connect(lambda message, result: finished.append((message, result)))

    def type_and_send():
        window.prompt.setPlainText("And a lexer?")
        window.send()
        states.append(c.state)  # queued behind the prefill: already "generating", so Stop works

    states = []

    started = when_the_prefill_starts(c, type_and_send)
    send(qtbot, window, "What is a parser?")
    qtbot.waitUntil(lambda: len(finished) == 2, timeout=REPLY_TIMEOUT_MS)
    assert started and states == ["generating"]
    message, result = finished[1]
    assert result is not None and message.status == "complete" and result.text  # answered, not refused
    assert window.notice.text() == ""
    assert prefills and prefills[0] is not None and not prefills[0].stopped  # and did not stop the prefill
    assert [m.content for m in c.conversation.messages][-2] == "And a lexer?"
    assert result.stats.history_tokens > 0


def test_a_load_stops_the_prefill(qtbot, open_window):
    window = open_window(next_turn_prefill=True)
    window.options.max_tokens.setValue(24)
    c = window.controller
    loads, prefills = [], []
    c.next_turn.sig_prefilled.connect(lambda _handle, result: prefills.append(result))
    when_the_prefill_starts(c, lambda: loads.append(c.load(window.pipeline_spec())))
    send(qtbot, window, "What is a parser?")
    qtbot.waitUntil(lambda: bool(prefills), timeout=REPLY_TIMEOUT_MS)
    assert loads and loads[0] is not None  # the load was not refused for the prefill
    assert prefills == [None]  # it was stopped and forgotten
    qtbot.waitUntil(lambda: c.state == "ready", timeout=LOAD_TIMEOUT_MS)
    assert window.notice.text() == ""


def test_without_prefix_caching_nothing_is_prefilled(qtbot, open_window):
    window = open_window(next_turn_prefill=True)
    window.options.max_tokens.setValue(24)
    c = window.controller
    assert window.set_prefix_cache(False)
    wait_ready(qtbot, window)
    qtbot.waitUntil(lambda: c.loaded is not None and not c.loaded.spec.prefix_cache, timeout=LOAD_TIMEOUT_MS)
    starts = []
    c.sig_reply_started.connect(starts.append)
    c.sig_background_started.connect(starts.append)
    send(qtbot, window, "What is a parser?")
    qtbot.waitUntil(lambda: not c.next_turn._timer.isActive(), timeout=REPLY_TIMEOUT_MS)
    assert len(starts) == 1 and c.next_turn.handle is None and c.reply is None
