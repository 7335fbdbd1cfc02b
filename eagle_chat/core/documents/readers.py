"""Reading a document into text, page by page: plain text, Markdown, source code, HTML, PDF and DOCX.

:func:`read_document` returns a list of :class:`Section` (a page's text and its 1-based page number, or
``None`` where the format has no pages) or raises :class:`DocumentError` with one clear sentence about that
file: too large, binary content under a text name, an encrypted or damaged PDF, a damaged DOCX. Nothing here
writes anything, so a file that fails leaves no trace in the index.

PDF goes through pypdfium2 (PDFium, the engine Chrome uses; BSD-3/Apache-2.0). DOCX is a zip of XML and is
read with the standard library (``zipfile`` + ``xml.etree``: expat refuses entity expansion bombs), pages
counted from explicit page breaks, since a DOCX stores no layout.
"""

from __future__ import annotations

import html.parser
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from eagle_chat.core.errors import UserError

MAX_FILE_BYTES = 200 * 1024 * 1024
TEXT_SUFFIXES = frozenset(
    ".txt .md .markdown .rst .text .log .csv .tsv .json .jsonl .yaml .yml .toml .ini .cfg .conf .xml .tex "
    ".py .pyi .c .h .cc .cpp .hpp .cxx .cs .java .kt .kts .go .rs .js .jsx .ts .tsx .mjs .cjs .rb .php .pl .lua "
    ".swift .m .mm .scala .sh .bash .zsh .ps1 .bat .cmd .sql .r .jl .dart .vue .svelte .css .scss .less "
    ".cmake .gradle .proto .graphql .el .clj .hs .ml .ex .exs .erl .zig .nim .v .sv .vhd".split())
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | HTML_SUFFIXES | {".pdf", ".docx"}
_TEXT_NAMES = frozenset({"readme", "license", "makefile", "dockerfile", "changelog", "notice", "authors"})


class DocumentError(UserError):
    """A file that cannot be indexed, with the reason in one sentence."""


@dataclass(frozen=True)
class Section:
    text: str
    page: int | None = None


def is_supported(path: Path) -> bool:
    return path.suffix.lower() in SUPPORTED_SUFFIXES or path.name.lower() in _TEXT_NAMES


def read_document(path: Path, *, max_bytes: int = MAX_FILE_BYTES) -> list[Section]:
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DocumentError("{path} no longer exists.", path=str(path)) from None
    except OSError as error:
        raise DocumentError("{path} cannot be read: {reason}", path=str(path),
                            reason=error.strerror or str(error)) from None
    if size > max_bytes:
        raise DocumentError("{path} is too large to index ({size_mb} MB; the limit is {limit_mb} MB).",
                            path=str(path), size_mb=round(size / 1e6), limit_mb=round(max_bytes / 1e6))
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return _read_pdf(path)
    if suffix == ".docx":
        return _read_docx(path)
    data = _read_bytes(path)
    text = decode_text(path, data)
    if suffix in HTML_SUFFIXES:
        text = html_to_text(text)
    return [Section(text)]


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise DocumentError("{path} cannot be read: {reason}", path=str(path),
                            reason=error.strerror or str(error)) from None


# Tried in order after UTF-8 for text without a BOM: GB18030 (a superset of GBK and GB2312) is what Notepad's
# "ANSI" and Excel's CSV write on Chinese Windows.
LEGACY_ENCODINGS = ("gb18030",)
# Of the characters a legacy decode produced, more than this share of control characters means binary.
MAX_CONTROL_SHARE = 0.01


def decode_text(path: Path, data: bytes) -> str:
    """UTF-8 (with or without BOM), UTF-16 with a BOM, or GB18030/GBK; anything with NUL bytes, or that no
    encoding reads as text, is refused as binary rather than indexed as noise (a ``.txt`` that is really an
    image or an archive)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    elif b"\x00" not in data[:65536]:
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
        for encoding in LEGACY_ENCODINGS:
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                continue
            controls = sum(1 for c in text if c < " " and c not in "\t\n\r\f")
            if controls <= MAX_CONTROL_SHARE * len(text):
                return text
    raise DocumentError("{path} does not contain text (it looks like a binary file with a text file's name).",
                        path=str(path))


class _HtmlText(html.parser.HTMLParser):
    _SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head"})
    _BLOCK = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "section",
                        "article", "blockquote", "table", "ul", "ol", "dd", "dt", "hr", "title"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self._SKIP:
            self._skipping = max(0, self._skipping - 1)
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._skipping:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    parser = _HtmlText()
    parser.feed(markup)
    parser.close()
    lines = (" ".join(line.split()) for line in "".join(parser.parts).splitlines())
    return "\n".join(line for line in lines if line)


def _read_pdf(path: Path) -> list[Section]:
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(str(path))
    except pypdfium2.PdfiumError as error:
        reason = str(error).lower()
        if "password" in reason:
            raise DocumentError("{path} is an encrypted PDF (it needs a password); EagleChat cannot read it.",
                                path=str(path)) from None
        raise DocumentError("{path} is not a readable PDF (damaged or not a PDF at all).",
                            path=str(path)) from None
    try:
        sections = []
        for number in range(len(document)):
            page = document[number]
            try:
                textpage = page.get_textpage()
                try:
                    text = textpage.get_text_range()
                finally:
                    textpage.close()
            finally:
                page.close()
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            if text.strip():
                sections.append(Section(text, number + 1))
        return sections
    except pypdfium2.PdfiumError:
        raise DocumentError("{path} is not a readable PDF (damaged or not a PDF at all).",
                            path=str(path)) from None
    finally:
        document.close()


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _read_docx(path: Path) -> list[Section]:
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("word/document.xml")
            if info.file_size > MAX_FILE_BYTES:
                raise DocumentError("{path} is too large to index ({size_mb} MB; the limit is {limit_mb} MB).",
                                    path=str(path), size_mb=round(info.file_size / 1e6),
                                    limit_mb=round(MAX_FILE_BYTES / 1e6))
            root = ElementTree.fromstring(archive.read(info))
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, EOFError, OSError):
        raise DocumentError("{path} is not a readable DOCX (damaged, encrypted or not a Word document).",
                            path=str(path)) from None
    body = root.find(f"{_W}body")
    paragraphs = list(body.iter(f"{_W}p")) if body is not None else []
    # Where the pages break: where Word last laid them out (``lastRenderedPageBreak``, which it writes on save),
    # else the explicit breaks (a page break, a paragraph set to start a page). A file with neither says nothing
    # about its pages, so its passages carry none (it used to call everything "page 1").
    rendered = any(node.tag == f"{_W}lastRenderedPageBreak" for p in paragraphs for node in p.iter())
    pages: list[list[str]] = [[]]
    breaks = 0
    for paragraph in paragraphs:
        words: list[str] = []
        for node in paragraph.iter():
            if node.tag == f"{_W}t" and node.text:
                words.append(node.text)
            elif node.tag == f"{_W}tab":
                words.append("\t")
            elif _breaks_page(node, rendered):  # an empty page still counts (it is filtered out below)
                pages[-1].append("".join(words))
                words = []
                pages.append([])
                breaks += 1
        pages[-1].append("".join(words))
    return [Section("\n".join(lines).strip(), number if breaks else None) for number, lines in enumerate(pages, 1)
            if "".join(lines).strip()]


def _breaks_page(node, rendered: bool) -> bool:
    if rendered:
        return node.tag == f"{_W}lastRenderedPageBreak"
    return ((node.tag == f"{_W}br" and node.get(f"{_W}type") == "page")
            or (node.tag == f"{_W}pageBreakBefore" and node.get(f"{_W}val", "true") not in ("false", "0")))
