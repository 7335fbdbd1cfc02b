"""Who may call: a web page from a foreign origin cannot make the model generate, whatever it sends; only
JSON bodies are taken; the DNS-rebinding guard stays. The browser part runs a real headless Chromium
(Debian's package; tools/run-tests.sh installs it) against `eagle-chat serve` without an API key — the
default set-up on a laptop, and the one a hostile page would aim at."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from tests.helpers.polling import wait_until
from tests.serving.served import serve

pytestmark = pytest.mark.slow
MODEL = "tiny-qwen3"
BODY = {"model": MODEL, "messages": [{"role": "user", "content": "Write a Python function that reverses a string."}],
        "max_tokens": 4}
BROWSER_TIMEOUT_S = 120
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# A hostile page: the three requests a browser sends cross-site without asking the server first (no CORS
# preflight), one after the other, each with the body a client would send. It cannot read the answers (no
# CORS headers come back), so it reports only what the browser let it do; the server's log says the rest.
ATTACK_PAGE = """<!doctype html><html><body><iframe name="sink"></iframe><script>
const api = "API/v1";
const body = JSON.stringify(BODY);
const report = results => fetch("/report", {method: "POST", body: JSON.stringify(results)});
window.addEventListener("load", async () => {
  const results = {};
  try {
    const r = await fetch(api + "/chat/completions", {method: "POST", mode: "no-cors",
                                                      headers: {"Content-Type": "text/plain"}, body});
    results.fetch = "answered (" + r.type + ")";
  } catch (e) { results.fetch = "failed: " + e; }
  await new Promise(resolve => {
    const frame = document.querySelector("iframe");
    frame.onload = resolve;
    const form = document.createElement("form");
    form.method = "POST"; form.action = api + "/completions"; form.target = "sink"; form.enctype = "text/plain";
    const field = document.createElement("input");
    field.name = '{"model": "MODEL", "prompt": "hi", "max_tokens": 4, "stop": ["'; field.value = '"]}';
    form.appendChild(field); document.body.appendChild(form); form.submit();
  });
  results.form = "answered";
  results.beacon = navigator.sendBeacon(api + "/chat/completions", body) ? "queued by the browser" : "refused";
  await report(results);
});
</script></body></html>"""

# The control: a page from an origin allowed with --cors-origin really reaches the model, so the refusals
# above are the guard's doing, not a browser that never sent anything.
ALLOWED_PAGE = """<!doctype html><html><body><script>
const api = "API/v1/chat/completions";
const body = JSON.stringify(BODY);
(async () => {
  const results = {};
  try {
    const r = await fetch(api, {method: "POST", headers: {"Content-Type": "application/json"}, body});
    const reply = await r.json();
    results.json = [r.status, reply.choices ? reply.choices[0].finish_reason : reply.error.code];
  } catch (e) { results.json = ["failed", String(e)]; }
  try {
    const r = await fetch(api, {method: "POST", headers: {"Content-Type": "text/plain"}, body});
    results.plain = [r.status, (await r.json()).error.code];
  } catch (e) { results.plain = ["failed", String(e)]; }
  await fetch("/report", {method: "POST", body: JSON.stringify(results)});
})();
</script></body></html>"""


class _PageSite:
    """A page served from its own origin (127.0.0.1 on another port), and the report its script posts back."""

    def __init__(self):
        self.page = ""
        self.reports: list[dict] = []
        self.reported = threading.Event()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                data = site.page.encode("utf-8")
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                length = int(self.headers.get("content-length", "0"))
                site.reports.append(json.loads(self.rfile.read(length)))
                self.send_response(204)
                self.end_headers()
                site.reported.set()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("Chromium is needed for the browser test: `apt-get install chromium` (tools/run-tests.sh "
                    "installs it when it runs as root).")
    return path


def visit(site: _PageSite, page: str, api: str, profile: Path) -> dict:
    """Open ``page`` (from ``site``'s origin) in headless Chromium and return what its script reported."""
    site.page = (page.replace("API", api).replace("BODY", json.dumps(BODY)).replace("MODEL", MODEL))
    site.reported.clear()
    profile.mkdir()
    with open(profile.parent / f"{profile.name}.log", "w") as log:
        browser = subprocess.Popen([chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", site.origin + "/"],
                                   stdout=log, stderr=log)
    try:
        assert site.reported.wait(BROWSER_TIMEOUT_S), (profile.parent / f"{profile.name}.log").read_text()[-3000:]
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=30)
        except subprocess.TimeoutExpired:
            browser.kill()
            browser.wait()
    return site.reports[-1]


@contextmanager
def sites():
    foreign, allowed = _PageSite(), _PageSite()
    try:
        yield foreign, allowed
    finally:
        foreign.close()
        allowed.close()


def test_a_foreign_page_cannot_reach_the_queue_and_an_allowed_one_can(tmp_path):
    with sites() as (foreign, allowed), serve(tmp_path / "home", "--cors-origin", allowed.origin,
                                             api_key=None) as served:
        api = served.url.removesuffix("/v1")
        attempts = visit(foreign, ATTACK_PAGE, api, tmp_path / "foreign")
        assert attempts["beacon"] == "queued by the browser", attempts  # the browser did send all three
        records = wait_until(lambda: len(served.records()) >= 3 and served.records())
        # fetch (text/plain), form post (text/plain), beacon (text/plain), in that order: each refused
        # before its body was read, for its Origin; the engine never saw one
        assert [r.split(" · ")[0].split(" ", 2)[2] for r in records] == [
            "POST /v1/chat/completions 403", "POST /v1/completions 403", "POST /v1/chat/completions 403"], records
        assert all(r.endswith("origin_not_allowed") for r in records), records
        health = httpx.get(api + "/health", timeout=30).json()
        assert health == {"status": "ok", "running": False, "queued": 0}, health

        control = visit(allowed, ALLOWED_PAGE, api, tmp_path / "allowed")
        assert control == {"json": [200, "length"], "plain": [415, "unsupported_media_type"]}, control
        lines = wait_until(lambda: len(served.records()) >= 5 and served.records())
        assert " 200 · length · " in lines[3] and "4 tokens" in lines[3], lines  # this one was generated
        assert "/v1/chat/completions 415 · unsupported_media_type" in lines[4], lines


@pytest.fixture(scope="module")
def keyless(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("keyless"), "--cors-origin", "http://localhost:5173", api_key=None) as served:
        yield served


@pytest.mark.parametrize("case", ["text_plain", "form", "json_from_a_foreign_page", "origin_null", "get_models",
                                  "no_content_type"])
def test_what_is_refused_before_the_queue(keyless, case):
    post = keyless.url + "/chat/completions"
    evil = {"Origin": "https://evil.example"}
    if case == "text_plain":
        response = httpx.post(post, content=json.dumps(BODY), headers={**evil, "Content-Type": "text/plain"})
        status, code = 403, "origin_not_allowed"
    elif case == "form":
        response = httpx.post(post, data={"model": MODEL}, headers=evil)
        status, code = 403, "origin_not_allowed"
    elif case == "json_from_a_foreign_page":  # a browser would preflight this; a page's script still cannot
        response = httpx.post(post, json=BODY, headers=evil)
        status, code = 403, "origin_not_allowed"
    elif case == "origin_null":  # sandboxed frames and file:// pages
        response = httpx.post(post, json=BODY, headers={"Origin": "null"})
        status, code = 403, "origin_not_allowed"
    elif case == "get_models":
        response = httpx.get(keyless.url + "/models", headers=evil)
        status, code = 403, "origin_not_allowed"
    else:  # no Origin (not a browser), but no JSON either
        response = httpx.post(post, content=json.dumps(BODY).encode())
        status, code = 415, "unsupported_media_type"
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["code"] == code, error
    assert "--cors-origin" in error["message"] if status == 403 else "application/json" in error["message"]


def test_an_allowed_origin_gets_cors_answers_and_json_with_a_charset_is_json(keyless):
    post = keyless.url + "/chat/completions"
    page = {"Origin": "http://localhost:5173"}
    preflight = httpx.options(post, headers={**page, "Access-Control-Request-Method": "POST",
                                             "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == page["Origin"]
    reply = httpx.post(post, content=json.dumps(BODY), timeout=60,
                       headers={**page, "Content-Type": "Application/JSON; charset=utf-8"})
    assert reply.status_code == 200, reply.text
    assert reply.headers["access-control-allow-origin"] == page["Origin"]
    assert reply.json()["usage"]["completion_tokens"] == 4


def test_the_dns_rebinding_guard_still_holds_for_a_page_on_a_rebound_name(keyless):
    response = httpx.post(keyless.url + "/chat/completions", json=BODY,
                          headers={"Host": "attacker.example:8000", "Origin": "http://attacker.example:8000"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_host"
