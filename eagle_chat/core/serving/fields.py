"""Checks on a request body's shape and on single fields, each refusal naming the field it is about.

The whole body is walked once, without recursion, before any field is read: JSON nested deeper than
:data:`MAX_DEPTH` and strings holding a lone UTF-16 surrogate (``"\\ud800"`` is valid JSON but not valid
text: it cannot be encoded as UTF-8, so it would fail later in the tokenizer or in the error message
itself) are refused there, with the path of the value (``messages[2].content``). The field helpers check
types before values, so a list where a string belongs, or an integer too large for a float, is a 400.
"""

from __future__ import annotations

import math

from eagle_chat.core.serving.errors import invalid

MAX_DEPTH = 32  # a chat body needs 5 (body → messages → [i] → content → [j]); tool schemas a few more


def check_tree(body: object) -> None:
    """Refuse a body nested deeper than MAX_DEPTH or holding a string that is not valid Unicode."""
    pending: list[tuple[object, str, int]] = [(body, "", 0)]
    while pending:
        value, path, depth = pending.pop()
        if isinstance(value, str):
            _check_text(value, path)
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth >= MAX_DEPTH:
            raise invalid(f"The request body nests objects and lists more than {MAX_DEPTH} levels deep "
                          f"(at {path}).", param=path or None, code="nested_too_deep")
        if isinstance(value, dict):
            for key, item in value.items():
                child = f"{path}.{printable(key)}" if path else printable(key)
                _check_text(key, child)
                pending.append((item, child, depth + 1))
        else:
            pending.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))


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


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_text(text: str, path: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = printable(text[error.start:error.end])
        raise invalid(f"{path or 'The request body'} holds {bad}, a lone UTF-16 surrogate, which is not valid "
                      "Unicode text; send well-formed text (a surrogate pair, or the character itself).",
                      param=path or None, code="invalid_text") from None
