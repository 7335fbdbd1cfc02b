"""The line that says whether the next reply is speculative and why not: every case, and in the window."""

import pytest
from PySide6.QtCore import Qt

from eagle_chat.core.generation import outlook
from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.structured import Constraint
from eagle_chat.ui.words import texts
from tests.gui import send

ON_CPU = dict(loaded=True, has_draft=True, device="CPU", draft_device="CPU")
CASES = [
    # (facts, reason, speculative, words the sentence must hold)
    (dict(ON_CPU, settings=GenerationSettings(num_assistant_tokens=4)), outlook.ON, True,
     ["EAGLE-3 speculative decoding", "K=4"]),
    (dict(ON_CPU, settings=GenerationSettings(num_assistant_tokens=5, tree_depth=3, branching_factor=2)),
     outlook.ON, True, ["3 deep × 2 wide", "K=5"]),
    (dict(ON_CPU, sampling_asked=True), outlook.ON_SAMPLING_SET_ASIDE, True, ["greedy", "sampling is set aside"]),
    (dict(loaded=False), outlook.NO_MODEL, False, ["no model is loaded"]),
    (dict(loaded=False, loading=True), outlook.LOADING, False, ["waiting for the model to load"]),
    (dict(ON_CPU, device="NPU", draft_device="NPU", history_tokens=1500, npu_prompt_limit=1024),
     outlook.NPU_PROMPT_TOO_LONG, False, ["1500 tokens", "prompt limit of 1024", "new conversation"]),
    (dict(loaded=True, has_draft=False, device="CPU"), outlook.NO_DRAFT, False, ["no EAGLE-3 draft is loaded"]),
    (dict(ON_CPU, device="NPU", draft_device="CPU"), outlook.DEVICE_MISMATCH, False,
     ["draft is on CPU", "model on NPU", "same device"]),
    (dict(ON_CPU, settings=GenerationSettings(speculative=False)), outlook.DRAFT_OFF, False,
     ["EAGLE-3 is switched off"]),
    (dict(ON_CPU, settings=GenerationSettings(do_sample=True)), outlook.SAMPLING, False,
     ["sampling was asked for", "greedily only"]),
    (dict(ON_CPU, draft_reduced_vocab=True, settings=GenerationSettings(
        num_assistant_tokens=4, constraint=Constraint("json_object"))), outlook.GRAMMAR_D2T, False,
     ["plain decoding", "a grammar holds the reply", "reduced-vocabulary (d2t) draft"]),
    (dict(ON_CPU, draft_reduced_vocab=True, settings=GenerationSettings(
        num_assistant_tokens=4, constraint=Constraint("tool_calls", "[]"))), outlook.GRAMMAR_D2T, False,
     ["its tool call decodes without drafting", "“Required”", "reduced-vocabulary (d2t) draft", "draft with K=4"]),
    # a full-vocabulary draft drafts under a grammar; a d2t draft drafts without one
    (dict(ON_CPU, settings=GenerationSettings(constraint=Constraint("tool_calls", "[]"))), outlook.ON, True,
     ["EAGLE-3 speculative decoding"]),
    (dict(ON_CPU, draft_reduced_vocab=True), outlook.ON, True, ["EAGLE-3 speculative decoding"]),
    # a method pinned under Speculation: named; prompt lookup needs no draft; Off is plain whatever else
    (dict(loaded=True, has_draft=False, device="CPU", settings=GenerationSettings(method="prompt_lookup")),
     outlook.PINNED, True, ["Next reply: prompt lookup (pinned), K=5", "Speculation"]),
    (dict(ON_CPU, settings=GenerationSettings(method="eagle3", num_assistant_tokens=3)), outlook.PINNED, True,
     ["Next reply: EAGLE-3 (pinned), K=3"]),
    (dict(ON_CPU, settings=GenerationSettings(method="off", speculative=False)), outlook.PINNED_OFF, False,
     ["plain decoding (pinned)", "Speculation is set to Off"]),
    (dict(loaded=True, has_draft=False, device="CPU", settings=GenerationSettings(method="off")),
     outlook.PINNED_OFF, False, ["plain decoding (pinned)"]),
]


@pytest.mark.parametrize("facts, reason, speculative, words", CASES, ids=[c[1] + str(i) for i, c in enumerate(CASES)])
def test_each_reason_has_its_case_and_its_sentence(facts, reason, speculative, words):
    found = outlook.next_reply(**facts)
    assert (found.reason, found.speculative) == (reason, speculative)
    line = texts.next_reply_line(found)
    assert all(word in line for word in words), line
    assert line.startswith("Next reply:")


def test_every_reason_is_covered_and_no_two_share_a_sentence():
    assert {c[1] for c in CASES} == set(outlook.REASONS)
    sentences = {c[1]: texts.next_reply_line(outlook.next_reply(**c[0])).split(" — ")[-1] for c in CASES}
    assert len(set(sentences.values())) == len(outlook.REASONS)


def test_a_prompt_within_the_npu_limit_or_on_cpu_is_not_too_long():
    near = dict(ON_CPU, device="NPU", draft_device="NPU", npu_prompt_limit=1024)
    assert outlook.next_reply(**near, history_tokens=1024).speculative
    assert outlook.next_reply(**dict(ON_CPU, history_tokens=5000, npu_prompt_limit=1024)).speculative


def test_the_window_says_why_case_by_case(qtbot, open_window, tiny_pair):
    window = open_window(wait_loaded=False)
    line = window.side.next_reply
    assert window.controller.state == "loading"
    qtbot.waitUntil(lambda: "waiting for the model to load" in line.text(), timeout=2_000)
    qtbot.waitUntil(lambda: window.controller.state == "ready", timeout=60_000)
    qtbot.waitUntil(lambda: "EAGLE-3 speculative decoding, K=" in line.text(), timeout=2_000)
    window.model_bar.k_slider.setValue(4)
    qtbot.waitUntil(lambda: "K=4" in line.text(), timeout=2_000)

    window.model_bar.draft_toggle.setChecked(False)  # the EAGLE-3 button off is Off under Speculation
    qtbot.waitUntil(lambda: "plain decoding (pinned)" in line.text(), timeout=2_000)
    assert window.options.speculation.currentData() == "off"
    window.options.max_tokens.setValue(8)
    message, result = send(qtbot, window, "hello")
    assert result.stats.mode == "baseline" and result.stats.method == "off"  # the line told the truth
    assert "plain decoding (pinned)" in line.text()

    window.model_bar.draft_toggle.setChecked(True)
    window.options.sampling.setChecked(True)
    qtbot.waitUntil(lambda: "sampling is set aside" in line.text(), timeout=2_000)
    message, result = send(qtbot, window, "hello again")
    assert result.stats.mode == "speculative"


def test_the_window_without_a_draft_says_so(qtbot, open_window, tiny_pair):
    window = open_window("--model", str(tiny_pair[0]))
    qtbot.waitUntil(lambda: "no EAGLE-3 draft is loaded" in window.side.next_reply.text(), timeout=2_000)


def test_the_window_with_nothing_loaded_says_so(qtbot, open_window, tmp_path):
    import json

    from eagle_chat import paths

    # The saved pair is no model (a --model that fails would give way to it; a saved one has nothing to give way to).
    paths.settings_file().write_text(json.dumps({"target_dir": str(tmp_path)}), encoding="utf-8")
    window = open_window(wait_loaded=False)
    qtbot.waitUntil(lambda: window.controller.state == "empty", timeout=60_000)
    qtbot.waitUntil(lambda: "no model is loaded" in window.side.next_reply.text(), timeout=2_000)


PASTED = ("```python\ndef parse_args(argv):\n    options = {}\n    for item in argv[1:]:\n        key, _, value = "
          "item.partition('=')\n        if not key:\n            raise ValueError(f'empty option in {item!r}')\n"
          "        options[key.strip().lower()] = value.strip()\n    return options\n```\n\n"
          "Show parse_args again with a docstring added.")


def _automatic(choice, **facts):
    return texts.next_reply_line(outlook.next_reply(**dict(ON_CPU, **facts), choice=choice))


def test_where_automatic_decides_the_line_names_its_pick_the_kind_of_work_and_the_figures_behind_it(tmp_path):
    from eagle_chat.core.generation import speculation as sp

    methods = (sp.OFF, sp.EAGLE3, sp.PROMPT_LOOKUP)
    first = sp.choose([{"role": "user", "content": "What is in my notes?"}], methods, grounded=True)
    line = _automatic(first)
    assert "Next reply: prompt lookup, K=5 — this answer quotes your documents" in line, line
    assert "until replies of it are measured here" in line
    record = sp.Record(path=tmp_path / "record.json", key="pair")
    for per_step, rate in ((3.0, 90.0), (3.2, 95.0), (3.1, 92.0)):
        record.add(sp.DOCUMENT, sp.PROMPT_LOOKUP, per_step, rate)
        record.add(sp.DOCUMENT, sp.EAGLE3, 1.2, 40.0)
    measured = sp.choose([{"role": "user", "content": "And the dates?"}], methods, grounded=True,
                         record=sp.Record(path=tmp_path / "record.json", key="pair"))  # read back from the file
    assert "quotes your documents: 3.1 tokens/step over the last 3 such replies here" in _automatic(measured)
    prose = sp.choose([{"role": "user", "content": "Tell me a story about a fox."}], methods)
    assert _automatic(prose).startswith("Next reply: EAGLE-3, K=5 — free writing")
    # a pin, sampling or no pick: the line of the reason, not Automatic's
    assert "(pinned)" in _automatic(first, settings=GenerationSettings(method="prompt_lookup"))
    assert "Automatic chooses per kind of work" in _automatic(None)
    no_draft = outlook.next_reply(loaded=True, has_draft=False, device="CPU",
                                  choice=sp.choose([{"role": "user", "content": "a poem"}], (sp.OFF, sp.PROMPT_LOOKUP)))
    assert "no EAGLE-3 draft is loaded" in texts.next_reply_line(no_draft)


def test_the_window_names_prompt_lookup_for_pasted_code_as_it_is_typed_and_the_reply_runs_it(qtbot, open_window):
    window = open_window()
    line = window.side.next_reply
    qtbot.waitUntil(lambda: "Automatic chooses per kind of work" in line.text(), timeout=5_000)
    window.prompt.setPlainText(PASTED)  # what typing or a paste leaves in the box
    qtbot.waitUntil(lambda: "prompt lookup, K=" in line.text(), timeout=3_000)
    assert "this answer repeats the code you pasted" in line.text()
    window.options.max_tokens.setValue(16)
    window.prompt.setFocus()  # already in the box (keyClicks of a long text hits PySide6's emit abort)
    with qtbot.waitSignal(window.controller.sig_reply_finished, timeout=60_000) as blocker:
        qtbot.keyClick(window.prompt, Qt.Key.Key_Return)
    message, result = blocker.args
    assert result.stats.method == "prompt_lookup"  # the line told the truth
    assert window.controller.loaded.record_key  # the window reads the engine's own record of this pair
    window.prompt.setPlainText("Tell me about foxes.")
    qtbot.waitUntil(lambda: "EAGLE-3, K=" in line.text() and "free writing" in line.text(), timeout=3_000)
    window.prompt.clear()
    qtbot.waitUntil(lambda: "Automatic chooses per kind of work" in line.text(), timeout=3_000)
