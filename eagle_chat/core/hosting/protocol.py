"""The messages between the app and the engine host, and how an error crosses from one to the other.

Messages are tuples (cheap to pickle; a reply streams one every 15 ms at most). The app sends:

* ``("load", spec, load_id)`` → ``("valid",)`` once the folders check out (the app then ends the previous
  host: two large models would not fit), then ``("loaded", LoadedPipeline)`` or ``("error", ErrorInfo)``;
* ``("load_draft_free",)`` → ``("draft_free", ErrorInfo | None)``; ``("unload_draft_free",)`` → ``("done",)``;
* ``("generate", prompt, settings, draft_free)`` → ``("started",)``, then ``("steps", steps)`` and
  ``("chunk", text, tokens, t)`` as the reply streams, then ``("result", GenerationResult)`` or
  ``("error", ErrorInfo)``; Stop is a shared event the host's streamer checks each step, not a message;
* ``("quit",)`` → the host ends.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from eagle_chat.core.errors import UserError
from eagle_chat.core.generation.failure_kinds import FAULT, REFUSED


@dataclass(frozen=True)
class ErrorInfo:
    """An error raised in the host, as the app rebuilds it: a user error keeps its class, template and
    parameters (so the window can translate it); anything else is a fault with its English sentence."""

    kind: str  # core.generation.failure_kinds
    message: str  # English
    error_class: str = ""  # "module:QualName" of a UserError subclass
    template: str = ""
    params: dict = field(default_factory=dict)


def error_info(error: BaseException, kind: str | None = None) -> ErrorInfo:
    if isinstance(error, UserError):
        cls = type(error)
        return ErrorInfo(kind or REFUSED, error.message, f"{cls.__module__}:{cls.__qualname__}", error.template,
                         _plain(error.params))
    return ErrorInfo(kind or FAULT, str(error) or type(error).__name__)


def rebuilt_error(info: ErrorInfo) -> Exception:
    """The exception ``info`` describes: the same UserError subclass where it was one (else ``EngineFault``)."""
    if info.error_class:
        module, _, name = info.error_class.partition(":")
        try:
            cls = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            cls = None
        if isinstance(cls, type) and issubclass(cls, UserError):
            try:
                return cls.restore(info.template, info.params)
            except TypeError:  # a subclass with an __init__ of its own
                return UserError.restore(info.template, info.params)
    return EngineFault(info.message)


class EngineFault(Exception):
    """The engine failed on its own (an OpenVINO error that is not the user's): ``str`` is the English."""


def _plain(params: dict) -> dict:
    """Parameters that pickle on any side: a nested user error stays one (it pickles as its template)."""
    return {name: value if isinstance(value, (str, int, float, bool, type(None))) else str(value)
            for name, value in params.items()}
