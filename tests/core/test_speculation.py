"""How a reply speculates: every method's greedy output equals plain decoding at f32, on the tiny models;
prompt lookup's pipeline is built only when a reply asks for it; the automatic choice per kind of work."""

from pathlib import Path

import pytest

from eagle_chat.core.generation import speculation as spec
from eagle_chat.core.generation.engine import Engine, GenerationSettings, MethodUnavailable, PipelineSpec

MODULE = (Path(__file__).parents[2] / "eagle_chat" / "core" / "generation" / "short_prompt.py").read_text()[1000:2400]
EDIT = f"Here is my code:\n```python\n{MODULE}\n```\nRepeat it with the constant renamed."
PLAIN = GenerationSettings(max_new_tokens=120, method="off")


@pytest.fixture(scope="module")
def engines(tiny_pair):
    """A fresh EAGLE-3 engine and a draft-free one (f32): their records start empty."""
    pair = Engine(PipelineSpec(tiny_pair[0], tiny_pair[1], precision="f32"))
    alone = Engine(PipelineSpec(tiny_pair[0], None, precision="f32"))
    yield pair, alone
    pair.close()
    alone.close()


def test_every_method_writes_what_plain_decoding_writes(engines, prompts):
    pair, alone = engines
    assert not pair.lookup_loaded  # nothing built for prompt lookup until a reply asks for it
    assert pair.methods == ("off", "eagle3", "prompt_lookup") and alone.methods == ("off", "prompt_lookup")
    for prompt in [*prompts[:4], EDIT]:
        plain = pair.generate(prompt, PLAIN)
        assert plain.stats.method == "off" and plain.stats.mode == "baseline"
        for engine, method in ((pair, "eagle3"), (pair, "prompt_lookup"), (alone, "prompt_lookup")):
            for k in (3, 5):
                reply = engine.generate(prompt, GenerationSettings(max_new_tokens=120, method=method,
                                                                   num_assistant_tokens=k))
                assert reply.text == plain.text, (method, k, prompt[:40])
                assert reply.stats.method == method and reply.stats.mode == "speculative"
                assert reply.stats.generated_tokens == plain.stats.generated_tokens
    assert pair.lookup_loaded


def test_prompt_lookup_drafts_from_the_prompt_and_counts_its_steps(engines):
    pair, _ = engines
    reply = pair.generate(EDIT, GenerationSettings(max_new_tokens=200, method="prompt_lookup"))
    stats = reply.stats
    assert stats.steps is not None and stats.tokens_per_step == pytest.approx(stats.steps.tokens_per_step())
    assert stats.tokens_per_step > 1.5  # the tiny target repeats itself; lookup finds those n-grams
    assert stats.accepted_tokens == stats.steps.accepted() > 0
    assert stats.draft_tokens is None and stats.acceptance is None  # GenAI does not say for prompt lookup


def test_k_zero_is_plain_whatever_is_asked(engines):
    pair, alone = engines
    for engine in engines:
        for method in ("auto", "prompt_lookup"):
            reply = engine.generate(EDIT, GenerationSettings(max_new_tokens=40, method=method, num_assistant_tokens=0))
            assert reply.stats.method == "off" and reply.stats.mode == "baseline"


def test_a_method_the_pair_lacks_is_refused_naming_the_ones_it_has(engines):
    _, alone = engines
    with pytest.raises(MethodUnavailable) as refused:
        alone.generate("hello there", GenerationSettings(max_new_tokens=8, method="eagle3"))
    assert "off, prompt_lookup" in str(refused.value)


def test_auto_picks_prompt_lookup_for_a_pasted_module_and_eagle3_for_prose(engines, prompts):
    pair, alone = engines
    pair.record = spec.Record()  # the earlier tests' replies taught it this pair's figures: start afresh
    edit = pair.generate(EDIT, GenerationSettings(max_new_tokens=200))
    assert (edit.stats.method, edit.stats.method_kind, edit.stats.method_basis) == ("prompt_lookup", "code_edit", "table")
    assert edit.stats.tokens_per_step >= 1.5
    prose = pair.generate(prompts[0], GenerationSettings(max_new_tokens=40))
    assert prose.stats.method == "eagle3"
    assert alone.generate(prompts[0], GenerationSettings(max_new_tokens=40)).stats.method == "off"


# --- the choice, without a model ----------------------------------------------------------------------
BOTH = ("off", "eagle3", "prompt_lookup")


def user(text):
    return [{"role": "user", "content": text}]


@pytest.mark.parametrize("messages, kind", [
    (user("Tell me a story about a cat."), "prose"),
    (user("Write a Python function that reverses a string."), "code"),
    (user(EDIT), "code_edit"),
    (user("请用三句话介绍一下上海的历史和文化。"), "chinese"),
    ([{"role": "system", "content": "Answer from the sources.\n[1] notes.md: the cache is bounded\n"},
      *user("How big is the cache?")], "document"),
    ([*user("weather?"), {"role": "assistant", "content": ""}, {"role": "tool", "content": '{"t": 3}'}], "tool"),
])
def test_kind_of_work(messages, kind):
    assert spec.kind_of(messages) == kind


def test_the_fallback_table_then_the_measured_record_decide():
    record = spec.Record()
    assert spec.choose(user(EDIT), BOTH, record=record).method == "prompt_lookup"
    story = user("Tell me a story about a cat.")
    assert spec.choose(story, BOTH, record=record) == spec.Choice("eagle3", 5, "prose", "table")
    for _ in range(3):  # EAGLE-3 drafts little on this user's prose: prompt lookup gets its turn
        record.add("prose", "eagle3", 1.1, 50.0)
    trying = spec.choose(story, BOTH, record=record)
    assert (trying.method, trying.basis, trying.replies) == ("prompt_lookup", "trying", 3)
    for _ in range(3):
        record.add("prose", "prompt_lookup", 1.4, 80.0)
    measured = spec.choose(story, BOTH, record=record)
    assert (measured.method, measured.basis, round(measured.tokens_per_step, 6)) == ("prompt_lookup", "measured", 1.4)
    for _ in range(5):
        record.add("prose", "eagle3", 3.0, 200.0)
    assert spec.choose(story, BOTH, record=record).method == "eagle3"


def test_earlier_replies_that_copied_their_prompts_choose_prompt_lookup():
    text = "the quick brown fox jumps over the lazy dog and runs away into the dark forest tonight"
    talk = [*user(f"Repeat: {text}"), {"role": "assistant", "content": text}, *user("Once more please.")]
    choice = spec.choose(talk, BOTH)
    assert (choice.method, choice.basis) == ("prompt_lookup", "overlap") and choice.overlap == 1.0
    assert spec.copied_share(user("hi")) is None


def test_what_each_pair_offers_and_asks():
    assert spec.offered(draft_kind=None, device="NPU") == ("off",)
    assert spec.offered(draft_kind="eagle3", device="GPU.1") == ("off", "eagle3", "prompt_lookup")
    assert spec.choose(user("hi"), ("off",)).method == "off"
    assert spec.choose(user("hi"), BOTH, asked="off") == spec.Choice("off", 0, "prose", "asked")
    assert spec.choose(user(EDIT), ("off", "eagle3")).method == "eagle3"  # no lookup here (NPU): the draft


def test_a_dflash_draft_is_recognised_and_handed_to_genai_dflash_path(tiny_pair, tmp_path):
    """Unverified end to end (no DFlash head can be built here): the folder is read as a DFlash draft, its
    plan turns prefix caching off (GenAI's DFlash refuses it), and GenAI takes its DFlash path on load."""
    import shutil

    from eagle_chat.core.generation.engine import EngineError, plan_load
    from eagle_chat.core.models import folders

    draft = tmp_path / "dflash"
    shutil.copytree(tiny_pair[1], draft)
    xml = draft / "openvino_model.xml"
    xml.write_text(xml.read_text().replace('<eagle3_mode value="True" />', '<dflash_mode value="True" />'))
    assert folders.inspect_draft(draft).draft_kind == "dflash"
    assert folders.inspect_draft(tiny_pair[1]).draft_kind == "eagle3"
    assert plan_load(PipelineSpec(tiny_pair[0], draft)).scheduler["enable_prefix_caching"] is False
    assert plan_load(PipelineSpec(tiny_pair[0], tiny_pair[1])).scheduler["enable_prefix_caching"] is True
    with pytest.raises(EngineError, match="DFlash draft model is missing dflash_mask_token_id"):
        Engine(PipelineSpec(tiny_pair[0], draft, precision="f32"))
    assert spec.offered(draft_kind="dflash", device="CPU") == ("off", "dflash", "prompt_lookup")


def test_a_next_turn_prefill_never_builds_the_lookup_pipeline(tiny_pair):
    engine = Engine(PipelineSpec(tiny_pair[0], tiny_pair[1], precision="f32"))
    try:
        talk = [{"role": "user", "content": EDIT}, {"role": "assistant", "content": "Here it is."}]
        engine.generate(talk, GenerationSettings(max_new_tokens=40, next_turn=True))
        assert not engine.lookup_loaded  # the reply after it decides, and builds it if it runs prompt lookup
        assert engine.generate(EDIT, GenerationSettings(max_new_tokens=40)).stats.method == "prompt_lookup"
        assert engine.lookup_loaded
    finally:
        engine.close()


def test_what_auto_learned_survives_a_new_engine_on_the_same_pair(tiny_pair):
    """The record lived in the engine, so every restart of the engine host or the app forgot it."""
    first = Engine(PipelineSpec(tiny_pair[0], None, precision="f32"))
    try:
        for _ in range(2):
            assert first.generate(EDIT, GenerationSettings(max_new_tokens=40)).stats.method == "prompt_lookup"
        learned = first.record.figures("code_edit", "prompt_lookup")
    finally:
        first.close()
    assert learned[0] == 2 and learned[2] > 0
    again = Engine(PipelineSpec(tiny_pair[0], None, precision="f32"))  # as after a restart
    try:
        assert again.record.figures("code_edit", "prompt_lookup") == pytest.approx(learned)
    finally:
        again.close()


def test_the_record_file_is_per_device_and_pair_bounded_and_a_damaged_one_starts_afresh(tmp_path):
    from eagle_chat import paths

    record = spec.Record.for_pair("CPU", tmp_path / "target", tmp_path / "draft")
    for n in range(7):
        record.add("prose", "eagle3", 2.0 + n, 100.0 + n)
    kept = spec.Record.for_pair("CPU", tmp_path / "target", tmp_path / "draft").figures("prose", "eagle3")
    assert kept == (5, pytest.approx(6.0), pytest.approx(104.0))  # the last 5, as in memory
    assert spec.Record.for_pair("GPU", tmp_path / "target", tmp_path / "draft").figures("prose", "eagle3")[0] == 0
    assert spec.Record.for_pair("CPU", tmp_path / "target", None).figures("prose", "eagle3")[0] == 0
    import json

    key = next(iter(json.loads(paths.speculation_record_file().read_text(encoding="utf-8"))["pairs"]))
    for damaged in ("{not json", json.dumps({"version": 1, "pairs": {key: [1, 2]}}),
                    json.dumps({"version": 1, "pairs": {key: {"prose|eagle3": [["x", 1], [1]]}}})):
        paths.speculation_record_file().write_text(damaged, encoding="utf-8")
        assert spec.Record.for_pair("CPU", tmp_path / "target", tmp_path / "draft").figures("prose", "eagle3")[0] == 0
    fresh = spec.Record.for_pair("CPU", tmp_path / "target", tmp_path / "draft")
    fresh.add("prose", "eagle3", 3.0, 90.0)  # and writes a good file again
    assert spec.Record.for_pair("CPU", tmp_path / "target", tmp_path / "draft").figures("prose", "eagle3")[0] == 1
