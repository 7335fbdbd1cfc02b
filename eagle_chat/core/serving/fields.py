"""Checks on a request body's shape and on single fields, each refusal naming the field it is about.

The whole body is walked once, without recursion, before any field is read: JSON nested deeper than
:data:`MAX_DEPTH` and strings holding a lone UTF-16 surrogate (``"\\ud800"`` is valid JSON but not valid
text: it cannot be encoded as UTF-8, so it would fail later in the tokenizer or in the error message
itself) are refused there, with the path of the value (``messages[2].content``). The field helpers check
types before values, so a list where a string belongs, or an integer too large for a float, is a 400.
"""

from __future__ import annotations

import math
from typing import TypeGuard

from eagle_chat.core.serving.errors import invalid

MAX_DEPTH = 32  # a chat body needs 5 (body → messages → [i] → content → [j]); tool schemas a few more


def check_tree(body: object) -> None:
    """Refuse a body nested deeper than MAX_DEPTH or holding a string that is not valid Unicode.

    One pass, in time close to ``json.loads``'s own on a 4 MB body: scalars and ASCII strings are checked
    in place, only containers are queued, and a value's path is spelled out only when it is refused."""
    if isinstance(body, str):
        _check_text(body, None)
    if not isinstance(body, (dict, list)):
        return
    pending: list[tuple[dict | list, int, tuple | None]] = [(body, 0, None)]
    while pending:
        value, depth, where = pending.pop()
        if depth >= MAX_DEPTH:
            path = _path(where)
            raise invalid(f"The request body nests objects and lists more than {MAX_DEPTH} levels deep "
                          f"(at {path}).", param=path or None, code="nested_too_deep")
        for key, item in value.items() if type(value) is dict else enumerate(value):
            if type(key) is str and not key.isascii():  # a dict's key (a list's are ints)
                _check_text(key, (where, key))
            kind = type(item)
            if kind is str:
                if not item.isascii():
                    _check_text(item, (where, key))
            elif kind is dict or kind is list:
                pending.append((item, depth + 1, (where, key)))


def printable(text: str) -> str:
    """``text`` as it can always be shown and encoded: lone surrogates as ``\\udXXX`` escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def text_field(value: object, name: str, *, default: str | None = None, nullable: bool = True) -> str | None:
    if value is None and nullable:
        return default
    if not isinstance(value, str):
        raise invalid(f"'{name}' must be a string.", param=name)
    return value


def bool_field(data: dict, name: str, default, *, where: str = ""):
    value = data.get(name, default)
    if value is not None and not isinstance(value, bool):
        raise invalid(f"'{where}{name}' must be true or false.", param=where + name)
    return default if value is None else value


def number_field(data: dict, name: str, low: float, high: float) -> float | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(f"'{name}' must be a number.", param=name)
    # Compared as it is: an integer too large for a float (10**400) is simply out of range.
    if isinstance(value, float) and not math.isfinite(value) or not low <= value <= high:
        raise invalid(f"'{name}' must be a number from {low:g} to {high:g}.", param=name)
    return float(value)


def is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_text(text: str, where: tuple | None) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        bad, path = printable(text[error.start:error.end]), _path(where)
        raise invalid(f"{path or 'The request body'} holds {bad}, a lone UTF-16 surrogate, which is not valid "
                      "Unicode text; send well-formed text (a surrogate pair, or the character itself).",
                      param=path or None, code="invalid_text") from None


def _path(where: tuple | None) -> str:
    """``(((None, "messages"), 0), "content")`` → ``messages[0].content``."""
    keys = []
    while where is not None:
        where, key = where
        keys.append(key)
    parts = [f"[{key}]" if isinstance(key, int) else f".{printable(key)}" for key in reversed(keys)]
    return "".join(parts).removeprefix(".")
