"""The one base of every error a user can cause: :class:`UserError`.

A user error carries its sentence as a *template* and its *parameters* separately, so the UI can look the
template up in a translation and fill it in (``str(error)`` is the English sentence). Callers catch
``UserError`` once instead of a tuple of per-module classes; each module keeps its own subclass so tests
and callers that care can still tell them apart.
"""

from __future__ import annotations

from typing import Any


class UserError(Exception):
    """Something the user can fix: a bad folder, a missing device, a download that cannot start.

    ``UserError("The folder {path} has no {name}.", path=p, name=n)`` — the template uses ``str.format``
    fields; ``params`` keeps the values. A plain sentence with no fields works too.
    """

    def __init__(self, template: str, /, **params: Any):
        self.template = template
        self.params = params
        super().__init__(self.message)

    @classmethod
    def from_error(cls, error: UserError) -> UserError:
        """The same sentence as another user error, as this class (``AcquireError.from_error(staging_error)``)."""
        return cls(error.template, **error.params)

    @classmethod
    def restore(cls, template: str, params: dict[str, Any]) -> UserError:
        """A user error rebuilt from the template and parameters another process sent (see
        ``core.acquisition.protocol``); the template was a literal where that process raised it."""
        return cls(template, **params)

    @property
    def message(self) -> str:
        """The English sentence: the template with its parameters filled in."""
        if not self.params:
            return self.template
        try:
            return self.template.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.template

    def __str__(self) -> str:
        return self.message
