"""The OpenAI-compatible HTTP API, without Qt: protocol (requests, responses, SSE, errors), the server
that runs it in the caller's asyncio loop, and a client engine for remote servers (EagleChat, OVMS)."""
