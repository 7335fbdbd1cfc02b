"""What the app knows of the pipeline that is loaded: :class:`LoadedPipeline`.

The engine host builds the pipeline in its own process; the app never holds the ``Engine``, only this
description of it, sent back when a load ends. Every reader (the window, the API's model list, the crash
marker, the comparisons) reads these fields, never a dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from eagle_chat.core.generation import speculation
from eagle_chat.core.generation.reasoning import prompt_opens_reasoning
from eagle_chat.core.generation.replier import Replier
from eagle_chat.core.generation.tool_template import takes_tools
from eagle_chat.core.models import folders

UNBOUNDED = 1 << 30  # context.cpu_limits' "no known limit"


@dataclass(frozen=True)
class LoadedPipeline:
    """A loaded pipeline as the app sees it."""

    spec: object  # the PipelineSpec (or a remote server's RemoteSpec) it was built from
    has_draft: bool
    supports_thinking: bool
    load_time_ms: float
    device: str
    draft_device: str | None = None
    draft_free: bool = False  # the draft-free reference pipeline for comparisons is loaded beside it
    load_id: int | None = None  # the load that asked for it (None: reloaded after a crash, or kept)
    # For each thinking switch (None, True, False): does the template open <think> in the prompt itself?
    reasoning_in_prompt: dict = field(default_factory=dict)
    supports_tools: bool = False  # the chat template has a tools branch (see tool_template)
    context_length: int | None = None  # prompt + reply tokens a request may take (context budget; None: unknown)
    max_prompt_tokens: int | None = None  # of which at most this many prompt tokens
    draft_reduced_vocab: bool = False  # the draft predicts over part of the vocabulary (d2t): grammars stall it
    # How a reply may speculate on this pair (Engine.methods: speculation.offered); a remote server: plain only,
    # as far as the window can ask for it (it decides the rest itself)
    methods: tuple[str, ...] = (speculation.OFF,)
    # The key of the engine's speculation.Record in paths.speculation_record_file (None: a remote server), so the
    # window can name what Automatic measured on this pair
    record_key: str | None = None

    @property
    def prefix_cache(self) -> bool:
        return bool(getattr(self.spec, "prefix_cache", False))

    def opens_reasoning(self, thinking: bool | None) -> bool:
        """Replies start inside the thinking (QwQ style): the GUI splits the stream from its start."""
        return bool(self.reasoning_in_prompt.get(thinking))

    def with_changes(self, **changes) -> LoadedPipeline:
        return replace(self, **changes)


def describe(engine: Replier, *, load_id: int | None = None, draft_free: bool = False) -> LoadedPipeline:
    """The description of ``engine`` (an Engine or a RemoteEngine) the app is sent."""
    return LoadedPipeline(
        spec=engine.spec,
        has_draft=engine.has_draft,
        supports_thinking=engine.supports_thinking,
        load_time_ms=engine.load_time_ms,
        device=engine.plan.device,
        draft_device=engine.plan.draft_device,
        draft_free=draft_free,
        load_id=load_id,
        reasoning_in_prompt=_reasoning_in_prompt(engine),
        supports_tools=takes_tools(getattr(getattr(engine, "tokenizer", None), "chat_template", None)),
        **_context(getattr(engine, "context_limits", None)),
        draft_reduced_vocab=folders.reduced_vocabulary(getattr(engine.plan, "draft_dir", None)),
        methods=tuple(getattr(engine, "methods", (speculation.OFF,))),
        record_key=getattr(getattr(engine, "record", None), "key", None),
    )


def _context(limits) -> dict:
    """The context budget as the API reports it: what a request may take in all (the margin for drafted tokens
    left out), and of it the prompt (see ``context``)."""
    if limits is None or limits.context >= UNBOUNDED:
        return {}
    return {"context_length": limits.context - limits.margin, "max_prompt_tokens": min(limits.max_prompt,
                                                                                       limits.context - limits.margin)}


def _reasoning_in_prompt(engine: Replier) -> dict:
    opens = {}
    for thinking in (None, True, False):
        try:
            opens[thinking] = prompt_opens_reasoning(engine.prompt_text([{"role": "user", "content": "hi"}], thinking))
        except Exception:  # noqa: BLE001 - a template that cannot render this probe still chats
            opens[thinking] = False
    return opens
