"""Every file location EagleChat uses, in one place.

Normally these are the platform's per-user folders (platformdirs). ``EAGLE_CHAT_HOME`` (or ``--home DIR``,
which sets it) puts config, data and cache under one folder instead — for tests, so they never touch the
real user folders, and for portable installs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "EagleChat"
HOME_ENV = "EAGLE_CHAT_HOME"
TINY_MODELS_ENV = "EAGLE_CHAT_TINY_MODELS"
# Another folder for the models (the Windows installer's "models folder" page sets it for the user; models
# take gigabytes, which a small system drive may not have). EAGLE_CHAT_HOME, when set, wins.
MODELS_ENV = "EAGLE_CHAT_MODELS"

TINY_TARGET_NAME = "tiny-qwen3"
TINY_DRAFT_NAME = "tiny-qwen3-eagle3"
TINY_EMBEDDER_NAME = "tiny-embedder"
TINY_RERANKER_NAME = "tiny-reranker"


def home_override() -> Path | None:
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(value).expanduser().resolve() if value else None


def set_home(path: str | os.PathLike[str]) -> Path:
    """Point every location at ``path`` for this process (what ``--home`` does)."""
    home = Path(path).expanduser().resolve()
    os.environ[HOME_ENV] = str(home)
    return home


def add_home_argument(parser: argparse.ArgumentParser) -> None:
    """``--home DIR`` for every command (the app and the subcommands share it)."""
    parser.add_argument(
        "--home",
        metavar="DIR",
        help=f"keep settings, conversations, models and caches under DIR (same as {HOME_ENV})",
    )


def add_home_before_subcommand(parser: argparse.ArgumentParser) -> None:
    """``--home DIR`` before a subcommand too (``models --home DIR list`` as ``models list --home DIR``)."""
    parser.add_argument("--home", dest="home_before_command", metavar="DIR", help=argparse.SUPPRESS)


def split_leading_home(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--home DIR`` (or ``--home=DIR``) given before the command: that folder (the last one given) and the
    rest of the command line. ``eagle-chat --home DIR tools list`` means ``eagle-chat tools list --home DIR``."""
    home, rest = None, list(argv)
    while rest:
        if rest[0] == "--home" and len(rest) > 1:
            home, rest = rest[1], rest[2:]
        elif rest[0].startswith("--home="):
            home, rest = rest[0].partition("=")[2], rest[1:]
        else:
            break
    return home, rest


def apply_home(args: argparse.Namespace) -> None:
    """Use the ``--home`` given, after the subcommand or before it."""
    home = getattr(args, "home", None) or getattr(args, "home_before_command", None)
    if home:
        set_home(home)


def _dir(kind: str) -> Path:
    home = home_override()
    if home is not None:
        path = home / kind
    else:
        path = Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    return _dir("config")


def data_dir() -> Path:
    return _dir("data")


def cache_dir() -> Path:
    return _dir("cache")


def log_dir() -> Path:
    """Where the rotating log lives: the platform's per-user log folder, or ``<home>/log`` under --home."""
    return _dir("log")


def log_file() -> Path:
    return log_dir() / "eaglechat.log"


def engine_log_file() -> Path:
    """The engine host process's output: OpenVINO's messages, and glibc's last words if it aborts."""
    return log_dir() / "engine.log"


def settings_file() -> Path:
    return config_dir() / "settings.json"


def mcp_config_file() -> Path:
    """The MCP servers the model may call, in the ``mcpServers`` format Claude Desktop, Cursor and LM Studio
    use (``mcp.json`` in the config folder, so a file copied from one of them works here)."""
    return config_dir() / "mcp.json"


def database_file() -> Path:
    return data_dir() / "conversations.sqlite3"


def speculation_record_file() -> Path:
    """What the automatic speculation choice learned per device and pair (core.generation.speculation.Record)."""
    return data_dir() / "speculation-record.json"


def documents_database_file() -> Path:
    """The documents index (files, chunks, vectors, full-text index): beside the conversations, its own file."""
    return data_dir() / "documents.sqlite3"


def tiny_embedder_dir() -> Path:
    """The bundled tiny embedding model (random weights: plumbing-grade vectors, for tests and a first try)."""
    return tiny_models_dir() / TINY_EMBEDDER_NAME


def tiny_reranker_dir() -> Path:
    """The bundled tiny reranker (random weights: every score the same; plumbing only)."""
    return tiny_models_dir() / TINY_RERANKER_NAME


def reply_marker_file() -> Path:
    """Exists while a reply is being generated: found at start, it means the app died mid-reply."""
    return data_dir() / "reply-in-progress.json"


def models_dir() -> Path:
    """Where downloaded and exported models live: ``EAGLE_CHAT_MODELS``, or ``models`` in the data folder."""
    chosen = os.environ.get(MODELS_ENV, "").strip()
    path = Path(chosen).expanduser() if chosen and home_override() is None else data_dir() / "models"
    path.mkdir(parents=True, exist_ok=True)
    return path


def staging_dir() -> Path:
    """Unfinished downloads and exports: kept here (so they can resume), never registered as models."""
    path = models_dir() / ".partial"
    path.mkdir(parents=True, exist_ok=True)
    return path


def remote_keys_file() -> Path:
    """The remote server's API key when no OS keyring is usable (mode 0600, never in settings.json)."""
    return config_dir() / "remote_keys.json"


def registry_file() -> Path:
    """The registered model pairs (see eagle_chat.core.models.registry)."""
    return data_dir() / "models.json"


def document_models_file() -> Path:
    """The registered embedding models and rerankers (see eagle_chat.core.models.document_models)."""
    return data_dir() / "document-models.json"


def user_catalog_file() -> Path:
    """The user's own catalog entries, merged over the built-in resources/catalog.json."""
    return config_dir() / "catalog.json"


def compiled_cache_dir() -> Path:
    """OpenVINO's CACHE_DIR: compiled blobs make the second load of a model much faster."""
    path = cache_dir() / "ov_cache"
    path.mkdir(parents=True, exist_ok=True)
    return path


def tiny_models_dir() -> Path:
    """The folder holding the bundled tiny target + EAGLE-3 draft (toy quality, always present).

    Looked up in order: ``EAGLE_CHAT_TINY_MODELS``; a frozen bundle; the installed wheel
    (``eagle_chat/tiny_models``); a source checkout (``tests/models``).
    """
    override = os.environ.get(TINY_MODELS_ENV, "").strip()
    candidates = [Path(override)] if override else []
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        candidates.append(Path(frozen_root) / "eagle_chat" / "tiny_models")
    package_dir = Path(__file__).resolve().parent
    candidates += [package_dir / "tiny_models", package_dir.parent / "tests" / "models"]
    for candidate in candidates:
        if (candidate / TINY_TARGET_NAME).is_dir():
            return candidate
    raise FileNotFoundError(
        "The bundled tiny models are missing (looked in: "
        + ", ".join(str(c) for c in candidates)
        + "). Reinstall EagleChat or rebuild them with tools/build_tiny_models.py."
    )


def tiny_target_dir() -> Path:
    return tiny_models_dir() / TINY_TARGET_NAME


def tiny_draft_dir() -> Path:
    return tiny_models_dir() / TINY_DRAFT_NAME


def resources_dir() -> Path:
    """Icons and style sheets: ``eagle_chat/resources`` in a wheel or bundle, ``resources/`` in a checkout."""
    package_dir = Path(__file__).resolve().parent
    frozen_root = getattr(sys, "_MEIPASS", None)
    candidates = [Path(frozen_root) / "eagle_chat" / "resources"] if frozen_root else []
    candidates += [package_dir / "resources", package_dir.parent / "resources"]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[-1]


def start_folder() -> str:
    """Where a file dialog opens: the user's documents folder, else home — never the process's working
    directory (a shortcut or the installer's folder on Windows, the repository for a developer)."""
    documents = Path(platformdirs.user_documents_dir())
    return str(documents if documents.is_dir() else Path.home())
