"""Typed, versioned settings, written atomically to the config folder.

A damaged settings file never stops the app: it is moved aside to a backup and defaults are used, with a
``notice`` for the UI. A file from a newer version is read for the fields this version knows.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from eagle_chat.core.files import move_aside, write_json_atomic

SETTINGS_VERSION = 1


@dataclass
class Settings:
    version: int = SETTINGS_VERSION
    target_dir: str | None = None  # None: the bundled tiny pair
    draft_dir: str | None = None
    speculative: bool = True
    device: str = "CPU"
    precision: str = "default"
    num_assistant_tokens: int = 5
    max_new_tokens: int = 512
    system_prompt: str = ""
    thinking: bool = False
    prefix_cache: bool = True  # CPU/GPU: reuse the KV cache of earlier turns (changing it reloads the model)
    window_geometry: str | None = None  # base64 of QWidget.saveGeometry()
    last_conversation_id: int | None = None
    # Best K found by auto-tune, per "target|draft|device".
    tuned_k: dict[str, int] = field(default_factory=dict)
    # A draft tree ("DEPTHxBRANCHING") when auto-tune found one faster than a chain, same keys.
    tuned_tree: dict[str, str] = field(default_factory=dict)
    hf_endpoint: str | None = None  # a Hugging Face mirror, e.g. https://hf-mirror.com; None: huggingface.co
    modelscope_endpoint: str | None = None  # None: ModelScope's default site
    download_source: str = "hf"


def load_settings(path: Path) -> tuple[Settings, str | None]:
    """Read settings; returns ``(settings, notice)`` where notice is set if the file had to be set aside."""
    if not path.exists():
        return Settings(), None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        known = {f.name: f for f in fields(Settings)}
        values = {k: v for k, v in data.items() if k in known}
        settings = Settings(**values)
        _check_types(settings)
        return settings, None
    except (ValueError, TypeError, OSError) as error:
        backup = move_aside(path)
        where = f" It was kept as {backup}." if backup else ""
        return Settings(), f"The settings file could not be read ({error}); defaults are used.{where}"


def save_settings(settings: Settings, path: Path) -> None:
    """Write atomically: a crash mid-write leaves the old file, never half a file."""
    settings.version = SETTINGS_VERSION
    write_json_atomic(path, asdict(settings))


def _check_types(settings: Settings) -> None:
    expectations = {
        "speculative": bool, "device": str, "precision": str, "num_assistant_tokens": int,
        "max_new_tokens": int, "system_prompt": str, "thinking": bool, "prefix_cache": bool, "tuned_k": dict, "tuned_tree": dict,
        "download_source": str,
    }
    for name, kind in expectations.items():
        if not isinstance(getattr(settings, name), kind):
            raise TypeError(f"setting {name!r} has the wrong type")
