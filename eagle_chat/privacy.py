"""Keep EagleChat from phoning home.

``import openvino`` runs the model-conversion tool's package init, which sends a usage event through the
``openvino-telemetry`` package (and writes ``~/intel/openvino_ga_cid``) unless the user opted out; even the
official opt-out command sends one event. Making the module unimportable before openvino is first imported
sends nothing: OpenVINO falls back to a stub on ImportError. Hugging Face libraries read their switches at
import time, so they are set here too, before anything imports them.
"""

from __future__ import annotations

import os
import sys

BLOCKED_MODULES = ("openvino_telemetry",)


def apply() -> None:
    """Block telemetry modules and set the environment switches. Idempotent; call before openvino."""
    for name in BLOCKED_MODULES:
        if not isinstance(sys.modules.get(name), type(sys)):
            # None in sys.modules makes `import name` raise ImportError.
            sys.modules[name] = None  # type: ignore[assignment]
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("DO_NOT_TRACK", "1")
