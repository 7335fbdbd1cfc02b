"""ControllerBackend: core.serving's Backend on the ChatController — API requests join its one queue.

The window and ``eagle-chat serve`` both serve through this, so an API request waits its turn behind the
window's replies (and they behind it) on the one pipeline the controller's worker owns.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.generation import speculation
from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.serving.backend import Job
from eagle_chat.core.serving.errors import not_ready, queue_full, shutting_down
from eagle_chat.core.serving.requests import ServedModel

DEFAULT_QUEUE_LIMIT = 16  # API requests waiting behind the one in flight; more get 429


class ControllerBackend:
    def __init__(self, controller, defaults: Callable[[], GenerationSettings], *,
                 queue_limit: int = DEFAULT_QUEUE_LIMIT, next_turn_prefill: bool = True,
                 prefill_idle_ms: int | None = None):
        self.controller = controller
        self._defaults = defaults
        self.queue_limit = queue_limit
        self.next_turn_prefill = next_turn_prefill  # prefill an API conversation for its next turn after a reply
        self.prefill_idle_ms = prefill_idle_ms  # None: ui.next_turn.API_IDLE_MS
        self._served: tuple[int, ServedModel] | None = None

    def served_model(self) -> ServedModel | None:
        info = self.controller.loaded
        if not info or self.controller.state not in ("ready", "generating"):
            return None
        if self._served is None or self._served[0] != id(info):
            spec = info.spec
            draft = getattr(spec, "draft_dir", None)
            model = ServedModel(
                id=served_name(spec), has_draft=info.has_draft, device=info.device,
                draft=Path(draft).name if draft else None, supports_thinking=info.supports_thinking,
                created=int(time.time()), supports_tools=info.supports_tools, context_length=info.context_length,
                max_prompt_tokens=info.max_prompt_tokens, draft_reduced_vocab=info.draft_reduced_vocab,
            )
            self._served = (id(info), model)
        return self._served[1]

    def default_settings(self) -> GenerationSettings:
        """What a request starts from. The window's "Off" under Speculation stays the window's: an API request
        that asks for draft tokens gets them, as when the EAGLE-3 button was the only switch (``speculative``
        off still means plain); a pinned method is the server's default."""
        settings = self._defaults()
        return replace(settings, method=speculation.AUTO) if settings.method == speculation.OFF else settings

    def load(self) -> dict:
        return {"running": self.controller.reply is not None, "queued": len(self.controller.queue)}

    def prefill_next_turn(self, messages: list[dict], settings: GenerationSettings) -> bool:
        """The API conversation's next turn, prefilled in the background as the window's are (ui.next_turn)
        once the server has been idle a moment after the reply: only while nothing else waits, and it gives
        way to a load; a request arriving while it runs waits the fraction of a second it has left."""
        if not self.next_turn_prefill:
            return False
        if self.prefill_idle_ms is None:
            return self.controller.next_turn.prefill_api(messages, settings)
        return self.controller.next_turn.prefill_api(messages, settings, self.prefill_idle_ms)

    def submit(self, job: Job) -> None:
        if self.controller.shutting_down:
            raise shutting_down()
        waiting = sum(1 for reply in self.controller.queue if reply.job is not None)
        if waiting >= self.queue_limit:
            raise queue_full(self.queue_limit)
        if self.controller.submit_job(job) is None:
            raise not_ready("No model is loaded yet; try again when GET /health says ok.")


def served_name(spec) -> str:
    """The model id the API lists: a pair EagleChat made (downloaded, or the speed-demo pair: the folder
    ``models/NAME/target``) by its NAME, not "target"; other folders by the target folder's name; a remote
    model keeps its own."""
    name = getattr(spec, "model", None)
    if name:
        return str(name)
    target = getattr(spec, "target_dir", None)  # a remote server chosen without a model name has none
    if not target:
        return "remote"
    target = Path(target).resolve()
    return target.parent.name if target.parent.parent == paths.models_dir().resolve() else target.name
