"""What the app knows of the pipeline that is loaded: :class:`LoadedPipeline`.

The engine host builds the pipeline in its own process; the app never holds the ``Engine``, only this
description of it, sent back when a load ends. Every reader (the window, the API's model list, the crash
marker, the comparisons) reads these fields, never a dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from eagle_chat.core.generation.reasoning import prompt_opens_reasoning
from eagle_chat.core.generation.replier import Replier


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
    )


def _reasoning_in_prompt(engine: Replier) -> dict:
    opens = {}
    for thinking in (None, True, False):
        try:
            opens[thinking] = prompt_opens_reasoning(engine.prompt_text([{"role": "user", "content": "hi"}], thinking))
        except Exception:  # noqa: BLE001 - a template that cannot render this probe still chats
            opens[thinking] = False
    return opens
