"""A small Chinese library for the natural-question tests: the fact on the second page of a DOCX, a
distractor that shares most of its words (the keeper's dog), a file that asks questions, and filler."""

from __future__ import annotations

from pathlib import Path

from tests.documents.files import write_docx

ZH_FACT = "岛上的记录写道：灯塔看守人的船名叫海燕九号，每逢周四出海。"
ZH_QUESTION = "灯塔看守人的船叫什么名字？"


def zh_filler(topic: str, n: int = 40) -> str:
    return "".join(f"{topic}第{i}条：委员会审查了季度日程和预算，港口的渡轮照常运行。" for i in range(n))


def chinese_library(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "笔记.txt").write_text(zh_filler("花园"), encoding="utf-8")
    (folder / "狗.md").write_text("# 岛上的狗\n\n岛上的记录写道：灯塔看守人的狗名叫阿黄，每逢周四看家。\n\n" + zh_filler("狗", 10),
                                  encoding="utf-8")
    (folder / "问答.md").write_text("# 常见问题\n\n你叫什么名字？我们的船什么时候出发？\n\n" + zh_filler("问答", 10),
                                  encoding="utf-8")
    write_docx(folder / "记录.docx", [[zh_filler("会议", 8)], [ZH_FACT], [zh_filler("天气", 8)]])
    return folder
