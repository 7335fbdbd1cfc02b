"""Core's user errors as the window shows them: the template translated, the values filled in.

Core raises ``SomeError("The {role} folder {path} does not exist.", role=…, path=…)`` (see
:mod:`eagle_chat.core.errors`); ``str(error)`` is the English sentence. Here the template is looked up in the
``core`` context (tools/translations.py collects every template into ``core_messages.py`` for lupdate) and
filled with the same values. A value that is itself a user error (``"… failed: {detail}"``) is shown
translated too.
"""

from __future__ import annotations

from eagle_chat.core.errors import UserError
from eagle_chat.ui.words.i18n import translate

CONTEXT = "core"


def user_error_text(error: UserError | BaseException) -> str:
    """The sentence to show for ``error`` in the current language; the English one if the translation
    cannot be filled in (a placeholder the translator changed). Other exceptions show as ``str(error)``."""
    if not isinstance(error, UserError):
        return str(error)
    params = {name: user_error_text(value) if isinstance(value, UserError) else value
              for name, value in error.params.items()}
    try:
        return translate(CONTEXT, error.template).format(**params)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return error.message
