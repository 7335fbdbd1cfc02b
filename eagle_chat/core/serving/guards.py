"""Who may call: the checks in front of every route, each answering a refusal itself in OpenAI's shape.

Two layers, because CORS sits between them (a preflight carries no API key, so the key is checked after
CORS has answered it):

- :class:`CallerGuard`, outermost: the ``Host`` header must name this server (a web page on a rebound DNS
  name cannot reach it), and a request that carries an ``Origin`` — every cross-site ``POST`` a browser
  makes, "simple" ones too: ``text/plain`` fetches, form posts, ``navigator.sendBeacon`` — is refused
  (403) unless that origin was allowed with ``--cors-origin``. Browsers send simple requests without a
  preflight, so CORS alone never stops them reaching the queue; this does, whatever their content type.
- :class:`AccessGuard`: the bearer key (``hmac.compare_digest``), then a ``POST`` body must be declared
  ``application/json`` (415 otherwise): no HTML form or beacon can send that type cross-site unasked.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable

from eagle_chat.core.serving.errors import ApiError, unauthorized

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
JSON_MEDIA_TYPE = "application/json"


def host_name(value: str) -> str:
    """The name in a Host header, without the port (``[::1]:8000`` → ``::1``)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def origin_key(value: str) -> str:
    """An origin as compared: lower-case, no trailing slash (``HTTP://Example.com/`` → ``http://example.com``)."""
    return value.strip().rstrip("/").lower()


def media_type(value: str) -> str:
    """The media type of a Content-Type header, without its parameters (``Application/JSON; charset=utf-8``
    → ``application/json``)."""
    return value.split(";", 1)[0].strip().lower()


def _headers(scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


class _Refusing:
    """An ASGI middleware that either passes a request on or answers it with an :class:`ApiError`."""

    def __init__(self, app, *, on_refused: Callable[[dict, ApiError], None]):
        self.app = app
        self.on_refused = on_refused

    def refusal(self, scope, headers: dict[str, str]) -> ApiError | None:
        raise NotImplementedError

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        error = self.refusal(scope, _headers(scope))
        if error is None:
            return await self.app(scope, receive, send)
        await send_error(send, error)
        self.on_refused(scope, error)


class CallerGuard(_Refusing):
    """The Host allowlist (DNS rebinding), then the Origin allowlist (cross-site requests)."""

    def __init__(self, app, *, allowed_hosts: tuple[str, ...], cors_origins: tuple[str, ...],
                 on_refused: Callable[[dict, ApiError], None]):
        super().__init__(app, on_refused=on_refused)
        self.any_host = "*" in allowed_hosts
        self.hosts = {h.lower() for h in (*LOOPBACK_NAMES, *allowed_hosts)}
        self.any_origin = "*" in cors_origins
        self.origins = {origin_key(o) for o in cors_origins}

    def refusal(self, scope, headers):
        if not self.any_host and host_name(headers.get("host", "")) not in self.hosts:
            return ApiError(400, "The Host header names a host this server does not answer to (DNS rebinding "
                            "guard); add it with --allowed-host if it is yours.", code="invalid_host")
        origin = headers.get("origin")
        if origin is not None and not self.any_origin and origin_key(origin) not in self.origins:
            return ApiError(403, f"Requests from web pages at {origin[:200]!r} are refused: a page may call this "
                            "API only if its origin was allowed with --cors-origin.", code="origin_not_allowed")
        return None


class AccessGuard(_Refusing):
    """The API key (except on /health), then JSON as the only body a POST may declare."""

    def __init__(self, app, *, api_key: str | None, on_refused: Callable[[dict, ApiError], None]):
        super().__init__(app, on_refused=on_refused)
        self.key = api_key.encode("utf-8") if api_key else None

    def refusal(self, scope, headers):
        if self.key is not None and scope["path"] != "/health":
            scheme, _, token = headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode("utf-8"), self.key):
                return unauthorized()
        if scope["method"] == "POST" and media_type(headers.get("content-type", "")) != JSON_MEDIA_TYPE:
            given = headers.get("content-type")
            said = f"this one was sent as {given[:100]!r}" if given else "this one declared no Content-Type"
            return ApiError(415, f"Send the request body as JSON with 'Content-Type: application/json'; {said}.",
                            code="unsupported_media_type")
        return None


async def send_error(send, error: ApiError) -> None:
    headers = [(b"content-type", b"application/json")]
    headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in error.headers.items()]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": error.json_bytes()})
