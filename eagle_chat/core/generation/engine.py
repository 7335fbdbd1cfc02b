"""Builds an OpenVINO GenAI pipeline (optionally with an EAGLE-3 draft) and runs one generation.

The engine is plain, blocking Python: the Qt worker calls it on its own thread. Streamed text reaches
``on_chunk`` on whichever thread OpenVINO calls the streamer from (its own on CPU/GPU, the caller's on NPU),
so callers must not touch widgets from it. Stopping is a ``threading.Event`` the streamer polls once per
decoding step.

Kept between calls: on CPU/GPU the KV cache of earlier turns (prefix caching, bounded, see ``kv_cache``); on NPU
nothing. A conversation goes through the context budget (``context``); docs/context.md has the details.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from eagle_chat.core.generation.engine_errors import (EngineError as EngineError, SamplingWithDraftError as
                                                    SamplingWithDraftError, check_prompt_length as check_prompt_length,
                                                    first_line as _first_line, load_error as _load_error,
                                                    MethodUnavailable as MethodUnavailable, method_unavailable,
                                                    check_not_empty)
from eagle_chat.core.generation import context as ctx, devices as dev, kv_cache, prefill, prompt_lookup, short_prompt
from eagle_chat.core.generation import sampling, speculation as spec_, structured
from eagle_chat.core.generation.chat_tokens import ChatTokens, Prompt, chat_renderer, messages_key, tokenized_inputs
from eagle_chat.core.generation.metrics import Chunk, GenerationStats, stats_from_result
from eagle_chat.core.generation.npu_drafting import npu_call_tree
from eagle_chat.core.generation.prefix_record import PrefixRecord
from eagle_chat.core.generation.streamer import ChunkStreamer, token_lengths
from eagle_chat.core.generation.reasoning import Split, prompt_opens_reasoning, split_reasoning, thinking_figures
from eagle_chat.core.models import folders

MIN_ASSISTANT_TOKENS = 1
MAX_ASSISTANT_TOKENS = 16
Message = Mapping[str, str]
CACHE_FULL = "did not fit in the available cache budget"  # GenAI's words when the KV cache is full


@dataclass(frozen=True)
class PipelineSpec:
    """Everything needed to build a pipeline. Target and draft always share ``device``."""

    target_dir: Path
    draft_dir: Path | None = None
    device: str = "CPU"
    precision: dev.Precision = "default"
    cache_dir: Path | None = None
    npu: dev.NpuOptions = field(default_factory=dev.NpuOptions)
    prefix_cache: bool = True  # CPU/GPU: reuse the KV cache of a conversation's earlier turns

    def properties(self) -> dict[str, object]:
        return dev.pipeline_properties(
            self.device, precision=self.precision, cache_dir=self.cache_dir, npu=self.npu
        )

    def with_changes(self, **changes) -> "PipelineSpec":
        return replace(self, **changes)


@dataclass(frozen=True)
class LoadPlan:
    """Exactly what will be handed to OpenVINO GenAI — tested for GPU/NPU without the hardware."""

    target_dir: str
    device: str
    properties: dict[str, object]
    draft_dir: str | None
    draft_device: str | None
    draft_properties: dict[str, object] | None
    target: folders.ModelInfo | None = None  # what validation learned about the target folder
    scheduler: dict[str, object] | None = None  # SchedulerConfig fields (CPU/GPU continuous batching)
    kv_cache: kv_cache.KVCachePlan | None = None  # the bounded KV cache behind ``scheduler["num_kv_blocks"]``
    draft_scheduler: dict[str, object] | None = None  # the draft's own SchedulerConfig (its KV cache)


# GenAI's latency-oriented default with a bounded KV cache; prefix caching as the spec says (on by default:
# benchmarks/prefix_cache_soak.py and docs/context.md have the data that decided it). The cache is sized in
# blocks (``num_kv_blocks``, see kv_cache.py), never in GiB: ``cache_size`` stays 0.
SCHEDULER = {"enable_prefix_caching": True, "max_num_batched_tokens": 1 << 31, "cache_size": 0, "num_kv_blocks": 0}


def plan_load(spec: PipelineSpec) -> LoadPlan:
    """Validate the folders and work out the OpenVINO calls. Raises ModelFolderError / DeviceError."""
    device = spec.device.upper() if spec.device.upper() in dev.DEVICE_KINDS else spec.device
    target = folders.inspect_target(spec.target_dir)
    props = dev.pipeline_properties(device, precision=spec.precision, cache_dir=spec.cache_dir, npu=spec.npu)
    draft = None if spec.draft_dir is None else folders.inspect_draft(spec.draft_dir)
    scheduler: dict[str, object] | None = None  # NPU runs GenAI's stateful path, which takes no scheduler config
    cache = None
    if device != "NPU":
        cache = kv_cache.plan_kv_cache(
            target.path, draft.path if draft else None, precision=spec.precision, context_tokens=target.max_context,
            available_bytes=kv_cache.available_memory(), weights_bytes=kv_cache.weights_size(target.path, spec.draft_dir),
            device=device)
        scheduler = {**SCHEDULER, "enable_prefix_caching": bool(spec.prefix_cache) and not (draft and draft.is_dflash),
                     "num_kv_blocks": cache.num_kv_blocks}  # GenAI's DFlash refuses prefix caching
    if draft is None:
        return LoadPlan(str(target.path), device, props, None, None, None, target, scheduler, cache)
    folders.check_pair(target, draft)
    draft_props = dict(props)
    if device == "NPU":  # GenAI's NPU EAGLE-3 path reads its compile-time tree limits from the draft only
        draft_props.update(spec.npu.draft_properties())
    # The draft device is always named explicitly: GenAI's EAGLE-3 NPU path requires "NPU" for both.
    # Its own scheduler config (the same blocks and prefix caching) stops GenAI splitting a GiB cache_size
    # between the two models, which gives the draft at least 1 GiB (kv_cache.py).
    return LoadPlan(str(target.path), device, props, str(draft.path), device, draft_props, target, scheduler, cache,
                    None if scheduler is None else dict(scheduler))


@dataclass(frozen=True)
class GenerationSettings:
    """Per-reply settings; all can change between calls without reloading the pipeline."""

    max_new_tokens: int = 512
    speculative: bool = True
    num_assistant_tokens: int = 5
    thinking: bool | None = None  # None: the chat template's default
    do_sample: bool = False
    temperature: float = 0.7
    top_p: float = 0.95
    seed: int | None = None  # a sampled reply's random seed (the API's "seed"); None: a fresh one each reply
    # EAGLE-3 tree search: draft tree_depth steps keeping branching_factor candidates per node, then verify
    # the num_assistant_tokens best. 0 = a single chain of num_assistant_tokens (the default).
    tree_depth: int = 0
    branching_factor: int = 0
    chat_template: bool = True  # False: a string prompt goes in as it is (the API's /v1/completions)
    next_turn: bool = False  # only cache the conversation as its next turn will send it (see ``prefill``)
    tools: str | None = None  # the tool list for the chat template, as JSON text (see ``tool_template``)
    constraint: structured.Constraint | None = None  # a grammar the reply must follow (see ``structured``)
    method: str = spec_.AUTO  # how the reply speculates: one of speculation.METHODS, or chosen per request


@dataclass
class GenerationResult:
    text: str  # everything the model wrote, reasoning tags included
    stats: GenerationStats
    chunks: list[Chunk]
    reasoning: Split | None = None  # ``text`` split into thinking and answer

    @property
    def stopped(self) -> bool:
        return self.stats.stopped


ChunkCallback = Callable[[Chunk], None]


class Engine:
    """Owns one ``LLMPipeline`` (with the EAGLE-3 draft when the spec has one).

    A baseline reply on a draft-enabled pipeline runs with ``num_assistant_tokens=0``: one copy of the
    target in memory serves both modes (two copies of an 8B model do not fit a laptop). The benchmark
    ``eagle-chat bench --baseline separate`` measures what that costs against a draft-free pipeline.
    """

    def __init__(self, spec: PipelineSpec):
        import openvino_genai as ov_genai

        self.spec = spec
        self.plan = plan_load(spec)
        self.target_info = self.plan.target
        started = time.perf_counter()
        try:
            kwargs = dict(self.plan.properties)
            if self.plan.scheduler is not None:
                kwargs["scheduler_config"] = kv_cache.scheduler_config(self.plan.scheduler)
            if self.plan.draft_dir is not None:
                draft_kwargs = dict(self.plan.draft_properties or {})
                if self.plan.draft_scheduler is not None:
                    draft_kwargs["scheduler_config"] = kv_cache.scheduler_config(self.plan.draft_scheduler)
                kwargs["draft_model"] = ov_genai.draft_model(self.plan.draft_dir, self.plan.draft_device, **draft_kwargs)
            self._pipe = ov_genai.LLMPipeline(self.plan.target_dir, self.plan.device, **kwargs)
        except RuntimeError as error:
            raise _load_error(self.plan, error) from error
        self.load_time_ms = (time.perf_counter() - started) * 1000.0
        self._tokenizer = self._pipe.get_tokenizer()
        self._token_lengths = token_lengths(self._tokenizer)
        self._lock = threading.Lock()
        self._prefix = PrefixRecord.of(self.plan.scheduler, self.plan.device)  # cached and prefilled prompt tokens
        self._chat = ChatTokens(self._tokenizer)  # a message's text stays text (see chat_tokens)
        self._last_render: tuple[tuple, Prompt] | None = None  # (the prompt's key, its text and ids)
        self.context_limits = ctx.limits_for(self.plan, spec.npu)
        self.reduced_vocab = folders.reduced_vocabulary(self.plan.draft_dir)  # grammars stop it drafting
        kind = folders.inspect_draft(self.plan.draft_dir).draft_kind if self.plan.draft_dir else None  # eagle3 / dflash
        self.methods = spec_.offered(draft_kind=kind, device=self.plan.device)  # MTP: not run yet (docs)
        # this pair's replies per kind and method on this device, kept across launches: what ``auto`` learns from
        self.record = spec_.Record.for_pair(self.plan.device, self.plan.target_dir, self.plan.draft_dir)
        self._lookup = None  # the prompt-lookup pipeline, built for the first reply that runs it

    @property
    def tokenizer(self):
        return self._tokenizer

    @property
    def has_draft(self) -> bool:
        return self.plan.draft_dir is not None

    @property
    def supports_thinking(self) -> bool:
        return self.target_info is not None and self.target_info.supports_thinking

    def count_prompt_tokens(self, prompt: str | Sequence[Message], thinking: bool | None = None,
                            tools: str | None = None) -> int:
        """Tokens the prompt occupies after the chat template — what MAX_PROMPT_LEN limits on NPU."""
        return len(self.prompt(prompt, thinking, tools=tools).ids)

    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` encodes to as it stands (no template, no special tokens)."""
        return int(self._tokenizer.encode(text, add_special_tokens=False).input_ids.get_shape()[-1])

    def prompt_text(self, prompt: str | Sequence[Message], thinking: bool | None = None) -> str:
        """The prompt as the model reads it, after the chat template (see ``prompt``)."""
        return self.prompt(prompt, thinking).text

    def prompt(self, prompt: str | Sequence[Message], thinking: bool | None = None, until: str | None = None,
               tools: str | None = None) -> Prompt:
        """The prompt after the chat template, as text and as the ids sent (each message's text as text).

        A conversation that ends with an assistant message is a reply to *continue*: the template renders
        the turns before it with the generation prompt, and that reply's text follows as it stands. The last
        rendering is remembered: a reply renders its prompt to count it (the context budget), then to send it.
        ``until``: only the prompt up to the last place this text is rendered (not remembered); ``tools``: the
        tool list (JSON text) for a template that takes one."""
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt
        render = chat_renderer(self._tokenizer, thinking if self.supports_thinking else None, tools)
        if until is not None:
            return self._chat.prompt(messages, render, until=until)
        key = (thinking, tools, messages_key(prompt))
        last = self._last_render  # one read: another thread may count a prompt meanwhile
        if last is None or last[0] != key:
            self._last_render = last = (key, self._chat.prompt(messages, render))
        return last[1]

    def count_text_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens of each text (no template, a control string in it counted as text), one tokenizer call."""
        return self._chat.count_texts(texts)

    def plan_context(self, prompt: str | Sequence[Message], settings: GenerationSettings) -> ctx.ContextPlan:
        """What of ``prompt`` is sent and how many tokens may come back (see ``context.fit``)."""
        try:
            return ctx.plan_for(self, prompt, settings.max_new_tokens, settings.thinking, settings.tools)
        except ctx.ContextTooSmall as error:
            check_prompt_length(error.tokens, device=self.plan.device, npu=self.spec.npu, max_context=error.limit + 1)
            raise EngineError("This message is {tokens} tokens long; with room for a reply the model takes at "
                              "most {limit}. Shorten the message.", tokens=error.tokens, limit=error.limit) from None

    def generate(self, prompt: str | Sequence[Message], settings: GenerationSettings = GenerationSettings(),
                 on_chunk: ChunkCallback | None = None, stop: threading.Event | None = None) -> GenerationResult:
        """Run one reply, streaming chunks to ``on_chunk``; returns the text and its stats.

        ``prompt`` is either a plain string (sent the way ``pipe.generate(prompt)`` sends it: one user
        message through the chat template) or a list of ``{"role", "content"}`` messages, system prompt
        first. Setting ``stop`` ends the reply within a decoding step or two; the text streamed until then
        is returned (after a stop EAGLE-3 can report draft tokens the target never verified).

        ``stats.steps`` is the reply's step record: tokens per target step and the characters of the text
        each step's drafted tokens and own token wrote (see :mod:`eagle_chat.core.generation.steps` for how
        it relates to GenAI's accepted and generated counts); each chunk carries the steps since the last.
        """
        next_turn, choice = settings.next_turn, self.choose(prompt, settings)  # next_turn: the next prompt's start
        if next_turn:
            assert not isinstance(prompt, str), "a next-turn prefill continues a conversation: it takes messages"
            sent, settings = prefill.next_turn_prompt(self, prompt, settings), prefill.run_settings(settings)
        lookup = choice.method == spec_.PROMPT_LOOKUP
        held = choice.method in spec_.DRAFTED and structured.stops_drafting(settings.constraint, self.reduced_vocab)
        settings = replace(settings, num_assistant_tokens=choice.k or settings.num_assistant_tokens,
                           speculative=choice.method in spec_.DRAFTED and not held)  # held: no drafting
        config = self._config(settings)
        if lookup:
            prompt_lookup.configure(config, choice.k)
        if not next_turn:
            check_not_empty(prompt)
            plan = self.plan_context(prompt, settings)
            config.max_new_tokens = plan.max_new_tokens
            sent = self.prompt([{"role": "user", "content": prompt}] if isinstance(prompt, str) else plan.messages,
                               settings.thinking, tools=settings.tools)
        # The prompt goes in as ids (template tokens as control tokens, each message's text as text: see
        # chat_tokens); a string with the template switched off (the API's /v1/completions) as it stands.
        raw = isinstance(prompt, str) and not settings.chat_template
        inputs = [prompt] if raw else tokenized_inputs(sent.ids)
        continuing = not next_turn and not isinstance(prompt, str) and plan.messages[-1].get("role") == "assistant"
        stop = stop or threading.Event()
        plain = self.has_draft and not lookup and self.plan.device != "NPU" and (  # one token: EAGLE-3 cannot draft (short_prompt)
            short_prompt.is_one_token(self._tokenizer, prompt) if raw and isinstance(prompt, str) else len(sent.ids) < 2)
        config.num_assistant_tokens = 0 if plain else config.num_assistant_tokens
        speculative = lookup or self.has_draft and bool(config.num_assistant_tokens)
        # Characters per step only matter where tokens were drafted (a baseline reply's steps are all 1).
        streamer = ChunkStreamer(self._tokenizer, on_chunk, stop, self._token_lengths if speculative else None)
        mode = "speculative" if speculative else "baseline"
        with self._lock:  # one generation at a time per pipeline
            try:
                pipe = short_prompt.draft_free_pipeline(self.plan) if plain else self._lookup_pipe() if lookup else self._pipe
                streamer.start()
                result = pipe.generate(inputs, config, streamer.streamer)
            except RuntimeError as error:
                if CACHE_FULL in str(error):  # GenAI drops a request that outgrows the KV cache
                    raise EngineError("The reply ran out of KV cache; lower max new tokens.") from error
                raise EngineError("Generation failed: {detail}", detail=_first_line(error)) from error
        if streamer.error is not None:
            raise EngineError("Generation failed while streaming: {error!r}",
                              error=streamer.error) from streamer.error
        stopped = stop.is_set()
        text = streamer.text if stopped else result.texts[0] if raw else self._tokenizer.decode(list(result.tokens[0]))
        stats = stats_from_result(result, mode=mode, num_assistant_tokens=config.num_assistant_tokens if speculative else 0,
                                  device=self.plan.device, streamed_tokens=streamer.tokens, stopped=stopped,
                                  steps=streamer.finish_record(text))
        stats.load_time_ms, stats.drafting_off_by_grammar = self.load_time_ms, held
        stats.method = choice.method if speculative else spec_.OFF
        stats.method_kind, stats.method_basis = choice.kind, choice.basis
        if not next_turn and not stopped:  # what ``auto`` learns from
            self.record.add(choice.kind, stats.method, stats.tokens_per_step, stats.tokens_per_s)
        stats.draft_skipped = short_prompt.NO_DRAFT_REASON if plain else structured.GRAMMAR_D2T_REASON if held else None
        self._prefix.note(pipe, None if raw else sent.ids, next_turn, stats)
        if not next_turn:
            stats.history_tokens, stats.history_dropped = plan.history_tokens, plan.dropped
        if speculative and settings.tree_depth:
            stats.tree = f"{settings.tree_depth}x{settings.branching_factor}"
        reasoning = split_reasoning(text, inside=prompt_opens_reasoning(sent.text), continuing=continuing)
        if reasoning.has_thinking:
            stats.thinking_tokens, stats.thinking_ms = thinking_figures(
                text, reasoning, streamer.chunks, self.count_tokens, stats.generated_tokens)
        return GenerationResult(text=text, stats=stats, chunks=streamer.chunks, reasoning=reasoning)

    def choose(self, prompt: str | Sequence[Message], settings: GenerationSettings) -> spec_.Choice:
        """How a reply speculates (``speculation.choose``); a method the pair lacks is refused, naming its own."""
        asked = settings.method if settings.speculative else spec_.OFF
        if asked != spec_.AUTO and asked not in self.methods:
            raise method_unavailable(asked, self.methods)
        if asked == spec_.AUTO and (settings.do_sample or settings.next_turn and self._lookup is None):
            asked = spec_.EAGLE3 if self.has_draft and not settings.do_sample else spec_.OFF  # sampling: plain; a
            # prefill never builds the lookup pipeline (only a reply does)
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt
        return spec_.choose(messages, self.methods, asked=asked, k=settings.num_assistant_tokens, tools=settings.tools,
                            record=self.record)

    def close(self) -> None:
        """Release the pipelines (call on the thread that created them)."""
        self._pipe = self._lookup = self._tokenizer = None

    lookup_loaded = property(lambda self: self._lookup is not None)  # a reply asked for prompt lookup: it is built

    def _lookup_pipe(self):
        if self._lookup is None:
            try:
                self._lookup = prompt_lookup.lookup_pipeline(self.plan)
            except RuntimeError as error:
                raise _load_error(self.plan, error) from error
        return self._lookup

    def _config(self, settings: GenerationSettings):
        if settings.max_new_tokens < 1:
            raise EngineError("Max new tokens must be at least 1.")
        speculative = settings.speculative
        if speculative and not self.has_draft:
            raise EngineError("Speculative decoding needs an EAGLE-3 draft model; choose a draft folder first.")
        if self.has_draft and settings.do_sample:
            # Even with zero draft tokens GenAI's EAGLE-3 pipeline streams greedily only.
            raise SamplingWithDraftError(
                "Sampling is not available while an EAGLE-3 draft is loaded: OpenVINO GenAI streams "
                "EAGLE-3 pipelines with greedy decoding only. Load the model without its draft to sample."
            )
        config = self._pipe.get_generation_config()
        config.max_new_tokens = int(settings.max_new_tokens)
        config.num_beams = 1
        config.num_return_sequences = 1
        config.do_sample = bool(settings.do_sample)
        config.apply_chat_template = bool(settings.chat_template)
        structured.apply(config, settings.constraint)
        sampling.apply(config, settings)  # temperature, top-p and a seed of its own for each sampled reply
        if self.has_draft:
            config.num_assistant_tokens = self._assistant_tokens(settings) if speculative else 0
        if self.plan.device == "NPU":  # an explicit tree on every call, within the compiled limits
            tree = npu_call_tree(settings, speculative, self.has_draft, self.spec.npu)
            config.tree_depth = tree.depth if tree else 0
            config.branching_factor = tree.branching if tree else config.branching_factor
        elif speculative and settings.tree_depth:
            if not 1 <= settings.tree_depth <= config.num_assistant_tokens or settings.branching_factor < 1:
                raise EngineError(
                    "A draft tree needs 1 <= depth <= assistant tokens ({num_assistant_tokens}) and a branching "
                    "factor of at least 1 (got depth {tree_depth}, branching {branching_factor}).",
                    num_assistant_tokens=config.num_assistant_tokens, tree_depth=settings.tree_depth,
                    branching_factor=settings.branching_factor,
                )
            config.tree_depth = int(settings.tree_depth)
            config.branching_factor = int(settings.branching_factor)
        return config

    def _assistant_tokens(self, settings: GenerationSettings) -> int:
        k = int(settings.num_assistant_tokens)
        upper = self.spec.npu.max_assistant_tokens if self.plan.device == "NPU" else MAX_ASSISTANT_TOKENS
        if not MIN_ASSISTANT_TOKENS <= k <= upper:
            raise EngineError(
                "The number of assistant tokens must be between {lowest} and {highest} on {device} (got {k}).",
                lowest=MIN_ASSISTANT_TOKENS, highest=upper, device=self.plan.device, k=k,
            )
        return k
