"""How long a client may take: to send its request's headers, its body, and to come back on an idle connection.

uvicorn's h11 protocol has only the keep-alive timeout, armed once a response is complete; a connection that
sends nothing, or dribbles its headers or its body a byte at a time (slowloris), holds its socket and its
task forever. :func:`timed_protocol` adds the two missing clocks to that protocol:

- **header**: from the connection's first moment (or the first byte of its next request) the request line and
  every header must have arrived within ``header_s``. Fed a byte at a time, the clock does not restart.
- **body**: once the headers are in, the whole body must have arrived within ``body_s``.

A client past either gets ``408`` in OpenAI's error shape (if it had begun a request and no answer has
started) and the connection is closed; the request the app was reading sees a disconnect, marked in its
scope's ``state`` under :data:`TIMED_OUT` so the request log says why. Nothing runs while a reply is being
generated or streamed: a request whose body is in is the engine's, however long it takes.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

TIMED_OUT = "eagle_chat.timed_out"  # scope["state"] key: which clock ("body") cut the request off


@dataclass(frozen=True)
class Timeouts:
    header_s: float = 10.0  # request line and headers, from the first byte (or the connection's start)
    body_s: float = 30.0  # the whole body, from the end of the headers (4 MiB at ≥ 140 kB/s)
    keep_alive_s: float = 5.0  # an idle connection between requests (uvicorn's timeout_keep_alive)


LINGER_S = 1.0  # how long a timed-out connection's late bytes are read and dropped before it is closed


def timed_protocol(timeouts: Timeouts) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the header and body clocks of ``timeouts`` (pass as ``Config(http=…)``)."""
    return type("TimedH11Protocol", (_TimedH11Protocol,), {"timeouts": timeouts})


def _timeout_response(what: str, seconds: float) -> bytes:
    body = json.dumps({"error": {
        "message": f"The request's {what} did not arrive within {seconds:g} s; the connection is closed.",
        "type": "invalid_request_error", "param": None, "code": "request_timeout"}}).encode("utf-8")
    head = (f"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n")
    return head.encode("latin-1") + body


class _TimedH11Protocol(H11Protocol):
    timeouts: Timeouts

    def connection_made(self, transport) -> None:
        self._clock: tuple[str, asyncio.TimerHandle] | None = None  # the clock running now, if any
        self._lingering = False
        super().connection_made(transport)
        self._arm("headers", self.timeouts.header_s)  # a silent connection is cut off too

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return  # past its timeout: read and dropped, so closing does not reset the connection (see _expired)
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    # --- the clocks ------------------------------------------------------------------------------------
    def _follow(self) -> None:
        """Run the clock the client's side of the exchange is in: headers, body, or none."""
        state = self.conn.their_state
        if state is h11.IDLE:
            if self.conn.trailing_data[0]:  # part of the next request is in: its headers are due
                self._arm("headers", self.timeouts.header_s)
            elif self._phase() == "headers" and self.cycle is not None:
                self._disarm()  # between requests: uvicorn's keep-alive timeout closes an idle connection
        elif state is h11.SEND_BODY:
            self._arm("body", self.timeouts.body_s)
        else:
            self._disarm()

    def _phase(self) -> str | None:
        return self._clock[0] if self._clock else None

    def _arm(self, phase: str, seconds: float) -> None:
        if self._phase() == phase:
            return  # the clock runs from the phase's start: more bytes do not buy more time
        self._disarm()
        self._clock = (phase, self.loop.call_later(seconds, self._expired, phase, seconds))

    def _disarm(self) -> None:
        if self._clock is not None:
            self._clock[1].cancel()
            self._clock = None

    def _expired(self, phase: str, seconds: float) -> None:
        self._clock = None
        if self.transport.is_closing():
            return
        cycle = self.cycle if self.conn.their_state is h11.SEND_BODY else None
        begun = cycle is not None or bool(self.conn.trailing_data[0])
        if cycle is not None:
            cycle.scope["state"][TIMED_OUT] = phase
        if begun and (cycle is None or not cycle.response_started):
            if cycle is not None:
                cycle.disconnected = True  # the app's answer, if it writes one now, goes nowhere
            self.transport.write(_timeout_response(phase, seconds))
        if self.transport.can_write_eof():
            # A lingering close: send the 408 and our FIN, then read and drop what the client still sends for a
            # moment. Closing a socket with unread bytes in it sends a reset instead, which can reach the client
            # before the 408 does, so it never sees why.
            self._lingering = True
            self.transport.write_eof()
            self.loop.call_later(LINGER_S, self.transport.close)
        else:
            self.transport.close()
