"""Errors in OpenAI's shape: ``{"error": {"message", "type", "param", "code"}}`` with an HTTP status.

Clients (the official SDKs, IDE assistants) read ``error.message`` and show it, so every refusal says
what was wrong and what to send instead.
"""

from __future__ import annotations

import json


class ApiError(Exception):
    """A request the API refuses. ``status`` is the HTTP status; the rest goes into the error body."""

    def __init__(self, status: int, message: str, *, type: str = "invalid_request_error",
                 code: str | None = None, param: str | None = None, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.headers = headers or {}

    def body(self) -> dict:
        return error_body(self.message, type=self.type, code=self.code, param=self.param)

    def json_bytes(self) -> bytes:
        return json.dumps(self.body(), ensure_ascii=False).encode("utf-8")


def error_body(message: str, *, type: str = "invalid_request_error", code: str | None = None,
               param: str | None = None) -> dict:
    return {"error": {"message": message, "type": type, "param": param, "code": code}}


def invalid(message: str, *, param: str | None = None, code: str | None = None) -> ApiError:
    """400: the request itself is wrong."""
    return ApiError(400, message, param=param, code=code)


def unauthorized() -> ApiError:
    return ApiError(
        401, "Incorrect API key provided. Send it as the header 'Authorization: Bearer <key>'.",
        code="invalid_api_key", headers={"www-authenticate": "Bearer"},
    )


def queue_full(limit: int) -> ApiError:
    return ApiError(
        429, f"The server's queue is full ({limit} requests are waiting); retry in a moment.",
        type="rate_limit_error", code="queue_full", headers={"retry-after": "1"},
    )


RETRY_AFTER_S = 5  # what a 503 asks a client to wait before it retries (the SDKs honour Retry-After)


def shutting_down(message: str = "The server is shutting down and takes no new requests; retry later.") -> ApiError:
    return ApiError(503, message, type="server_error", code="shutting_down",
                    headers={"retry-after": str(RETRY_AFTER_S)})


def unavailable(message: str) -> ApiError:
    """503: the server cannot run the request now (it was stopped while it waited, no model); retry."""
    return ApiError(503, message, type="server_error", code="unavailable", headers={"retry-after": str(RETRY_AFTER_S)})


def not_ready(reason: str) -> ApiError:
    return ApiError(503, reason, type="server_error", code="model_not_ready")


def server_fault(message: str) -> ApiError:
    return ApiError(500, message, type="server_error", code="generation_failed")
