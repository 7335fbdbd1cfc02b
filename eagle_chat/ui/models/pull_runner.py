"""Runs a :class:`~eagle_chat.core.acquisition.pulls.PullPlan` step by step with QProcess, never blocking the GUI.

The steps, their commands and what their output means all come from :mod:`eagle_chat.core.acquisition.pulls` —
the same code ``eagle-chat models pull`` runs with ``subprocess`` — so the dialog and the CLI cannot
drift apart. This class only moves lines from the processes to the steps and results to signals.

A cancel sends SIGTERM to the step's process group (the download worker then stops cleanly and keeps its
partial files for a resume) and SIGKILL if it has not ended after a grace period; on Windows the process
tree is ended at once.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer, Signal, Slot

from eagle_chat.core.acquisition.child_process import signal_process_group
from eagle_chat.core.acquisition.pulls import PullPlan
from eagle_chat.core.acquisition.pull_steps import Progress, Step
from eagle_chat.core.errors import UserError
from eagle_chat.ui.words.core_text import user_error_text

KILL_AFTER_MS = 3000


class PullRunner(QObject):
    sig_progress = Signal(Progress)
    """A :class:`~eagle_chat.core.acquisition.pull_steps.Progress` update from the running step."""
    sig_finished = Signal(object)
    """Every step succeeded and the model was registered; carries the ModelPair (or, for an embedder or a
    reranker, the DocumentModel)."""
    sig_failed = Signal(str)
    """A step failed; carries a sentence for the user. Nothing was registered."""
    sig_cancelled = Signal(str)
    """The user stopped the pull; carries a sentence saying what was kept."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._plan: PullPlan | None = None
        self._steps: list[Step] = []
        self._step: Step | None = None
        self._process: QProcess | None = None
        self._buffer = b""
        self._cancelling = False
        self.failure_kind: str | None = None  # the last failure's kind ("network": the hub was not reached)
        self._kill_timer = QTimer(self)
        self._kill_timer.setSingleShot(True)
        self._kill_timer.timeout.connect(self._kill)

    @property
    def running(self) -> bool:
        return self._plan is not None

    def start(self, plan: PullPlan) -> None:
        if self.running:
            raise RuntimeError("a pull is already running")
        self._plan = plan
        self._steps = list(plan.steps)
        self._cancelling = False
        self.failure_kind = None
        self._next_step()

    def cancel(self) -> None:
        """Stop the running step; ``sig_cancelled`` follows once its process has ended."""
        if not self.running or self._cancelling:
            return
        self._cancelling = True
        process = self._process
        if process is None or process.state() == QProcess.ProcessState.NotRunning:
            self._end_cancelled()
            return
        pid = process.processId()
        if os.name == "nt":
            signal_process_group(pid, kill=True)
        else:
            signal_process_group(pid, kill=False)
            self._kill_timer.start(KILL_AFTER_MS)

    def wait_stopped(self, timeout_ms: int = 5000) -> None:
        """Block until the current process is gone (for closing the dialog while a step runs)."""
        if self._process is not None and self._process.state() != QProcess.ProcessState.NotRunning:
            if not self._process.waitForFinished(timeout_ms):
                self._kill()
                self._process.waitForFinished(timeout_ms)

    # -- steps -----------------------------------------------------------------------------------------

    def _next_step(self) -> None:
        while self._steps:
            step = self._steps.pop(0)
            if step.is_done():
                self.sig_progress.emit(Progress(step.title, message=self.tr("Already done.")))
                continue
            try:
                step.prepare()
            except (UserError, OSError) as error:
                self._end_failed(user_error_text(error))
                return
            self._run(step)
            return
        try:
            pair = self._plan.register()
        except (UserError, OSError) as error:
            self._end_failed(user_error_text(error))
            return
        self._plan = None
        self.sig_finished.emit(pair)

    def _run(self, step: Step) -> None:
        self._step = step
        self._buffer = b""
        command = step.command()
        process = QProcess(self)
        environment = QProcessEnvironment()
        for key, value in command.env.items():
            environment.insert(key, value)
        process.setProcessEnvironment(environment)
        process.setProgram(command.argv[0])
        process.setArguments(command.argv[1:])
        process.setProcessChannelMode(
            QProcess.ProcessChannelMode.MergedChannels if step.merge_stderr
            else QProcess.ProcessChannelMode.SeparateChannels
        )
        if os.name != "nt":  # its own process group, so a cancel reaches everything it starts
            params = QProcess.UnixProcessParameters()
            params.flags = QProcess.UnixProcessFlag.CreateNewSession
            process.setUnixProcessParameters(params)
        process.readyReadStandardOutput.connect(self._on_stdout)
        process.readyReadStandardError.connect(self._on_stderr)
        process.finished.connect(self._on_finished)
        process.errorOccurred.connect(self._on_error)
        self._process = process
        self.sig_progress.emit(Progress(step.title, message=self.tr("Starting…")))
        process.start()

    @Slot()
    def _on_stdout(self) -> None:
        if self._process is None or self._step is None:
            return
        self._buffer += bytes(self._process.readAllStandardOutput().data())
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            progress = self._step.handle_line(line)
            if progress is not None and not self._cancelling:
                self.sig_progress.emit(progress)

    @Slot()
    def _on_stderr(self) -> None:
        if self._process is None or self._step is None:
            return
        for line in bytes(self._process.readAllStandardError().data()).splitlines():
            self._step.handle_stderr(line)

    @Slot(int, QProcess.ExitStatus)
    def _on_finished(self, exit_code: int, exit_status: QProcess.ExitStatus) -> None:
        self._kill_timer.stop()
        self._on_stdout()
        if self._buffer.strip() and self._step is not None:
            self._step.handle_line(self._buffer)
        step, process = self._step, self._process
        self._step, self._process = None, None
        if process is not None:
            process.deleteLater()
        if self._cancelling:
            self._end_cancelled()
            return
        code = exit_code if exit_status == QProcess.ExitStatus.NormalExit else -1
        try:
            step.finish(code)
        except (UserError, OSError) as error:
            self.failure_kind = step.last_error_kind
            self._end_failed(user_error_text(error))
            return
        self._next_step()

    @Slot(QProcess.ProcessError)
    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and not self._cancelling:
            program = self._process.program() if self._process else "?"
            self._step, self._process = None, None
            self._end_failed(self.tr("Could not start {program}: the Python that runs EagleChat is missing or broken.")
                             .format(program=program))

    @Slot()
    def _kill(self) -> None:
        if self._process is not None and self._process.state() != QProcess.ProcessState.NotRunning:
            signal_process_group(self._process.processId(), kill=True)

    def _end_failed(self, message: str) -> None:
        self._plan = None
        self.sig_failed.emit(message)

    def _end_cancelled(self) -> None:
        self._plan = None
        self._cancelling = False
        self.sig_cancelled.emit(self.tr(
            "Stopped. Nothing was registered; what was downloaded so far is kept, and the next download of "
            "this model resumes from there."
        ))
