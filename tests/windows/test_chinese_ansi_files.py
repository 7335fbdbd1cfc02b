"""Text files in GBK/GB18030 (Notepad's "ANSI" and Excel's CSV on Chinese Windows) are read, not refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from eagle_chat.core.documents.readers import DocumentError, decode_text

TEXT = "会议纪要：第三季度预算，共计 1,200 元。\r\n姓名,部门\r\n张三,研发部\r\n"


@pytest.mark.parametrize("encoding", ["gbk", "gb18030"])
def test_a_gbk_file_is_read_as_text(encoding):
    data = TEXT.encode(encoding)
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # the case UTF-8 alone refused as "binary"
    assert decode_text(Path("纪要.csv"), data) == TEXT


def test_binary_without_nul_bytes_is_still_refused():
    data = bytes(range(1, 256)) * 40  # no NUL, decodes in no text encoding as text
    with pytest.raises(DocumentError, match="binary file"):
        decode_text(Path("photo.txt"), data)
