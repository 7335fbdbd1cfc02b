"""BatchRunner: runs a list of replies one after another on the controller's worker (comparisons, tuning).

Jobs go through the same worker thread and pipeline as chat replies, so only one thing ever runs on the
device at a time, and they never touch the open conversation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Signal

from eagle_chat.core.generation.engine import GenerationResult, GenerationSettings
from eagle_chat.ui.runtime.controller import ChatController
from eagle_chat.ui.runtime.reply_handle import ReplyHandle


@dataclass(frozen=True)
class Job:
    prompt: str | list
    settings: GenerationSettings
    tag: object = None  # whatever the caller needs to file the result (mode, K, prompt index…)
    draft_free: bool = False  # run on the draft-free reference pipeline
    background: bool = False  # gives way to anything the user asks for (the warm start)


@dataclass
class JobResult:
    job: Job
    result: GenerationResult | None
    handle: ReplyHandle | None = None  # the reply it ran as


@dataclass
class _Batch:
    jobs: list[Job]
    results: list[JobResult] = field(default_factory=list)
    handle: ReplyHandle | None = None  # the job in flight


class BatchRunner(QObject):
    sig_job_started = Signal(int, Job, ReplyHandle)
    """A job was handed to the controller: its index, the Job, and its ReplyHandle (live text, steps, speed)."""
    sig_job_finished = Signal(int, JobResult)
    """A job ended: its index and the JobResult (result None if it failed)."""
    sig_done = Signal(object)
    """All jobs ended (or the batch was cancelled): the list of JobResults so far."""

    def __init__(self, controller: ChatController, parent: QObject | None = None):
        super().__init__(parent)
        self.controller = controller
        self._batch: _Batch | None = None
        self._cancelled = False

    def is_running(self) -> bool:
        return self._batch is not None

    @property
    def cancelled(self) -> bool:
        """The last batch was cancelled (its results are partial)."""
        return self._cancelled

    def start(self, jobs: list[Job]) -> bool:
        """Start the jobs; False (and the controller says why) if the worker is busy."""
        if self._batch is not None or not jobs:
            return False
        self._cancelled = False
        self._batch = _Batch(list(jobs))
        if not self._next():
            self._batch = None
            return False
        return True

    def cancel(self) -> None:
        """Stop the job in flight and run no more."""
        if self._batch is not None:
            self._cancelled = True
            self.controller.stop()

    def _next(self) -> bool:
        batch = self._batch
        index = len(batch.results)
        job = batch.jobs[index]
        handle = self.controller.run_ephemeral(job.prompt, job.settings, draft_free=job.draft_free,
                                               background=job.background)
        if handle is None:
            return False
        batch.handle = handle
        self.sig_job_started.emit(index, job, handle)
        if handle.ended:  # a background job that gave way as it started
            self._on_ended(handle, handle.result)
        else:
            handle.sig_ended.connect(lambda result: self._on_ended(handle, result))
        return True

    def _on_ended(self, handle: ReplyHandle, result: GenerationResult | None) -> None:
        batch = self._batch
        if batch is None or handle is not batch.handle:
            return
        index = len(batch.results)
        job_result = JobResult(batch.jobs[index], result, handle)
        batch.results.append(job_result)
        self.sig_job_finished.emit(index, job_result)
        failed = result is None
        if self._cancelled or failed or len(batch.results) == len(batch.jobs) or not self._next():
            self._batch = None
            self.sig_done.emit(batch.results)
