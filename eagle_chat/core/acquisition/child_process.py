"""Starting and stopping EagleChat's child processes (downloads, the draft export, the test load).

Children run in their own process group so that a cancel reaches everything they started, and with an
environment that keeps them private: Hugging Face telemetry off, progress bars off (their output is
parsed), the user's mirror or endpoint set, and the app's data folder passed on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import eagle_chat
from eagle_chat import paths

TERMINATE_GRACE_S = 3.0


def worker_env(source: str | None, endpoint: str | None, *, offline: bool = False) -> dict[str, str]:
    """Environment for a child process: telemetry off, the mirror/endpoint set, and our package importable."""
    env = dict(os.environ)
    env.update({
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "DO_NOT_TRACK": "1",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        "TQDM_DISABLE": "1",
        "PYTHONUNBUFFERED": "1",
        "PYTHONIOENCODING": "utf-8",
        "HF_HUB_OFFLINE": "1" if offline else "0",
    })
    env.setdefault("MODELSCOPE_CACHE", str(paths.cache_dir() / "modelscope"))
    if source == "hf" and endpoint:
        env["HF_ENDPOINT"] = endpoint.rstrip("/")
    if source == "modelscope" and endpoint:
        env["MODELSCOPE_ENDPOINT"] = endpoint.rstrip("/")
    package_root = Path(eagle_chat.__file__).resolve().parent.parent
    if package_root.name not in ("site-packages", "dist-packages"):  # a source checkout: make it importable
        env["PYTHONPATH"] = os.pathsep.join([str(package_root), *filter(None, [env.get("PYTHONPATH")])])
    home = paths.home_override()
    if home is not None:
        env[paths.HOME_ENV] = str(home)
    return env


def new_process_group_kwargs() -> dict:
    """Popen arguments that start the child in its own process group, so a cancel can end all of it."""
    if sys.platform == "win32":  # os.name == "nt", in the form type checkers know
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


def signal_process_group(pid: int, *, kill: bool) -> None:
    """Ask a child's process group to stop (SIGTERM), or end it (SIGKILL); Windows: end the tree."""
    if pid <= 0:
        return
    if sys.platform == "win32":  # no process groups to signal; CREATE_NO_WINDOW: no console flashes up
        subprocess.run(["taskkill", "/PID", str(pid), "/T", "/F"], capture_output=True, check=False,
                       creationflags=subprocess.CREATE_NO_WINDOW)
        return
    try:
        os.killpg(pid, signal.SIGKILL if kill else signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass


def terminate_process_tree(process: subprocess.Popen | int, grace_s: float = TERMINATE_GRACE_S) -> None:
    """End a child started with :func:`new_process_group_kwargs` and everything it started.

    POSIX: SIGTERM to the group (the workers stop cleanly, keeping partial files), SIGKILL after
    ``grace_s``. Windows: ``taskkill /T /F`` on the tree.
    """
    pid = process if isinstance(process, int) else process.pid
    signal_process_group(pid, kill=False)
    if isinstance(process, subprocess.Popen):
        try:
            process.wait(timeout=grace_s)
            return
        except subprocess.TimeoutExpired:
            pass
    else:
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.05)
    signal_process_group(pid, kill=True)
    if isinstance(process, subprocess.Popen):
        process.wait()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
