"""Where the remote server's API key is kept: the OS keyring when there is one, else a 0600 file.

The keyring (Secret Service on Linux desktops, Keychain on macOS, the Credential Locker on Windows) keeps
the key out of the settings file. Where none is usable (a headless Linux without Secret Service, or tests)
the key goes to its own file written with mode 0600 beside the settings, never into settings.json, and
it is never logged: ``RemoteSpec``'s repr leaves it out.
"""

from __future__ import annotations

import json
from pathlib import Path

from eagle_chat.core.files import write_json_atomic

SERVICE = "EagleChat remote server"


class KeyStore:
    def __init__(self, fallback_file: Path, *, keyring_backend="auto"):
        """``keyring_backend``: "auto" (the OS keyring if usable), None (the file only), or a backend."""
        self.fallback_file = Path(fallback_file)
        self._keyring = _usable_keyring() if keyring_backend == "auto" else keyring_backend

    @property
    def where(self) -> str:
        """"keyring" or "file": where keys go."""
        return "keyring" if self._keyring is not None else "file"

    def get(self, url: str) -> str | None:
        if self._keyring is not None:
            try:
                return self._keyring.get_password(SERVICE, url)
            except Exception:  # noqa: BLE001 - a locked or broken keyring must not stop the app
                pass
        return self._file().get(url)

    def set(self, url: str, key: str | None) -> str:
        """Store (or with an empty key, forget) the key for ``url``; returns where it went."""
        if self._keyring is not None:
            try:
                if key:
                    self._keyring.set_password(SERVICE, url, key)
                else:
                    self._forget_in_keyring(url)
                self._write_file({k: v for k, v in self._file().items() if k != url})
                return "keyring"
            except Exception:  # noqa: BLE001 - fall back to the private file
                pass
        keys = self._file()
        if key:
            keys[url] = key
        else:
            keys.pop(url, None)
        self._write_file(keys)
        return "file"

    def _forget_in_keyring(self, url: str) -> None:
        import keyring.errors

        try:
            self._keyring.delete_password(SERVICE, url)
        except keyring.errors.PasswordDeleteError:
            pass

    def _file(self) -> dict[str, str]:
        try:
            data = json.loads(self.fallback_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def _write_file(self, keys: dict[str, str]) -> None:
        if keys or self.fallback_file.exists():
            write_json_atomic(self.fallback_file, keys, mode=0o600)


def _usable_keyring():
    """The keyring backend, or None when only keyring's fail / null stand-ins are there."""
    try:
        import keyring
        from keyring.backends import chainer, fail, null
    except Exception:  # noqa: BLE001
        return None
    backend = keyring.get_keyring()
    if isinstance(backend, (fail.Keyring, null.Keyring)) or getattr(backend, "priority", 0) <= 0:
        return None
    if isinstance(backend, chainer.ChainerBackend) and not backend.backends:
        return None
    return backend
