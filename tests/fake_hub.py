"""A small model hub on 127.0.0.1 that the real huggingface_hub and ModelScope clients can download from.

It serves local folders in the two hubs' layouts — only the routes those clients call for a snapshot
download, worked out from their sources:

Hugging Face (``HF_ENDPOINT=http://127.0.0.1:PORT``)
  ``GET  /api/models/{repo}/revision/{rev}?blobs=True``  repo info: commit ``sha`` and ``siblings`` with
                                                         ``size``, ``blobId`` and ``lfs.sha256``
  ``HEAD /{repo}/resolve/{rev}/{file}``                  ``ETag``, ``X-Repo-Commit``, ``Content-Length``
  ``GET  /{repo}/resolve/{rev}/{file}``                  the bytes, honouring ``Range``
ModelScope (``endpoint=http://127.0.0.1:PORT``)
  ``GET  /api/v1/models/{repo}/repo/files?Revision=&Recursive=``  ``Data.Files`` with ``Size``/``Sha256``
  ``GET  /api/v1/models/{repo}/repo?Revision=&FilePath=``         the bytes, honouring ``Range``

Faults for tests, settable while the server runs: ``throttle_bps`` (slow transfers, so a cancel lands
mid-file), ``drop_after[file] = n`` (close the connection after n bytes of the next transfer of that file,
once), ``corrupt[file] = offset`` (flip one byte of what is served; the listed hashes stay the real ones).
Every request is logged in ``requests`` with its ``Range`` header.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

LFS_SUFFIXES = (".bin", ".safetensors", ".pt", ".onnx")
CHUNK = 16 * 1024


@dataclass(frozen=True)
class RepoFile:
    path: str
    size: int
    sha256: str
    git_sha1: str
    lfs: bool


@dataclass
class Repo:
    repo_id: str
    folder: Path
    files: dict[str, RepoFile]
    commit: str


@dataclass
class LoggedRequest:
    method: str
    path: str
    range: str | None


@dataclass
class FakeHub:
    repos: dict[str, Repo] = field(default_factory=dict)
    throttle_bps: int | None = None
    drop_after: dict[str, int] = field(default_factory=dict)
    corrupt: dict[str, int] = field(default_factory=dict)
    requests: list[LoggedRequest] = field(default_factory=list)
    bytes_served: dict[str, int] = field(default_factory=dict)
    bodies_sending: int = 0  # file bodies being written now: 0 once the server noticed a cancelled client
    body_connections: int = 0  # open connections that carried a file body: 0 once every downloader has gone
    body_ends: list[tuple[str, int, bool]] = field(default_factory=list)  # (file, size, sent whole) per body
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add_repo(self, repo_id: str, folder: Path, exclude: tuple[str, ...] = ()) -> Repo:
        """Serve ``folder`` as ``repo_id`` (also while the hub runs); files named in ``exclude`` are left out."""
        files = {}
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder).as_posix()
            if rel in exclude:
                continue
            if path.is_file() and not any(part.startswith(".") for part in rel.split("/")):
                data = path.read_bytes()
                files[rel] = RepoFile(
                    path=rel,
                    size=len(data),
                    sha256=hashlib.sha256(data).hexdigest(),
                    git_sha1=hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest(),
                    lfs=rel.endswith(LFS_SUFFIXES),
                )
        commit = hashlib.sha1(
            "".join(f"{f.path}:{f.sha256}" for f in files.values()).encode()
        ).hexdigest()
        repo = Repo(repo_id, folder, files, commit)
        self.repos[repo_id] = repo
        return repo

    @property
    def url(self) -> str:
        assert self._server is not None, "start() the hub first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "FakeHub":
        hub = self

        class Handler(_Handler):
            pass

        Handler.hub = hub
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-hub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "FakeHub":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def ranges_for(self, file: str) -> list[str | None]:
        """The Range headers of every GET that transferred ``file`` (None: the whole file)."""
        with self._lock:
            return [r.range for r in self.requests if r.method == "GET" and _file_of(r.path) == file]

    def log(self, method: str, path: str, range_header: str | None) -> None:
        with self._lock:
            self.requests.append(LoggedRequest(method, path, range_header))

    def sending(self, change: int) -> None:
        with self._lock:
            self.bodies_sending += change

    def body_connection(self, change: int) -> None:
        with self._lock:
            self.body_connections += change

    def body_ended(self, file: str, size: int, whole: bool) -> None:
        with self._lock:
            self.body_ends.append((file, size, whole))

    def count_bytes(self, file: str, n: int) -> None:
        with self._lock:
            self.bytes_served[file] = self.bytes_served.get(file, 0) + n


def _file_of(request_path: str) -> str | None:
    """The repository file a request transfers, in either layout."""
    url = urlsplit(request_path)
    if m := re.fullmatch(r"/[^/]+/[^/]+/resolve/[^/]+/(.+)", unquote(url.path)):
        return m.group(1)
    return parse_qs(url.query).get("FilePath", [None])[0]


class _Handler(BaseHTTPRequestHandler):
    hub: FakeHub
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - keep test output quiet
        pass

    def finish(self):
        try:
            super().finish()
        finally:
            if getattr(self, "_carried_body", False):
                self.hub.body_connection(-1)

    def do_HEAD(self):
        self._route(head=True)

    def do_GET(self):
        self._route(head=False)

    # -- routing -----------------------------------------------------------------------------------

    def _route(self, head: bool) -> None:
        self.hub.log(self.command, self.path, self.headers.get("Range"))
        url = urlsplit(self.path)
        path, query = unquote(url.path), parse_qs(url.query)
        if m := re.fullmatch(r"/api/models/([^/]+/[^/]+)(?:/revision/([^/]+))?", path):
            return self._hf_info(m.group(1))
        if m := re.fullmatch(r"/([^/]+/[^/]+)/resolve/([^/]+)/(.+)", path):
            return self._send_file(m.group(1), m.group(3), head, hf=True)
        if m := re.fullmatch(r"/api/v1/models/([^/]+/[^/]+)/repo/files", path):
            return self._ms_files(m.group(1))
        if m := re.fullmatch(r"/api/v1/models/([^/]+/[^/]+)/repo", path):
            return self._send_file(m.group(1), query.get("FilePath", [""])[0], head, hf=False)
        if m := re.fullmatch(r"/api/v1/models/([^/]+/[^/]+)", path):
            return self._ms_info(m.group(1))
        self._send_json({"error": "Not found"}, status=404)

    def _repo(self, repo_id: str, hf: bool) -> Repo | None:
        repo = self.hub.repos.get(repo_id)
        if repo is None:
            if hf:
                self._send_json({"error": "Repository not found"}, status=404,
                                headers={"X-Error-Code": "RepoNotFound"})
            else:
                self._send_json({"Code": 10010205001, "Message": "model not found", "Success": False},
                                status=404)
        return repo

    def _hf_info(self, repo_id: str) -> None:
        repo = self._repo(repo_id, hf=True)
        if repo is None:
            return
        siblings = []
        for f in repo.files.values():
            sibling = {"rfilename": f.path, "size": f.size,
                       "blobId": hashlib.sha1(f.sha256.encode()).hexdigest() if f.lfs else f.git_sha1}
            if f.lfs:
                sibling["lfs"] = {"size": f.size, "sha256": f.sha256, "pointerSize": 134}
            siblings.append(sibling)
        self._send_json({"id": repo_id, "modelId": repo_id, "sha": repo.commit, "private": False,
                         "gated": False, "disabled": False, "siblings": siblings, "tags": []})

    def _ms_info(self, repo_id: str) -> None:
        repo = self._repo(repo_id, hf=False)
        if repo is not None:
            owner, name = repo_id.split("/")
            self._send_json({"Code": 200, "Success": True,
                             "Data": {"Name": name, "Path": owner, "ChineseName": name}})

    def _ms_files(self, repo_id: str) -> None:
        repo = self._repo(repo_id, hf=False)
        if repo is None:
            return
        files = [{"Name": f.path.rsplit("/", 1)[-1], "Path": f.path, "Type": "blob", "Size": f.size,
                  "Sha256": f.sha256, "IsLFS": f.lfs, "Revision": repo.commit} for f in repo.files.values()]
        self._send_json({"Code": 200, "Success": True, "Data": {"Files": files}})

    # -- responses ---------------------------------------------------------------------------------

    def _send_json(self, payload: dict, status: int = 200, headers: dict | None = None) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _send_file(self, repo_id: str, file: str, head: bool, hf: bool) -> None:
        repo = self._repo(repo_id, hf)
        if repo is None:
            return
        entry = repo.files.get(file)
        if entry is None:
            headers = {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": repo.commit} if hf else {}
            return self._send_json({"error": "Entry not found"}, status=404, headers=headers)
        data = bytearray((repo.folder / file).read_bytes())
        if file in self.hub.corrupt:
            data[self.hub.corrupt[file]] ^= 0xFF
        start, end = 0, len(data) - 1
        range_header = self.headers.get("Range")
        status = 200
        if range_header and not head:
            m = re.fullmatch(r"bytes=(\d+)-(\d*)", range_header.strip())
            if m:
                start = int(m.group(1))
                end = int(m.group(2)) if m.group(2) else len(data) - 1
                if start >= len(data):
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{len(data)}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                status = 206
        body = bytes(data[start:end + 1])
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        if hf:
            self.send_header("X-Repo-Commit", repo.commit)
            self.send_header("ETag", f'"{entry.sha256 if entry.lfs else entry.git_sha1}"')
        self.end_headers()
        if head:
            return
        drop = self.hub.drop_after.pop(file, None)
        self._write_body(file, body, drop)

    def _write_body(self, file: str, body: bytes, drop: int | None) -> None:
        sent = 0
        started = time.monotonic()
        if not getattr(self, "_carried_body", False):
            self._carried_body = True
            self.hub.body_connection(+1)
        self.hub.sending(+1)
        try:
            while sent < len(body):
                size = min(CHUNK, len(body) - sent)
                if drop is not None:
                    size = min(size, drop - sent)
                    if size <= 0:
                        self._abort()
                        return
                self.wfile.write(body[sent:sent + size])
                self.wfile.flush()
                sent += size
                self.hub.count_bytes(file, size)
                if self.hub.throttle_bps:
                    ahead = sent / self.hub.throttle_bps - (time.monotonic() - started)
                    if ahead > 0:
                        time.sleep(ahead)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            self.hub.body_ended(file, len(body), sent == len(body))
            self.hub.sending(-1)

    def _abort(self) -> None:
        """Cut the connection mid-body, as a dropped network link would."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


# -- pytest fixtures (registered for all tests by tests/conftest.py) ----------------------------------------

TINY_TARGET_REPO = "test/tiny-qwen3"
TINY_HEAD_REPO = "test/tiny-qwen3-eagle3"
TINY_IR_DRAFT_REPO = "test/tiny-qwen3-eagle3-ov"  # the draft already exported: OpenVINO IR, no tokenizer
OPENVINO_TOKENIZER_FILES = ("openvino_tokenizer.xml", "openvino_tokenizer.bin", "openvino_detokenizer.xml",
                            "openvino_detokenizer.bin")


def tiny_models_root() -> Path:
    from eagle_chat import paths

    return paths.tiny_models_dir()


@pytest.fixture
def hub_env(tmp_path, monkeypatch):
    """Keep both hub clients' caches, credentials and module caches inside the test's folder."""
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.setenv("MODELSCOPE_HOME", str(tmp_path / "modelscope-home"))
    monkeypatch.setenv("MODELSCOPE_CACHE", str(tmp_path / "modelscope-cache"))
    for name in ("HF_ENDPOINT", "MODELSCOPE_ENDPOINT", "HF_TOKEN", "MODELSCOPE_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def fake_hub(hub_env):
    """A running hub on 127.0.0.1 serving the tiny target IR and the tiny Hugging Face-format EAGLE-3 head."""
    root = tiny_models_root()
    hub = FakeHub()
    hub.add_repo(TINY_TARGET_REPO, root / "tiny-qwen3")
    hub.add_repo(TINY_HEAD_REPO, root / "hf" / "tiny-qwen3-eagle3")
    with hub:
        yield hub


@pytest.fixture
def tiny_catalog(fake_hub, eagle_home):
    """A user catalog entry ``tiny`` for the hub's repos (both sources), exported as fp16 (hidden size 64
    is too small for the int4 group size of real heads). Returns the merged catalog."""
    from eagle_chat import paths
    from eagle_chat.core.models.catalog import load_catalog

    target = fake_hub.repos[TINY_TARGET_REPO]
    head = fake_hub.repos[TINY_HEAD_REPO]
    entry = {
        "name": "tiny",
        "title": "Tiny Qwen3 (test)",
        "description": "The tiny test pair, served by the fake hub.",
        "target": {"hf": TINY_TARGET_REPO, "modelscope": TINY_TARGET_REPO,
                   "bytes": sum(f.size for f in target.files.values())},
        "draft": {"hf": TINY_HEAD_REPO, "modelscope": TINY_HEAD_REPO,
                  "bytes": sum(f.size for f in head.files.values())},
        "start_k": {"CPU": 3},
        "export": {"default": {"weight_format": "fp16"}},
    }
    paths.user_catalog_file().write_text(json.dumps({"version": 1, "pairs": [entry]}), encoding="utf-8")
    return load_catalog()


@pytest.fixture
def tiny_ir_catalog(tiny_catalog, fake_hub):
    """Adds a user catalog entry ``tiny-ir`` whose draft repository holds OpenVINO IR (``"format":
    "openvino"``): the tiny IR draft without its OpenVINO tokenizer, as pre-exported drafts are often
    published. The hub also serves the ``tiny`` entry's repos. Returns the merged catalog."""
    from eagle_chat import paths
    from eagle_chat.core.models.catalog import load_catalog

    draft = fake_hub.add_repo(TINY_IR_DRAFT_REPO, tiny_models_root() / "tiny-qwen3-eagle3",
                              exclude=OPENVINO_TOKENIZER_FILES)
    target = fake_hub.repos[TINY_TARGET_REPO]
    data = json.loads(paths.user_catalog_file().read_text(encoding="utf-8"))
    data["pairs"].append({
        "name": "tiny-ir",
        "title": "Tiny Qwen3, pre-exported draft (test)",
        "description": "The tiny test pair; its draft repository already holds OpenVINO IR.",
        "target": {"hf": TINY_TARGET_REPO, "modelscope": TINY_TARGET_REPO,
                   "bytes": sum(f.size for f in target.files.values())},
        "draft": {"hf": TINY_IR_DRAFT_REPO, "modelscope": TINY_IR_DRAFT_REPO, "format": "openvino",
                  "bytes": sum(f.size for f in draft.files.values())},
        "start_k": {"CPU": 3},
        "evidence": "served by tests/fake_hub.py from tests/models",
    })
    paths.user_catalog_file().write_text(json.dumps(data), encoding="utf-8")
    return load_catalog()
