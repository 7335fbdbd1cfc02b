"""Documents to index, written by the tests: a real PDF by hand (one text line per page), an encrypted PDF,
a DOCX through python-docx (pages split by explicit page breaks)."""

from __future__ import annotations

from pathlib import Path


def write_pdf(path: Path, pages: list[str], *, encrypted: bool = False) -> Path:
    """A minimal PDF 1.4: one Helvetica text line per page, a correct xref table. ``encrypted`` adds a
    standard security handler whose user password is not empty, as a password-protected PDF has."""
    def escape(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    n = len(pages)
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [" + " ".join(f"{4 + 2 * i} 0 R" for i in range(n)) + f"] /Count {n} >>",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for i, text in enumerate(pages):
        stream = f"BT /F1 10 Tf 20 700 Td ({escape(text)}) Tj ET"
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> "
                       f">> /Contents {5 + 2 * i} 0 R >>")
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
    if encrypted:
        objects.append("<< /Filter /Standard /V 1 /R 2 /O <" + "4f" * 32 + "> /U <" + "a5" * 32 + "> /P -44 >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    trailer = f"/Size {len(objects) + 1} /Root 1 0 R"
    if encrypted:
        trailer += f" /Encrypt {len(objects)} 0 R /ID [<{'11' * 16}> <{'11' * 16}>]"
    out += f"trailer\n<< {trailer} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def write_docx(path: Path, pages: list[list[str]]) -> Path:
    import docx
    from docx.enum.text import WD_BREAK

    document = docx.Document()
    for number, paragraphs in enumerate(pages):
        if number:
            document.paragraphs[-1].add_run().add_break(WD_BREAK.PAGE)
        for text in paragraphs:
            document.add_paragraph(text)
    document.save(str(path))
    return path
