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
    speculation_method: str = "auto"  # the Speculation list: "auto" or a method pinned (core speculation)
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
    language: str | None = None  # None: follow the system locale; else a code from ui.i18n.LANGUAGES
    theme: str = "system"  # "system", "light" or "dark"
    server_port: int = 8000  # the window's API server (Server switch); it always binds 127.0.0.1
    remote_url: str = ""  # "Remote server" backend: an OpenAI-compatible base URL (…/v1, OVMS …/v3)
    remote_model: str = ""  # "" = the first model the server lists; the key is in the keyring, never here
    show_drafted_tokens: bool = False  # tint the text that came from accepted draft tokens
    # The last measured EAGLE-3 speed-up per "target|draft|device|precision" (a comparison's median ratio or
    # auto-tune's best): tells the compare view whether this pair can show a speed-up here.
    measured_speedup: dict[str, float] = field(default_factory=dict)
    demo_prompts: list[str] = field(default_factory=list)  # the presenter's own prompts, after the presets


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


def saved_language(path: Path) -> str | None:
    """The language saved in ``path``, read without touching the file even if it is damaged (a second
    launch that cannot hand over writes nothing, but speaks the user's language)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8")).get("language")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def save_settings(settings: Settings, path: Path) -> None:
    """Write atomically: a crash mid-write leaves the old file, never half a file."""
    settings.version = SETTINGS_VERSION
    write_json_atomic(path, asdict(settings))


def _check_types(settings: Settings) -> None:
    expectations = {
        "speculative": bool, "speculation_method": str, "device": str, "precision": str, "num_assistant_tokens": int,
        "max_new_tokens": int, "system_prompt": str, "thinking": bool, "prefix_cache": bool, "tuned_k": dict,
        "tuned_tree": dict, "download_source": str, "theme": str, "server_port": int, "remote_url": str,
        "remote_model": str, "show_drafted_tokens": bool, "measured_speedup": dict, "demo_prompts": list,
    }
    for name, kind in expectations.items():
        if not isinstance(getattr(settings, name), kind):
            raise TypeError(f"setting {name!r} has the wrong type")
