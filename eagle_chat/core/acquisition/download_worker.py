"""Download one model repository into a folder — run as a child process, never imported by the app.

    python -m eagle_chat.core.acquisition.download_worker --source hf --repo OpenVINO/Qwen3-8B-int4-ov --dest DIR
        [--revision main] [--endpoint URL] [--exclude PATTERN ...]

Why a process: neither hub client can be cancelled cleanly from inside, and a process can always be
killed. Killing it at any moment is safe: the next run with the same ``--dest`` resumes (finished files are
kept, a half-transferred file continues from its last byte with an HTTP Range request) and nothing is ever
called finished until every file matches the size and hash the hub lists.

Output is one JSON object per line on stdout (see :mod:`eagle_chat.core.acquisition.protocol`)::

    {"event": "start", "repo": ..., "files": 12, "total": 4800000000, "present": 0}
    {"event": "progress", "done": ..., "total": ..., "speed": 1.2e7, "eta": 380.0, "file": "openvino_model.bin"}
    {"event": "verifying", "file": ...}
    {"event": "done", "total": ..., "files": 12}
    {"event": "error", "kind": "space|integrity|not_found|network|missing_client|other", "message": ...,
     "template": ..., "params": {...}}

Exit status 0 means the folder is complete and verified; anything else means it is not. The Hugging Face
endpoint comes from ``--endpoint`` or ``HF_ENDPOINT``; ModelScope's from ``--endpoint`` or
``MODELSCOPE_ENDPOINT``. Telemetry switches are set before any hub client is imported.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("MODELSCOPE_DOWNLOAD_TOTAL_TIMEOUT", str(7 * 24 * 3600))  # default 1 h per file

from eagle_chat.core.acquisition import staging  # noqa: E402 - after the environment switches
from eagle_chat.core.acquisition.download_files import WorkerError  # noqa: E402
from eagle_chat.core.acquisition.hub_clients import download_hf, download_modelscope  # noqa: E402
from eagle_chat.core.acquisition.protocol import Emitter, error_fields  # noqa: E402
from eagle_chat.core.acquisition.staging import StagingError  # noqa: E402
from eagle_chat.core.errors import UserError  # noqa: E402

DEFAULT_EXCLUDES = (".gitattributes",)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eagle_chat.core.acquisition.download_worker")
    parser.add_argument("--source", choices=["hf", "modelscope"], required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--revision")
    parser.add_argument("--dest", type=Path, required=True)
    parser.add_argument("--endpoint")
    parser.add_argument("--exclude", action="append", default=[])
    args = parser.parse_args(argv)
    emit = Emitter()
    signal.signal(signal.SIGTERM, _exit_on_signal)
    args.dest.mkdir(parents=True, exist_ok=True)
    excludes = list(DEFAULT_EXCLUDES) + args.exclude
    try:
        if args.source == "hf":
            download_hf(args.repo, args.revision or "main", args.dest, args.endpoint, excludes, emit)
        else:
            download_modelscope(args.repo, args.revision or "master", args.dest, args.endpoint, excludes, emit)
    except WorkerError as error:
        emit("error", kind=error.kind, **error_fields(error))
        return 1
    except staging.NotEnoughSpaceError as error:
        emit("error", kind="space", **error_fields(error))
        return 1
    except StagingError as error:
        emit("error", kind="integrity", **error_fields(error))
        return 1
    except KeyboardInterrupt:
        stopped = UserError("The download was stopped; start it again to resume.")
        emit("error", kind="cancelled", **error_fields(stopped))
        return 130
    except Exception as error:  # noqa: BLE001 - the parent needs a message, never a silent death
        emit("error", kind="other", **error_fields(UserError("The download failed: {type}: {error}",
                                                             type=type(error).__name__, error=error)))
        return 1
    return 0


def _exit_on_signal(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
