"""The listening socket: every connection it accepts sends small writes (SSE events) at once."""

from __future__ import annotations

import asyncio
import socket

from eagle_chat.core.generation.engine import GenerationSettings
from eagle_chat.core.serving.server import ApiServer, ServerConfig


class _NothingLoaded:
    """A backend with no model yet: /health answers 503, which is all this test needs to hold a connection."""

    def served_model(self):
        return None

    def default_settings(self):
        return GenerationSettings()

    def submit(self, job):
        raise AssertionError("no job is submitted here")

    def load(self):
        return {"running": False, "queued": 0}


def test_accepted_connections_have_nagle_off_so_the_first_token_is_not_held_40_ms():
    """Without TCP_NODELAY the first SSE event waits behind the client's delayed ACK of the headers (measured:
    +40 ms TTFT through the API, benchmarks/api_overhead.py)."""

    async def run() -> list[int]:
        server = ApiServer(ServerConfig(port=0), _NothingLoaded())
        url = await server.start()
        try:
            port = int(url.rsplit(":", 1)[1].split("/")[0])
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            await writer.drain()
            status = await reader.readline()
            assert status.startswith(b"HTTP/1.1 503"), status
            flags = [c.transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                     for c in server._server.server_state.connections]
            writer.close()
            await writer.wait_closed()
            return flags
        finally:
            await server.stop(grace_s=0)

    flags = asyncio.run(run())
    assert flags and all(flags), flags
