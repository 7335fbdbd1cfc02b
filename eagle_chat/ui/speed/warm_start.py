"""WarmStart: after every load, one short reply in each mode in the background, so the first reply the user
sees is as fast as the tenth.

The first inference after a load pays for memory allocation and kernel selection, and the first reply to
reach each new length pays again as its cache grows: measured on the tiny pair (raw engine, medians of
5 fresh processes), the first 128-token reply had 10× the TTFT of later ones cold, and still ~20 % fewer
tokens/s after a 16-token warm-up, but none after a 128-token one (``benchmarks/warm_start.py`` measures
it through the window). So the warm start runs one reply per mode as long as the window's max new tokens
(at most :data:`WARM_MAX_TOKENS`), the mode the next reply will use first, to a short prompt in the chat's
own message form, at the window's K and draft tree — while the user is still typing.

It never delays the user: its replies are *background* requests (:meth:`ChatController.run_ephemeral`), so
the state stays "ready" and anything the user asks for — a send, a comparison, a load — stops the warm-up
and is queued right behind it. The cost to that request is at most one decoding step of the warm-up, and
the part already run has done most of the warming (the first prefill and the first steps). Queueing the
user's send behind a whole warm-up would instead cost it up to two whole replies.

It also keeps what a pre-flight check needs to know about the current load: which modes have run since
(from the warm start or from anything else), and what the compiled-model cache gained.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.generation.metrics import GenerationStats
from eagle_chat.core.measure.preflight import cache_blobs
from eagle_chat.ui.runtime.controller import ChatController
from eagle_chat.ui.runtime.reply_handle import ReplyHandle
from eagle_chat.ui.speed.batch_runner import BatchRunner, Job
from eagle_chat.core.generation.loaded import LoadedPipeline

WARM_MAX_TOKENS = 512
WARM_PROMPT = "Write a Python function that reverses a string."


class WarmStart(QObject):
    sig_warmed = Signal()
    """Every mode the loaded pipeline has (baseline, and EAGLE-3 with a draft) has run once since the load."""
    sig_changed = Signal()
    """What is known about the current load changed (a mode ran, a load finished)."""

    def __init__(self, controller: ChatController, settings_source, cache_dir: Path | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.controller = controller
        self.cache_dir = cache_dir  # OpenVINO's CACHE_DIR, to see what a load adds to it
        self._settings_source = settings_source  # () -> the window's GenerationSettings
        self.enabled = True
        self.runner = BatchRunner(controller, self)
        self.runner.sig_done.connect(self._on_done)
        self.ran: dict[str, GenerationStats] = {}  # mode → the first complete reply since the load
        self.warmup_runs: list[GenerationStats] = []  # what the warm start itself ran since the load
        self.new_blobs: int | None = None  # compiled blobs the last load added to the cache
        self._blobs_before: dict[str, int] | None = None
        controller.sig_state.connect(self._on_state)
        controller.sig_loaded.connect(self._on_loaded)
        controller.sig_reply_started.connect(self._follow)
        controller.sig_background_started.connect(self._follow)
        controller.sig_reply_finished.connect(lambda _message, result: self._note(result))

    # --- public API ------------------------------------------------------------------------------------
    def expected_modes(self) -> tuple[str, ...]:
        loaded = self.controller.loaded
        return ("baseline", "speculative") if loaded and loaded.has_draft else ("baseline",)

    def warmed(self) -> bool:
        return bool(self.controller.loaded) and all(mode in self.ran for mode in self.expected_modes())

    def start(self) -> bool:
        """Run a short reply in every mode that has not run since the load; False if there is nothing to do
        or the engine is busy."""
        if self.runner.is_running() or self.controller.state != "ready" or self.controller.reply is not None:
            return False
        base = self._settings_source()
        settings = GenerationSettings(
            max_new_tokens=min(base.max_new_tokens, WARM_MAX_TOKENS), speculative=False,
            num_assistant_tokens=base.num_assistant_tokens, thinking=base.thinking,
            tree_depth=base.tree_depth, branching_factor=base.branching_factor,
        )
        prompt = [{"role": "user", "content": WARM_PROMPT}]
        first = "speculative" if base.speculative else "baseline"  # the next reply's mode
        modes = sorted((m for m in self.expected_modes() if m not in self.ran), key=lambda m: m != first)
        jobs = [Job(prompt, replace(settings, speculative=mode == "speculative"), mode, background=True)
                for mode in modes]
        return bool(jobs) and self.runner.start(jobs)

    def is_running(self) -> bool:
        return self.runner.is_running()

    # --- slots -------------------------------------------------------------------------------------------
    def _on_state(self, state: str) -> None:
        if state == "loading":
            self._blobs_before = cache_blobs(self.cache_dir)

    def _on_loaded(self, info: LoadedPipeline) -> None:
        self.ran, self.warmup_runs = {}, []
        after = cache_blobs(self.cache_dir)
        before = self._blobs_before
        self.new_blobs = len(set(after) - set(before)) if before is not None else None
        self._blobs_before = None
        self.sig_changed.emit()
        if self.enabled:
            # After every other listener of the load (the window sets the tuned K first); a comparison or a
            # send started by one of them simply finds the engine busy and the warm-up is skipped.
            QTimer.singleShot(0, self, self.start)

    def _on_done(self, results) -> None:
        self.warmup_runs = [r.result.stats for r in results if r.result is not None and not r.result.stopped]

    def _follow(self, handle: ReplyHandle) -> None:
        """A reply that is no conversation's and no API request's (a comparison, tuning, the warm start, a
        prefill): its result counts too (a conversation's is heard on sig_reply_finished)."""
        if handle.message is None and not handle.api:
            handle.sig_finished.connect(self._note)

    def _note(self, result) -> None:
        if result is None or result.stopped or result.stats.mode in self.ran or not self.controller.loaded:
            return
        self.ran[result.stats.mode] = result.stats
        self.sig_changed.emit()
        if self.warmed():
            self.sig_warmed.emit()
