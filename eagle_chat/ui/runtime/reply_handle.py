"""ReplyHandle: one request's own events — what its asker (and anyone it was announced to) listens to.

The controller's queue hands one to each request it takes (a window reply, a comparison or tuning run, an
API request, an agent step, the next-turn prefill, the warm start): ``run_ephemeral`` and ``submit_job``
return it, ``sig_reply_started`` / ``sig_background_started`` announce it when it starts to run. Its signals
are about this request only, so a listener never has to tell one request's broadcast from another's. It
lives on the GUI thread; the queue emits its signals from there (text, steps and speed at display rate).
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from eagle_chat.core.generation.engine import GenerationResult, GenerationSettings
from eagle_chat.core.generation.steps import StepRecord
from eagle_chat.core.storage.conversation import Message


class ReplyHandle(QObject):
    """One request, from the moment the queue takes it to its end (``sig_ended``, once; a reply still in
    flight when the app shuts down ends without it)."""

    sig_text = Signal(str)
    """New text (at display rate): all the reply's text so far (a background reply streams none)."""
    sig_steps = Signal(StepRecord)
    """The reply's verification steps so far (display rate, just before its sig_text): the StepRecord, which
    is the queue's own — read it, do not change it."""
    sig_rate_points = Signal(object)
    """Live speed: a list of (seconds, tokens/s) points since the last batch."""
    sig_finished = Signal(GenerationResult)
    """The reply ended with a result (a stopped reply too: ``result.stopped``)."""
    sig_failed = Signal(str, str)
    """The reply ended without a result: the failure's kind (core.generation.failure_kinds; ``stopped`` for a
    background reply that gave way before it ran or while it ran) and a sentence for the user ("" if none)."""
    sig_ended = Signal(object)
    """The reply ended either way, after sig_finished / sig_failed: the GenerationResult, or None."""

    def __init__(self, mode: str, settings: GenerationSettings, stop: threading.Event, *,
                 message: Message | None = None, api: bool = False, background: bool = False,
                 draft_free: bool = False):
        super().__init__()
        self.mode = mode  # what it is expected to run as: "speculative" or "baseline" (its stats say what it ran as)
        self.settings = settings  # as the queue sends them (speculative off without a draft)
        self.message = message  # the conversation's reply it writes into; None for comparisons, API, background
        self.api = api  # an API request (core.serving Job)
        self.background = background  # the warm start or a prefill: it gives way to anything asked for
        self.draft_free = draft_free  # on the draft-free reference pipeline
        self.steps = StepRecord()  # the verification steps so far (the queue appends to it)
        self.text = ""  # the text so far, as last sent on sig_text
        self.result: GenerationResult | None = None
        self.ended = False
        self._stop = stop

    def stop(self) -> None:
        """Ask this reply to stop (within a step); a queued one ends as soon as it would start."""
        self._stop.set()

    # --- the queue's side (GUI thread) --------------------------------------------------------------------
    def finish(self, result: GenerationResult) -> None:
        if not self.ended:
            self.ended, self.result = True, result
            self.sig_finished.emit(result)
            self.sig_ended.emit(result)

    def fail(self, kind: str, shown: str = "") -> None:
        if not self.ended:
            self.ended = True
            self.sig_failed.emit(kind, shown)
            self.sig_ended.emit(None)
