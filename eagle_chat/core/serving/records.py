"""The request log: one record per API request, for the window's log and ``serve``'s console."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RequestRecord:
    number: int  # 1, 2, … per server start
    method: str  # "POST"
    endpoint: str  # "/v1/chat/completions"
    client: str  # "127.0.0.1:52344"
    stream: bool
    status: int  # HTTP status sent (200 once streaming began)
    outcome: str  # "stop", "length", "disconnected", "stopped", or the error code
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    tokens_per_s: float | None = None
    mode: str | None = None  # "speculative" / "baseline"
    accepted_tokens: int | None = None
    draft_tokens: int | None = None
    queue_ms: float | None = None
    total_ms: float | None = None
    grammar: str | None = None  # the grammar the reply was held to ("tool_call", "json_object", "json_schema")
    drafting_off_by_grammar: bool = False  # that grammar met a reduced-vocabulary draft: decoded without drafting

    def line(self) -> str:
        """A console line: ``#3 POST /v1/chat/completions 200 stream · 128 tokens · 812 tok/s · …``."""
        parts = [f"#{self.number} {self.client} {self.method} {self.endpoint} {self.status}"
                 + (" stream" if self.stream else ""), self.outcome]
        if self.completion_tokens is not None:
            parts.append(f"{self.prompt_tokens}+{self.completion_tokens} tokens")
        if self.tokens_per_s:
            parts.append(f"{self.tokens_per_s:.0f} tok/s")
        if self.mode == "speculative" and self.draft_tokens:
            parts.append(f"accepted {self.accepted_tokens}/{self.draft_tokens}")
        if self.grammar:
            parts.append(f"{self.grammar} grammar" + (": drafting off (reduced-vocabulary draft)"
                                                      if self.drafting_off_by_grammar else ""))
        if self.queue_ms is not None:
            parts.append(f"queued {self.queue_ms:.0f} ms")
        if self.total_ms is not None:
            parts.append(f"total {self.total_ms:.0f} ms")
        return " · ".join(parts)
