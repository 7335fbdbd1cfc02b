"""Model text is untrusted Markdown: nothing is fetched, no HTML runs, links need a click and a yes."""

from __future__ import annotations

import http.server
import threading
import time

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QImage, QTextDocument
from PySide6.QtWidgets import QMessageBox, QTextBrowser

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
    # The event: everything is drawn and the view has painted it — a document's images and style sheets are
    # asked for (loadResource) as it is laid out and painted, on this thread.
    qtbot.waitUntil(lambda: not view.loading(), timeout=10_000)
    view.viewport().grab()
    assert CountingHandler.hits == []
    assert "image not loaded: tracker" in view.toPlainText()


def test_the_view_loads_no_resource_that_a_plain_browser_would(view, tmp_path):
    """QTextBrowser reads local files a document points at (``file:`` images): a reply could show (and
    a copy could carry) a file from the user's disk. The plain browser proves the probe sees a load."""
    secret = tmp_path / "secret.png"
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(0)
    assert image.save(str(secret))
    url = QUrl.fromLocalFile(str(secret))
    kind = int(QTextDocument.ResourceType.ImageResource.value)
    plain = QTextBrowser()
    assert plain.loadResource(kind, url) is not None
    assert view.loadResource(kind, url) is None
    show(view, f"![mine]({url.toString()})\n\n<img src=\"{url.toString()}\">")
    assert "<img" not in view.document().toHtml() and "secret.png" in view.toPlainText()


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


def timed_show(view, text: str) -> float:
    started = time.perf_counter()
    show(view, text)
    QGuiApplication.processEvents()
    return time.perf_counter() - started


def test_huge_tables_and_deep_nesting_render_about_as_fast_as_prose(view):
    """Compared with prose of the same size in the same view (so a loaded machine slows both alike): a
    1,000-row table used to take ~10 s to lay out, 40x its prose, freezing the window."""
    def prose(size: int) -> str:
        return ("word " * (size // 5 + 1))[:size]

    def table(rows: int, columns: int) -> str:
        head = "| " + " | ".join(f"c{i}" for i in range(columns)) + " |\n|" + "---|" * columns + "\n"
        return head + "".join("| " + " | ".join(f"{r}.{c}" for c in range(columns)) + " |\n" for r in range(rows))

    for hostile, last in ((table(1000, 20), "999.19"), (table(500, 6), "499.5")):
        elapsed, reference = timed_show(view, hostile), timed_show(view, prose(len(hostile)))
        show(view, hostile)
        assert last in view.toPlainText()
        assert elapsed < 4 * reference + 0.5, (len(hostile), elapsed, reference)
    nested = "".join("  " * i + "- level\n" for i in range(2000)) + "> " * 3000 + "deep quote\n"
    elapsed, reference = timed_show(view, nested), timed_show(view, prose(len(nested)))
    show(view, nested)
    assert "deep quote" in view.toPlainText()
    assert elapsed < 2 * reference + 0.5, (elapsed, reference)


def test_tables_of_a_sensible_size_stay_tables(view):
    show(view, "| a | b |\n|---|---|\n" + "".join(f"| {i} | x |\n" for i in range(50)))
    assert view.document().toHtml().count("<table") >= 1 and "| 49 | x |" not in view.toPlainText()
