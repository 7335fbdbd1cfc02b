"""Running a pull's steps as child processes from a terminal (the Get models dialog uses QProcess)."""

from __future__ import annotations

import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable

from eagle_chat.core.acquisition.child_process import (
    new_process_group_kwargs,
    terminate_process_tree,
)
from eagle_chat.core.acquisition.pulls import PullPlan
from eagle_chat.core.acquisition.pull_steps import Cancelled, Progress, Step
from eagle_chat.core.models.registry import ModelPair


def run_plan(
    plan: PullPlan,
    on_progress: Callable[[Progress], None] = lambda p: None,
    should_cancel: Callable[[], bool] = lambda: False,
) -> ModelPair:
    """Run every pending step as a child process (blocking), then register. For the CLI and scripts.

    ``should_cancel`` is polled a few times a second; when it returns True the running process group is
    ended and Cancelled is raised. KeyboardInterrupt does the same.
    """
    for step in plan.steps:
        if step.is_done():
            on_progress(Progress(step.title, message="Already done."))
            continue
        run_step(step, on_progress, should_cancel)
    return plan.register()


def run_step(step: Step, on_progress: Callable[[Progress], None] = lambda p: None,
             should_cancel: Callable[[], bool] = lambda: False) -> None:
    """Run one step's process to its end, feeding its output to the step; raise on failure or cancel."""
    step.prepare()
    on_progress(Progress(step.title, message="Starting…"))
    cmd = step.command()
    process = subprocess.Popen(
        cmd.argv, env=cmd.env, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
        stderr=subprocess.STDOUT if step.merge_stderr else subprocess.PIPE,
        **new_process_group_kwargs(),
    )
    lines: deque[bytes] = deque()

    def read_stderr() -> None:
        for line in process.stderr or ():
            step.handle_stderr(line)

    def read_stdout() -> None:
        lines.extend(process.stdout or ())

    stderr_reader = threading.Thread(target=read_stderr, daemon=True)
    stderr_reader.start()
    stdout_reader = threading.Thread(target=read_stdout, daemon=True)
    stdout_reader.start()
    try:
        while True:
            while lines:
                progress = step.handle_line(lines.popleft())
                if progress is not None:
                    on_progress(progress)
            if process.poll() is not None and not stdout_reader.is_alive():
                break
            if should_cancel():
                raise Cancelled("Stopped.")
            time.sleep(0.05)
    except (Cancelled, KeyboardInterrupt):
        terminate_process_tree(process)
        raise Cancelled(
            "Stopped. What was downloaded so far is kept; run the same download again to resume."
        ) from None
    stderr_reader.join(timeout=5)
    while lines:
        progress = step.handle_line(lines.popleft())
        if progress is not None:
            on_progress(progress)
    step.finish(process.returncode)


# -- import, leftovers ----------------------------------------------------------------------------------
