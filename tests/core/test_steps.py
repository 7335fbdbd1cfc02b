"""The per-step record on the tiny pair: it adds up to GenAI's counts, and its characters are the tokens' text."""

import threading

import openvino_genai as ov_genai
import pytest

from eagle_chat.core.generation.devices import pipeline_properties
from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.metrics import GenerationStats, stats_from_result
from eagle_chat.core.generation.steps import StepRecord, histogram_text
from eagle_chat.core.generation.streamer import ChunkStreamer, StepText, TokenLengths

NOTES_EXAMPLE = [1, 6, 4, 1, 5, 6, 6, 1, 6, 6, 6, 6, 4, 2, 4]  # tiny pair, K=5, 64 tokens (shared notes)


def inferences(stats) -> int:
    return round(stats.generated_tokens / stats.tokens_per_step)


@pytest.mark.parametrize("k, tree", [(3, None), (5, None), (5, (3, 2))])
def test_speculative_steps_add_up_to_genai_counts(spec_engine, prompts, k, tree):
    settings = GenerationSettings(max_new_tokens=96, num_assistant_tokens=k, tree_depth=tree[0] if tree else 0,
                                  branching_factor=tree[1] if tree else 0)
    longest = (tree[0] if tree else k) + 1
    for prompt in prompts:
        result = spec_engine.generate(prompt, settings)
        stats, steps = result.stats, result.stats.steps
        assert sum(steps.sizes) == stats.generated_tokens, prompt
        assert len(steps.sizes) == inferences(stats)  # one list per main-model inference
        assert steps.sizes[0] == 1  # the prefill's token
        assert max(steps.sizes) <= longest
        assert steps.tokens_per_step() == pytest.approx(stats.tokens_per_step)
        assert sum(steps.sizes) / len(steps.sizes) > 1.0
        # GenAI leaves the last step out of its accepted count on CPU (see core.generation.steps).
        assert steps.genai_accepted("CPU") == stats.accepted_tokens
        assert steps.accepted() == stats.accepted_tokens + steps.sizes[-1] - 1
        assert steps.chars == len(result.text)
        assert sum(steps.histogram(stats.max_accepted)) == steps.verification_steps == len(steps.sizes) - 1


def test_baseline_steps_are_all_ones(spec_engine, plain_engine, prompts):
    for engine in (spec_engine, plain_engine):
        for prompt in prompts[:3]:
            stats = engine.generate(prompt, GenerationSettings(max_new_tokens=48, speculative=False)).stats
            assert stats.steps.sizes == [1] * stats.generated_tokens
            assert stats.steps.drafted_chars is None  # nothing drafted, nothing to tint
            assert stats.to_dict()["steps"] == f"1*{stats.generated_tokens}"


class ListRecorder(ov_genai.StreamerBase):
    def __init__(self):
        super().__init__()
        self.lists = []

    def write(self, token):
        self.lists.append(list(token) if isinstance(token, list) else [token])
        return ov_genai.StreamingStatus.RUNNING

    def end(self):
        pass


def test_drafted_spans_are_exactly_the_accepted_tokens_text(tiny_pair, spec_engine, prompts):
    """Against GenAI's own token lists: each span is the text the step's first n-1 tokens add."""
    target, draft = tiny_pair
    props = pipeline_properties("CPU", precision="f32")
    pipe = ov_genai.LLMPipeline(str(target), "CPU", draft_model=ov_genai.draft_model(str(draft), "CPU", **props),
                                **props)
    tokenizer = pipe.get_tokenizer()
    for prompt in (prompts[0], prompts[-1]):  # English code, and Chinese
        config = pipe.get_generation_config()
        config.max_new_tokens, config.num_assistant_tokens = 80, 5
        recorder = ListRecorder()
        raw = pipe.generate([prompt], config, recorder)
        result = spec_engine.generate(prompt, GenerationSettings(max_new_tokens=80, num_assistant_tokens=5))
        assert result.text == raw.texts[0]
        assert result.stats.steps.sizes == [len(x) for x in recorder.lists]
        tokens, expected = [], []
        for step, lst in enumerate(recorder.lists):
            before = len(tokenizer.decode(tokens))
            tokens += lst
            after_drafted = len(tokenizer.decode(tokens[:-1]))
            if len(lst) > 1 and after_drafted > before:
                expected.append((before, after_drafted, step, len(lst) - 1))
        spans = [(s.start, s.end, s.step, s.accepted) for s in result.stats.steps.drafted_spans()]
        assert spans == expected
        assert sum(s[1] - s[0] for s in spans) > len(result.text) / 2  # most of the text was drafted


def test_characters_of_steps_that_split_a_character(spec_engine):
    """Chinese text in the tiny vocabulary is made of byte tokens: steps end inside characters."""
    lengths = TokenLengths(spec_engine._tokenizer)
    text = "快速排序 sorts, 二分查找 searches."
    ids = [int(i) for i in spec_engine._tokenizer.encode(text, add_special_tokens=False).input_ids.data[0]]
    assert -1 in lengths.lengths(ids)  # some tokens are not whole characters on their own
    for concatenative in (True, False):
        lengths.concatenative = concatenative
        for size in (1, 2, 3, 5):
            counter, counts, index = StepText(lengths), [], 0
            while index < len(ids):
                counts.append(counter.add(ids[index:index + size]))
                index += size
            counts[-1] = (counts[-1][0], counts[-1][1] + counter.finish())
            assert sum(d + o for d, o in counts) == len(text)
            # Each step's characters end where the decoded prefix's whole characters end.
            done = 0
            for step, (drafted, own) in enumerate(counts[:-1]):
                done += drafted + own
                prefix = spec_engine._tokenizer.decode(ids[:(step + 1) * size])
                assert done == len(prefix.rstrip("\ufffd")), (size, step)


def test_a_stopped_reply_keeps_the_steps_its_text_shows(spec_engine, prompts):
    stop = threading.Event()

    def on_chunk(chunk):
        if chunk.tokens >= 12:
            stop.set()

    result = spec_engine.generate(prompts[0], GenerationSettings(max_new_tokens=400), on_chunk, stop)
    assert result.stopped
    assert sum(result.stats.steps.sizes) == result.stats.generated_tokens
    assert result.stats.steps.chars == len(result.text)


def test_chunks_carry_the_steps_since_the_last_chunk(spec_engine, prompts):
    chunks = []
    result = spec_engine.generate(prompts[1], GenerationSettings(max_new_tokens=64), chunks.append)
    live = StepRecord()
    for chunk in chunks:
        live.extend(chunk.steps)
    record = result.stats.steps
    # Steps whose text was still held back when the last chunk left are only in the final record.
    assert live.sizes == record.sizes[:len(live.sizes)] and len(live.sizes) >= len(record.sizes) - 2
    assert live.drafted_chars == record.drafted_chars[:len(live.sizes)]


def test_the_notes_example_46_versus_49():
    record = StepRecord(NOTES_EXAMPLE)
    assert record.generated == 64 and record.accepted() == 49
    assert record.genai_accepted("CPU") == 46  # GenAI leaves out the last step's 3
    assert record.genai_accepted("NPU") == 49  # the NPU pipeline counts it: sum - lists
    histogram = record.histogram(5)
    assert histogram == [2, 1, 0, 3, 1, 7] and sum(histogram) == record.verification_steps == 14
    rates = record.position_acceptance(5)
    assert rates == sorted(rates, reverse=True) and rates[0] == pytest.approx(12 / 14)
    assert record.mean_accepted() == pytest.approx(49 / 14)
    assert histogram_text(histogram) == "0:2 1:1 2:0 3:3 4:1 5:7"


def test_compact_form_round_trips_and_damage_is_dropped():
    record = StepRecord()
    for size, drafted, own in [(1, 0, 3), (6, 14, 2), (1, 0, 1), (1, 0, 1), (1, 0, 2), (1, 0, 1), (4, 9, 1)]:
        record.add(size, drafted, own)
    assert record.encode_sizes() == "1,6,1*4,4"
    assert record.encode_chars() == "3,14+2,1,1,2,1,9+1"
    assert StepRecord.decode(record.encode_sizes(), record.encode_chars()) == record
    assert StepRecord.decode("1*1000").sizes == [1] * 1000
    for damaged in ("", "1,x", "0,1", "1**2", None, 5):
        assert StepRecord.decode(damaged) is None
    assert StepRecord.decode("1,6", "3,oops").drafted_chars is None  # the sizes survive
    assert StepRecord.decode("1,6", "3").drafted_chars is None  # counts for a different record
    stats = GenerationStats("speculative", 5, 7, 3, 1.0, 1.0, 1.0, 1.0, steps=record)
    assert GenerationStats.from_dict(stats.to_dict()).steps == record
    assert GenerationStats.from_dict({**stats.to_dict(), "steps": "garbage"}).steps is None


def test_npu_eagle3_figures_come_from_the_main_model_and_count_the_last_step(tiny_pair):
    """GenAI's NPU EAGLE-3 pipeline for real, on the CPU through NPUW (as GenAI's own NPU tests run it):
    its top-level metrics say 0 tokens and TTFT -1; the app takes them from main_model_metrics."""
    target, draft = tiny_pair
    props = dict(NPUW_DEVICES="CPU", INFERENCE_PRECISION_HINT="f32", KV_CACHE_PRECISION="f32",
                 MAX_PROMPT_LEN=128, MIN_RESPONSE_LEN=64)
    pipe = ov_genai.LLMPipeline(str(target), "NPU", draft_model=ov_genai.draft_model(str(draft), "NPU", **props),
                                **props)
    config = ov_genai.GenerationConfig(max_new_tokens=40, num_assistant_tokens=4, tree_depth=4, branching_factor=1)
    streamer = ChunkStreamer(pipe.get_tokenizer(), None, threading.Event(), TokenLengths(pipe.get_tokenizer()))
    streamer.start()
    result = pipe.generate(ov_genai.ChatHistory([{"role": "user", "content": "hello there"}]), config,
                           streamer.streamer)
    assert result.perf_metrics.get_num_generated_tokens() == 0  # the quirk this guards against
    stats = stats_from_result(result, mode="speculative", num_assistant_tokens=4, device="NPU",
                              streamed_tokens=streamer.tokens, stopped=False,
                              steps=streamer.finish_record(result.texts[0]))
    steps = stats.steps
    assert stats.generated_tokens == sum(steps.sizes) == 40
    assert stats.ttft_ms > 0 and stats.tpot_ms > 0 and stats.tokens_per_s > 0
    assert stats.tokens_per_step == pytest.approx(steps.tokens_per_step())
    assert max(steps.sizes) <= 5 and steps.tokens_per_step() > 1
    assert steps.genai_accepted("NPU") == stats.accepted_tokens == sum(steps.sizes) - len(steps.sizes)
    assert steps.chars == len(result.texts[0])
