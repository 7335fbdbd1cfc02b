"""Slow clients are cut off: header, body and keep-alive timeouts, driven with raw sockets against `serve`
started with short ones. Each connection is held the way an attacker would (silent, or fed a byte at a time)
until the server closes it; the time it survived is checked against the timeout."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import pytest

from tests.helpers.polling import wait_until
from tests.serving.served import serve

pytestmark = pytest.mark.slow
HEADER_S, BODY_S, KEEP_ALIVE_S = 1.5, 1.5, 1.0
LATE_S = 3.0  # how late past its timeout a close may come on a loaded 2-core machine
GIVE_UP_S = 20.0  # a connection still open by then was never going to be closed
POST_HEAD = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 100000\r\n\r\n")


@pytest.fixture(scope="module")
def slow_served(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("timeouts"), "--header-timeout", str(HEADER_S), "--body-timeout", str(BODY_S),
               "--keep-alive-timeout", str(KEEP_ALIVE_S), api_key=None) as served:
        yield served


def address(served) -> tuple[str, int]:
    parts = urlsplit(served.url)
    return parts.hostname, parts.port


def hold(served, first: bytes, dribble: bytes = b"", every: float = 0.2) -> tuple[float, bytes]:
    """Open a connection, send ``first``, then ``dribble`` every ``every`` s until the server closes the
    connection; return how long it lived and what the server sent."""
    with socket.create_connection(address(served)) as sock:
        started = time.monotonic()
        sock.settimeout(every)
        if first:
            sock.sendall(first)
        received = b""
        while time.monotonic() - started < GIVE_UP_S:
            try:
                data = sock.recv(65536)
                if not data:
                    return time.monotonic() - started, received
                received += data
            except TimeoutError:
                pass
            if dribble:
                try:
                    sock.sendall(dribble)
                except OSError:
                    return time.monotonic() - started, received
    raise AssertionError(f"the connection was still open after {GIVE_UP_S} s; it got {received[:300]!r}")


def assert_cut_after(lived: float, timeout: float) -> None:
    # qasync's call_later is a coarse QTimer: it may fire up to 5 % early
    assert timeout * 0.94 <= lived <= timeout + LATE_S, f"lived {lived:.2f} s, timeout {timeout} s"


def test_a_silent_connection_is_closed_after_the_header_timeout(slow_served):
    lived, received = hold(slow_served, b"")
    assert_cut_after(lived, HEADER_S)
    assert received == b""  # it asked nothing, so it is answered nothing


def test_headers_fed_a_byte_at_a_time_get_408_at_the_header_timeout(slow_served):
    lived, received = hold(slow_served, b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X")
    assert_cut_after(lived, HEADER_S)
    assert received.startswith(b"HTTP/1.1 408 ") and b'"code": "request_timeout"' in received, received


def test_a_body_fed_a_byte_at_a_time_gets_408_and_one_log_line(slow_served):
    before = len(slow_served.records())
    lived, received = hold(slow_served, POST_HEAD + b"{", b" ")
    assert_cut_after(lived, BODY_S)
    assert received.startswith(b"HTTP/1.1 408 ") and b"body did not arrive" in received, received
    wait_until(lambda: len(slow_served.records()) > before)
    assert slow_served.records()[before:] == [slow_served.records()[before]]
    assert slow_served.records()[before].endswith("POST /v1/chat/completions 408 · body_timeout")
    assert "Traceback" not in slow_served.log()


def test_a_body_the_server_does_not_read_is_cut_off_too(slow_served):
    """A refusal (here a GET with a body) is answered at once; dribbling the rest of the body after it does not
    keep the connection."""
    lived, received = hold(slow_served, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n",
                           b" ")
    assert_cut_after(lived, BODY_S)
    assert received.startswith(b"HTTP/1.1 200 "), received


def test_an_idle_connection_is_closed_after_the_keep_alive_timeout_and_serves_until_then(slow_served):
    ask = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(address(slow_served)) as sock:
        sock.settimeout(GIVE_UP_S)
        for _ in range(2):  # two requests on one connection: keep-alive works
            sock.sendall(ask[:10])  # the headers in pieces, well within the header timeout
            sock.sendall(ask[10:])
            answer = b""
            while not answer.endswith(b"}"):  # the head and the JSON body may come in two writes
                data = sock.recv(65536)
                assert data, answer
                answer += data
            assert answer.startswith(b"HTTP/1.1 200 "), answer
        idle = time.monotonic()
        assert sock.recv(65536) == b""  # then the server closes it
        assert_cut_after(time.monotonic() - idle, KEEP_ALIVE_S)


def test_a_client_hanging_up_mid_body_is_one_log_line_not_a_traceback(slow_served):
    before = len(slow_served.records())
    with socket.create_connection(address(slow_served)) as sock:
        sock.sendall(POST_HEAD + b'{"model": "tiny-qwen3", "messa')  # and hang up
    wait_until(lambda: len(slow_served.records()) > before)
    assert slow_served.records()[before].endswith("POST /v1/chat/completions 499 · disconnected_mid_body")
    log = slow_served.log()
    assert "Traceback" not in log and "ClientDisconnect" not in log, log[-3000:]


@pytest.mark.parametrize("flag, value", [("--header-timeout", "0"), ("--body-timeout", "-1"),
                                         ("--keep-alive-timeout", "inf"), ("--grace", "nan")])
def test_a_timeout_that_is_no_number_of_seconds_is_refused_before_the_model_loads(tmp_path, flag, value):
    import subprocess
    import sys

    from tests.serving.served import ROOT

    result = subprocess.run([sys.executable, "-m", "eagle_chat", "serve", flag, value, "--home", str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=120,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 2, result.stderr
    assert f"{flag} must be a number of seconds" in result.stderr and "Loading" not in result.stderr
