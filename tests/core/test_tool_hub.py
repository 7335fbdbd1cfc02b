"""ToolHub against real MCP servers written with the SDK (tests/mcp_servers): stdio and Streamable HTTP,
the good path and every fault a hostile or broken server can cause. Errors reach the model as results."""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from eagle_chat.core.tools.config import ServerConfig, ToolConfigError, load_servers, parse_servers
from eagle_chat.core.tools.hub import ToolHub

SERVERS = Path(__file__).resolve().parents[1] / "mcp_servers"
TOOLS_SERVER = str(SERVERS / "tools_server.py")
MALFORMED_SERVER = str(SERVERS / "malformed_server.py")
SECRET = "sk-very-secret-4242"


def stdio(name="t", **extra) -> ServerConfig:
    return ServerConfig(name=name, command=sys.executable, args=(TOOLS_SERVER,), **extra)


@pytest.fixture
def hub_of():
    hubs = []

    def make(*servers, **options):
        hub = ToolHub(list(servers), **options)
        hubs.append(hub)
        hub.start()
        assert hub.wait_started(60)
        return hub

    yield make
    for hub in hubs:
        hub.close()


def children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def test_stdio_server_lists_and_calls_and_is_ended_on_close(hub_of):
    before = children()
    hub = hub_of(stdio())
    (state,) = hub.states()
    assert state.status == "ready", state.error
    names = {t["name"] for t in state.tools}
    assert {"add", "weather", "crash", "hang", "huge"} <= names
    result = hub.call("t", "add", {"a": 2, "b": 40}).result(30)
    assert (result.text, result.is_error) == ("42", False)
    assert children() - before, "the stdio server should be a child process"
    hub.close()
    deadline = time.monotonic() + 10
    while children() - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not children() - before, "close() must end the stdio server"
    assert hub.states()[0].status == "closed"


def test_arguments_that_do_not_match_the_schema_are_a_tool_error_for_the_model(hub_of):
    hub = hub_of(stdio())
    result = hub.call("t", "add", {"a": "two"}).result(30)
    assert result.is_error and result.text.startswith("Invalid arguments:")
    assert hub.call("t", "add", ["not", "an", "object"]).result(30).is_error
    assert hub.call("t", "nope", {}).result(30).is_error
    assert hub.call("t", "add", {"a": 1, "b": 1}).result(30).text == "2", "the server is still usable"


def test_a_tool_that_raises_is_an_error_result(hub_of):
    result = hub_of(stdio()).call("t", "fail", {}).result(30)
    assert result.is_error


def test_a_server_that_fails_to_start_is_failed_and_its_calls_are_errors(hub_of):
    hub = hub_of(stdio(env={"FAIL_AT_START": "1"}),
                 ServerConfig(name="missing", command="/nonexistent/mcp-server-binary"), start_timeout=20)
    states = {s.config.name: s for s in hub.states()}
    assert states["t"].status == "failed" and states["missing"].status == "failed"
    assert states["missing"].error
    assert hub.call("t", "add", {"a": 1, "b": 2}).result(10).is_error


def test_a_server_that_crashes_mid_call_gives_an_error_result(hub_of):
    hub = hub_of(stdio())
    result = hub.call("t", "crash", {}).result(30)
    assert result.is_error
    assert hub.call("t", "add", {"a": 1, "b": 2}).result(30).is_error, "a dead server answers with errors"


def test_a_hung_tool_times_out_and_close_does_not_wait_for_it(hub_of):
    hub = hub_of(stdio(), call_timeout=1.5)
    started = time.monotonic()
    result = hub.call("t", "hang", {}).result(30)
    assert result.is_error and "did not answer within" in result.text
    assert time.monotonic() - started < 10
    pending = hub.call("t", "hang", {})
    time.sleep(0.3)
    started = time.monotonic()
    hub.close()
    assert time.monotonic() - started < 8
    assert pending.result(5).is_error


def test_megabytes_of_output_are_truncated_with_a_note(hub_of):
    hub = hub_of(stdio(), max_result_chars=5000)
    result = hub.call("t", "huge", {"megabytes": 3}).result(60)
    assert not result.is_error
    assert result.truncated_from == 3 * 1024 * 1024
    assert len(result.text) < 5200 and "Truncated by EagleChat" in result.text


def test_malformed_content_is_an_error_result_not_a_crash(hub_of):
    hub = hub_of(ServerConfig(name="bad", command=sys.executable, args=(MALFORMED_SERVER,)))
    assert hub.states()[0].status == "ready", hub.states()[0].error
    result = hub.call("bad", "broken", {}).result(30)
    assert result.is_error and "failed" in result.text


def test_secrets_in_env_reach_the_server_but_never_the_log(hub_of, caplog):
    caplog.set_level(logging.DEBUG)
    hub = hub_of(stdio(env={"ECHO_ENV": "API_KEY", "API_KEY": SECRET}))
    assert hub.call("t", "secret_len", {}).result(30).text == str(len(SECRET))
    hub.close()
    assert "MCP server t" in caplog.text
    assert SECRET not in caplog.text
    assert SECRET not in repr(hub.states()[0].config) and SECRET not in str(hub.states()[0].as_dict())


@pytest.fixture
def http_server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, TOOLS_SERVER, "http", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/mcp"
    process.kill()
    process.wait(10)


def test_streamable_http_server_lists_calls_sends_headers_and_survives_faults(hub_of, http_server, caplog):
    caplog.set_level(logging.DEBUG)
    hub = hub_of(ServerConfig(name="web", url=http_server, headers={"Authorization": f"Bearer {SECRET}"}),
                 call_timeout=1.5, max_result_chars=1000)
    (state,) = hub.states()
    assert state.status == "ready", state.error
    assert hub.call("web", "weather", {"city": "Oslo"}).result(30).text.startswith("Weather in Oslo")
    assert hub.call("web", "hang", {}).result(30).is_error
    big = hub.call("web", "huge", {"megabytes": 2}).result(60)
    assert big.truncated_from == 2 * 1024 * 1024, big.text[:300]
    assert hub.call("web", "add", {"a": 1}).result(30).is_error
    assert SECRET not in caplog.text


def test_config_reads_the_mcpservers_format(tmp_path):
    path = tmp_path / "mcp.json"
    assert load_servers(path) == []
    path.write_text('{"mcpServers": {"a": {"command": "npx", "args": ["-y", "x"], "env": {"K": "v"},'
                    ' "autoApprove": ["read"]}, "b": {"url": "https://h/mcp", "headers": {"H": "v"},'
                    ' "disabled": true}}}')
    a, b = load_servers(path)
    assert (a.transport, a.args, a.env, a.auto_approve) == ("stdio", ("-y", "x"), {"K": "v"}, {"read"})
    assert (b.transport, b.disabled, b.headers) == ("http", True, {"H": "v"})
    for bad in ('{"mcpServers": {"x": {}}}', '{"mcpServers": {"x": {"url": "ftp://h"}}}',
                '{"mcpServers": {"x": {"command": "c", "args": "not a list"}}}', '{"mcpServers": []}'):
        with pytest.raises(ToolConfigError):
            parse_servers(__import__("json").loads(bad))
    path.write_text("{nope")
    with pytest.raises(ToolConfigError):
        load_servers(path)


def test_disabled_servers_are_not_started(hub_of):
    before = children()
    hub = hub_of(stdio(disabled=True))
    assert hub.states()[0].status == "disabled"
    assert not children() - before
    assert hub.call("t", "add", {"a": 1, "b": 2}).result(10).is_error
