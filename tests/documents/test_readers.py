"""DOCX pages: a DOCX stores no layout, so a passage's page comes from where Word last laid the pages out
(``lastRenderedPageBreak``, written on every save), else from explicit breaks, else there is none — never
"page 1" for every passage of a long document."""

from __future__ import annotations

from eagle_chat.core.documents.readers import read_document
from tests.documents.files import write_docx


def _docx_saved_by_word(path, pages):
    """A DOCX as Word saves it: each page after the first starts with a ``w:lastRenderedPageBreak`` in its first
    run, and no explicit break anywhere (the pages broke because the text filled them)."""
    import docx
    from docx.oxml import OxmlElement

    document = docx.Document()
    for number, paragraphs in enumerate(pages):
        for index, text in enumerate(paragraphs):
            paragraph = document.add_paragraph()
            run = paragraph.add_run()
            if number and not index:
                run._r.append(OxmlElement("w:lastRenderedPageBreak"))
            run.add_text(text)
    document.save(str(path))
    return path


def test_pages_come_from_words_layout_then_explicit_breaks_and_none_without_either(tmp_path):
    laid_out = _docx_saved_by_word(tmp_path / "report.docx", [["Intro."], ["Method.", "More method."], ["End."]])
    assert [(s.page, s.text) for s in read_document(laid_out)] == [
        (1, "Intro."), (2, "Method.\nMore method."), (3, "End.")]
    explicit = write_docx(tmp_path / "minutes.docx", [["One."], ["Two."]])
    assert [(s.page, s.text) for s in read_document(explicit)] == [(1, "One."), (2, "Two.")]
    unknown = write_docx(tmp_path / "letter.docx", [["Dear reader,", "a long letter with no page breaks."]])
    assert [s.page for s in read_document(unknown)] == [None]


def test_a_paragraph_set_to_start_a_page_breaks_it(tmp_path):
    import docx

    document = docx.Document()
    document.add_paragraph("Cover.")
    document.add_paragraph("Chapter one.").paragraph_format.page_break_before = True
    document.add_paragraph("Still chapter one.")
    document.save(str(tmp_path / "book.docx"))
    assert [(s.page, s.text) for s in read_document(tmp_path / "book.docx")] == [
        (1, "Cover."), (2, "Chapter one.\nStill chapter one.")]
