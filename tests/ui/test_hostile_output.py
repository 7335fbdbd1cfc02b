"""Model text is untrusted Markdown: nothing is fetched, no HTML runs, links need a click and a yes."""

from __future__ import annotations

import http.server
import threading
import time

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QMessageBox

from eagle_chat.core.storage.conversation import Conversation, Message
from eagle_chat.ui.chat.chat_view import ChatView


class CountingHandler(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802
        CountingHandler.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def listener():
    CountingHandler.hits = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), CountingHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def view(qtbot):
    widget = ChatView()
    qtbot.addWidget(widget)
    widget.resize(800, 600)
    widget.show()
    return widget


def show(view, text: str) -> Message:
    message = Message("assistant", text, id=1)
    view.show_conversation(Conversation(messages=[message]))
    return message


def anchors(view) -> list[str]:
    found, block = [], view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isAnchor():
                found.extend(fmt.anchorHref() for _ in [0])
            it += 1
        block = block.next()
    return found


def test_remote_images_and_stylesheets_are_never_fetched(qtbot, view, listener):
    show(view, f"![tracker]({listener}/pixel.png)\n\n<img src=\"{listener}/raw.png\">\n\n"
               f"<link rel=stylesheet href=\"{listener}/x.css\">")
    qtbot.wait(300)
    assert CountingHandler.hits == []
    assert "image not loaded: tracker" in view.toPlainText()
    assert view.loadResource(2, QUrl(f"{listener}/direct.png")) is None
    qtbot.wait(100)
    assert CountingHandler.hits == []


def test_raw_html_and_scripts_are_shown_as_text(view):
    show(view, "<script>alert('x')</script>\n\n<b onclick=\"evil()\">bold?</b> <iframe src=x></iframe>")
    text = view.toPlainText()
    assert "<script>alert('x')</script>" in text
    assert '<b onclick="evil()">bold?</b>' in text
    assert "<iframe" in text


def test_unsafe_link_schemes_are_not_links(view, monkeypatch):
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    show(view, "[a](javascript:alert(1)) [b](file:///etc/passwd) [c](data:text/html,hi) [ok](https://example.org)")
    hrefs = anchors(view)
    assert "https://example.org" in hrefs
    assert not [h for h in hrefs if h.startswith(("javascript:", "file:", "data:"))]
    refused = []
    view.sig_link_refused.connect(refused.append)
    view.anchorClicked.emit(QUrl("file:///etc/passwd"))
    view.anchorClicked.emit(QUrl("javascript:alert(1)"))
    assert opened == [] and len(refused) == 2


def test_safe_links_open_only_after_the_user_confirms(view, monkeypatch):
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    answers = [QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Open]
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: (asked.append(a[2]), answers.pop(0))[1])
    show(view, "[docs](https://example.org/docs)")
    view.anchorClicked.emit(QUrl("https://example.org/docs"))
    assert opened == [] and "https://example.org/docs" in asked[0]
    view.anchorClicked.emit(QUrl("https://example.org/docs"))
    assert opened == ["https://example.org/docs"]


def test_copy_actions_copy_the_code_block_and_the_message(view):
    message = show(view, "Here:\n\n```python\nprint('hi')\n```\n\nand\n\n```\nsecond\n```\n")
    view.anchorClicked.emit(QUrl("copy-code:1:1"))
    assert QGuiApplication.clipboard().text() == "second\n"
    view.anchorClicked.emit(QUrl("copy-code:1:0"))
    assert QGuiApplication.clipboard().text() == "print('hi')\n"
    view.anchorClicked.emit(QUrl("copy-message:1"))
    assert QGuiApplication.clipboard().text() == message.content


def test_huge_tables_and_deep_nesting_render_quickly(view):
    table = "| " + " | ".join(f"c{i}" for i in range(20)) + " |\n|" + "---|" * 20 + "\n"
    table += "".join("| " + " | ".join(f"{r}.{c}" for c in range(20)) + " |\n" for r in range(1000))
    started = time.perf_counter()
    show(view, table)
    assert time.perf_counter() - started < 10
    assert "999.19" in view.toPlainText()
    nested = "".join("  " * i + "- level\n" for i in range(2000)) + "> " * 3000 + "deep quote\n"
    started = time.perf_counter()
    show(view, nested)
    assert time.perf_counter() - started < 10
    assert "deep quote" in view.toPlainText()
