"""RemoteEngine: the Engine's interface over an OpenAI-compatible server (OVMS's /v3, another EagleChat).

The worker loads and calls it exactly like the local :class:`Engine`, so chat, stop, the live chart and
the stats work the same. Each reply streams over SSE in an asyncio loop of its own on the worker thread;
stopping cancels the read, which closes the connection, and the server stops generating. Figures the
server does not report (OVMS has no accepted-token counts) stay None — "unknown", never zero; TTFT and
tokens/s are then measured here, on the client side.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from eagle_chat.core.generation.engine import ChunkCallback, EngineError, GenerationResult, GenerationSettings
from eagle_chat.core.generation.metrics import Chunk, GenerationStats
from eagle_chat.core.generation.reasoning import CLOSE_TAG as THINK_CLOSE
from eagle_chat.core.generation.reasoning import OPEN_TAG as THINK_OPEN

REMOTE = "REMOTE"  # the device kind the window stores for "Remote server"
STOP_POLL_S = 0.02


@dataclass(frozen=True)
class RemoteSpec:
    base_url: str  # ends with /v1 (EagleChat, LM Studio …) or /v3 (OpenVINO Model Server)
    model: str = ""  # "" = the first model the server lists
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 600.0
    device: str = REMOTE

    def with_changes(self, **_changes) -> "RemoteSpec":
        raise EngineError("A draft-free reference pipeline needs a local model; the remote server has none.")


@dataclass(frozen=True)
class RemotePlan:
    device: str = REMOTE
    draft_dir: str | None = None
    draft_device: str = REMOTE  # the server runs its draft (if any) where it runs the model


class RemoteEngine:
    def __init__(self, spec: RemoteSpec):
        self.spec = spec
        self.base = spec.base_url.rstrip("/")
        self.plan = RemotePlan()
        started = time.perf_counter()
        listing = self._models()
        names = [m["id"] for m in listing if isinstance(m, dict) and isinstance(m.get("id"), str)]
        if spec.model and names and spec.model not in names:
            raise EngineError("The server at {base} has no model '{model}'; it serves: {served}.",
                              base=self.base, model=spec.model, served=", ".join(names))
        if not spec.model and not names:
            raise EngineError("The server at {base} lists no models; enter the model name.", base=self.base)
        self.model = spec.model or names[0]
        entry = next((m for m in listing if m.get("id") == self.model), {})
        self.facts = entry.get("eagle_chat") if isinstance(entry.get("eagle_chat"), dict) else None
        self.load_time_ms = (time.perf_counter() - started) * 1000.0

    @property
    def has_draft(self) -> bool:
        """Known only from an EagleChat server; another server decides its decoding itself."""
        return bool(self.facts and self.facts.get("draft"))

    @property
    def supports_thinking(self) -> bool:
        return bool(self.facts and self.facts.get("supports_thinking"))

    def generate(self, prompt: str | Sequence[dict], settings: GenerationSettings = GenerationSettings(),
                 on_chunk: ChunkCallback | None = None, stop: threading.Event | None = None) -> GenerationResult:
        return asyncio.run(self._generate(prompt, settings, on_chunk, stop or threading.Event()))

    def prompt_text(self, prompt: str | Sequence[dict], thinking: bool | None = None) -> str:
        """The server applies its own chat template, which is not seen from here: the messages' text."""
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt
        return "\n".join(str(message.get("content") or "") for message in messages)

    def close(self) -> None:
        pass

    # --- internals -----------------------------------------------------------------------------------
    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.spec.api_key}"} if self.spec.api_key else {}

    def _models(self) -> list[dict]:
        try:
            response = httpx.get(f"{self.base}/models", headers=self._headers(), timeout=15.0)
        except httpx.HTTPError as error:
            raise EngineError("Could not reach the server at {base}: {error}. Check the URL and that it is running.",
                              base=self.base, error=error) from error
        if response.status_code == 404 and self.spec.model:
            return []  # a server without a model listing: take the name as given
        if response.status_code != 200:
            raise EngineError("The server at {base} answered {status}: {detail}",
                              base=self.base, status=response.status_code, detail=_error_text(response))
        data = response.json().get("data") if response.headers.get("content-type", "").startswith("application/json") else None
        return data if isinstance(data, list) else []

    def _body(self, prompt, settings: GenerationSettings) -> dict:
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else [dict(m) for m in prompt]
        body: dict[str, Any] = {"model": self.model, "messages": messages, "max_tokens": settings.max_new_tokens, "stream": True,
                "stream_options": {"include_usage": True}}
        if settings.do_sample:
            body.update(temperature=settings.temperature, top_p=settings.top_p)
        if self.facts is not None:  # an EagleChat server: K per request, token counts on every chunk
            body["num_assistant_tokens"] = settings.num_assistant_tokens if settings.speculative else 0
            body["stream_options"]["continuous_usage_stats"] = True
        if settings.thinking is not None:
            body["chat_template_kwargs"] = {"enable_thinking": bool(settings.thinking)}
        return body

    async def _generate(self, prompt, settings, on_chunk, stop: threading.Event) -> GenerationResult:
        reply = _Reply(on_chunk)
        reader = asyncio.ensure_future(self._read(self._body(prompt, settings), reply))
        while not reader.done():
            await asyncio.wait([reader], timeout=STOP_POLL_S)
            if stop.is_set() and not reader.done():
                reader.cancel()  # closes the connection: the server sees the disconnect and stops
        if not reader.cancelled():
            reader.result()  # raises EngineError
        return reply.result(stopped=stop.is_set() and not reply.done, settings=settings)

    async def _read(self, body: dict, reply: "_Reply") -> None:
        timeout = httpx.Timeout(self.spec.timeout_s, connect=15.0)
        try:
            async with httpx.AsyncClient(timeout=timeout) as client:
                reply.start()
                async with client.stream("POST", f"{self.base}/chat/completions", json=body,
                                         headers=self._headers()) as response:
                    if response.status_code != 200:
                        await response.aread()
                        raise EngineError("The server refused the request ({status}): {detail}",
                                          status=response.status_code, detail=_error_text(response))
                    async for line in response.aiter_lines():
                        if line.startswith("data:") and reply.event(line[5:].strip()):
                            return
        except httpx.HTTPError as error:
            raise EngineError("Generation failed: the connection to {base} broke ({error}).",
                              base=self.base, error=error) from error


class _Reply:
    """What one streamed reply brought: text (reasoning put back in <think> tags, as a local model writes
    it), token counts, the server's figures, and when each piece arrived."""

    def __init__(self, on_chunk: ChunkCallback | None):
        self.on_chunk = on_chunk
        self.parts: list[str] = []
        self.chunks: list[Chunk] = []
        self.tokens = 0
        self.usage: dict = {}
        self.figures: dict = {}
        self.done = False
        self._thinking = False
        self._t0 = 0.0

    def start(self) -> None:
        self._t0 = time.perf_counter()

    def event(self, data: str) -> bool:
        """One SSE data line; True at the end of the stream."""
        if data == "[DONE]":
            self.done = True
            return True
        try:
            payload = json.loads(data)
        except ValueError:
            return False
        if "error" in payload:
            error = payload["error"]
            raise EngineError("Generation failed on the server: {detail}",
                              detail=error.get("message", error) if isinstance(error, dict) else error)
        self.figures = payload.get("eagle_chat") or self.figures
        usage = payload.get("usage") or {}
        for choice in payload.get("choices") or []:
            delta = choice.get("delta") or {}
            text = self._text(delta.get("reasoning_content") or "", delta.get("content") or "")
            if text:
                counted = usage.get("completion_tokens")
                self.tokens = int(counted) if counted else self.tokens + 1
                self._add(text)
        if usage:
            self.usage = usage
        return False

    def _text(self, reasoning: str, content: str) -> str:
        text = ""
        if reasoning:
            text += ("" if self._thinking else THINK_OPEN + "\n") + reasoning
            self._thinking = True
        if content:
            text += ("\n" + THINK_CLOSE + "\n\n" if self._thinking else "") + content
            self._thinking = False
        return text

    def _add(self, text: str) -> None:
        chunk = Chunk(text, self.tokens, time.perf_counter() - self._t0)
        self.parts.append(text)
        self.chunks.append(chunk)
        if self.on_chunk is not None:
            self.on_chunk(chunk)

    def result(self, *, stopped: bool, settings: GenerationSettings) -> GenerationResult:
        if self._thinking:
            self._add("\n" + THINK_CLOSE)
        f, usage = self.figures, self.usage
        generated = int(usage.get("completion_tokens") or self.tokens)
        first, last = (self.chunks[0].t, self.chunks[-1].t) if self.chunks else (0.0, 0.0)
        measured_rate = (generated - 1) / (last - first) if generated > 1 and last > first else 0.0
        stats = GenerationStats(
            mode=f.get("mode") or "remote", method=f.get("method") or "",
            num_assistant_tokens=int(f.get("num_assistant_tokens") or 0),
            generated_tokens=generated,
            input_tokens=int(usage.get("prompt_tokens") or 0),
            cached_tokens=int((usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0),
            ttft_ms=first * 1000.0,  # as this client saw it, server queue and network included
            tpot_ms=f.get("tpot_ms") or ((last - first) * 1000.0 / (generated - 1) if generated > 1 else 0.0),
            tokens_per_s=f.get("tokens_per_s") or measured_rate,
            duration_ms=last * 1000.0,
            accepted_tokens=f.get("accepted_tokens"),  # None: the server does not say
            draft_tokens=f.get("draft_tokens"),
            acceptance=f.get("acceptance"),
            tokens_per_step=f.get("tokens_per_step"),
            stopped=stopped or bool(f.get("stopped")),
            device=REMOTE,
            tree=f.get("tree"),
        )
        return GenerationResult(text="".join(self.parts), stats=stats, chunks=self.chunks)


def _error_text(response: httpx.Response) -> str:
    try:
        error = response.json().get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
    except (ValueError, AttributeError):
        pass
    return response.text[:300] or response.reason_phrase
