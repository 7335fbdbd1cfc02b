"""Retrieval quality with planted facts: do natural questions, in English and in Chinese, find the passage
that answers them? Top-1 and top-5 (the passage holding the fact's answer among the first 1 / 5 hits).

The corpus is generated: 10 people or places per language, 3 facts about each (a boat's name, a count, where
a key is kept), each fact inside a file of its own format (text, Markdown, Python source with the fact in a
docstring, PDF — English only, the hand-written PDF has a Latin-1 font — and DOCX), with filler paragraphs
around it so it lands in a chunk of its own, plus distractors that share the question's words (the same
person's dog, a FAQ that asks the same questions, minutes that mention boats and keys). The 60 questions are
worded as a user would ask, not with the document's words.

Modes: keyword-only (BM25, what a new user gets: no embedder pulled), the bundled tiny embedder + keyword
(random weights), the same with its vectors always voting (the fusion before this change, to see what the
"vectors vote only when they separate" rule buys), and every embedder pulled with ``eagle-chat models pull``.

    python benchmarks/retrieval_quality.py [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from _common import ROOT, private_home  # noqa: F401 - sys.path

from tests.documents.files import write_docx, write_pdf

EN_SUBJECTS = [
    ("the lighthouse keeper on Skellig Mhor", "Skellig Mhor lighthouse keeper"),
    ("the harbour master of Port Ellen", "Port Ellen harbour master"),
    ("the librarian of Castle Rock", "Castle Rock librarian"),
    ("the ferryman at Loch Brannan", "Loch Brannan ferryman"),
    ("the shepherd of Glen Tarsin", "Glen Tarsin shepherd"),
    ("the baker in Kilmory village", "Kilmory village baker"),
    ("the warden of Fidra island", "Fidra island warden"),
    ("the postmistress of Balmaha", "Balmaha postmistress"),
    ("the blacksmith at Dun Carron", "Dun Carron blacksmith"),
    ("the schoolteacher on Inchmurrin", "Inchmurrin schoolteacher"),
]
EN_BOATS = ["Storm Petrel", "Grey Heron", "Silver Dawn", "Morning Star", "Sea Thistle", "Kittiwake Nine",
            "Blue Lantern", "Northern Rose", "Iron Gannet", "Quiet Tern"]
EN_KEYS = ["under a blue stone by the gate", "inside the red kettle", "behind the tide clock",
           "in a tin of buttons", "beneath the third stair", "inside an old boot", "under the doormat of the shed",
           "in the drawer of the map table", "behind a loose brick", "inside the church organ"]
EN_COUNT = ["seventeen", "twenty-three", "nine", "forty-one", "thirty", "twelve", "eleven", "fifty-two",
            "eighteen", "sixty"]
ZH_SUBJECTS = ["斯凯岛的灯塔看守人", "埃伦港的港务长", "石堡的图书管理员", "布兰湖的摆渡人", "塔森谷的牧羊人",
               "基尔莫里村的面包师", "菲德拉岛的守护员", "巴尔马哈的女邮政局长", "卡伦堡的铁匠", "因奇穆林岛的老师"]
ZH_BOATS = ["海燕九号", "灰鹭号", "银色黎明", "晨星号", "海蓟号", "三趾鸥号", "蓝灯笼号", "北方玫瑰", "铁鲣鸟号", "静燕号"]
ZH_KEYS = ["门边的一块蓝色石头下面", "红色水壶里面", "潮汐钟的后面", "一盒纽扣里", "第三级台阶下面", "一只旧靴子里",
           "棚屋的门垫下面", "地图桌的抽屉里", "一块松动的砖头后面", "教堂风琴里面"]
ZH_COUNT = ["十七", "二十三", "九", "四十一", "三十", "十二", "十一", "五十二", "十八", "六十"]


def en_filler(topic: str, n: int) -> str:
    return " ".join(f"The {topic} committee met on day {i}, reviewed the quarterly schedule, the budget for "
                    "paint and rope, and agreed to meet again after the spring tides." for i in range(n))


def zh_filler(topic: str, n: int) -> str:
    return "".join(f"{topic}委员会第{i}天开会，审查了季度日程、油漆和绳索的预算，并约定在春潮之后再次开会。" for i in range(n))


def facts() -> list[dict]:
    """Every planted fact: its language, subject index, sentence, answer, and the question asked."""
    out = []
    for i, (subject, short) in enumerate(EN_SUBJECTS):
        cap = subject[0].upper() + subject[1:]
        out += [
            {"lang": "en", "subject": i, "answer": EN_BOATS[i],
             "fact": f"{cap} named his boat the {EN_BOATS[i]}; it is moored below the cliffs.",
             "question": f"What is the boat of {subject} called?"},
            {"lang": "en", "subject": i, "answer": EN_COUNT[i] + " puffins",
             "fact": f"Every Tuesday {subject} feeds exactly {EN_COUNT[i]} puffins with sprats.",
             "question": f"How many puffins does the {short} feed each week?"},
            {"lang": "en", "subject": i, "answer": EN_KEYS[i],
             "fact": f"{cap} keeps the spare key to the radio room {EN_KEYS[i]}.",
             "question": f"Where does the {short} hide the radio room key?"},
        ]
    for i, subject in enumerate(ZH_SUBJECTS):
        out += [
            {"lang": "zh", "subject": i, "answer": ZH_BOATS[i], "fact": f"{subject}的船名叫{ZH_BOATS[i]}，停在悬崖下面。",
             "question": f"{subject}的船叫什么名字？"},
            {"lang": "zh", "subject": i, "answer": ZH_COUNT[i] + "只海鹦",
             "fact": f"{subject}每逢周二用小鱼喂{ZH_COUNT[i]}只海鹦。", "question": f"{subject}每周喂多少只海鹦？"},
            {"lang": "zh", "subject": i, "answer": ZH_KEYS[i], "fact": f"{subject}把无线电室的备用钥匙藏在{ZH_KEYS[i]}。",
             "question": f"{subject}把无线电室的钥匙放在哪里？"},
        ]
    return out


def write_corpus(folder: Path) -> None:
    """One file per subject and language (its format cycling), the three facts far apart in it, plus
    distractors and filler files."""
    folder.mkdir(parents=True, exist_ok=True)
    all_facts = facts()
    for lang in ("en", "zh"):
        filler = en_filler if lang == "en" else zh_filler
        formats = ["txt", "md", "py", "pdf", "docx"] if lang == "en" else ["txt", "md", "py", "docx"]
        for i in range(10):
            mine = [f["fact"] for f in all_facts if f["lang"] == lang and f["subject"] == i]
            dog = (f"{EN_SUBJECTS[i][0][0].upper() + EN_SUBJECTS[i][0][1:]} has a dog called Amber, who sleeps "
                   "by the stove." if lang == "en" else f"{ZH_SUBJECTS[i]}的狗名叫阿黄，睡在炉子旁边。")
            sections = [filler("harbour", 6), mine[0], filler("garden", 6), dog, filler("weather", 6), mine[1],
                        filler("library", 6), mine[2], filler("council", 6)]
            kind = formats[i % len(formats)]
            name = folder / f"{lang}-{i:02}.{kind}"
            if kind == "pdf":
                write_pdf(name, sections)
            elif kind == "docx":
                write_docx(name, [[s] for s in sections])
            elif kind == "py":
                name.write_text("".join(f'def part_{n}():\n    """{s}"""\n    return {n}\n\n\n'
                                        for n, s in enumerate(sections)), encoding="utf-8")
            elif kind == "md":
                name.write_text("\n\n".join(f"## Part {n}\n\n{s}" for n, s in enumerate(sections)), encoding="utf-8")
            else:
                name.write_text("\n\n".join(sections), encoding="utf-8")
    (folder / "faq.md").write_text(
        "# Questions visitors ask\n\nWhat is the boat called? How many puffins are fed each week? Where is the "
        "radio room key hidden? Who keeps the lighthouse? Ask the harbour master or the warden.\n\n"
        "# 游客常问的问题\n\n船叫什么名字？每周喂多少只海鹦？无线电室的钥匙放在哪里？灯塔看守人和港务长会回答。",
        encoding="utf-8")
    (folder / "minutes.txt").write_text(
        "Minutes: the boats were repainted, the puffins counted, and every key to the radio room was replaced. "
        + en_filler("boat", 4) + "\n\n会议记录：船重新上漆，海鹦已点数，无线电室的钥匙全部更换。" + zh_filler("船", 4),
        encoding="utf-8")


def score(indexer, questions: list[dict]) -> dict:
    top1 = top5 = 0
    misses = []
    for fact in questions:
        hits = indexer.search(fact["question"], k=5)
        found = [fact["answer"] in h.text for h in hits]
        top1 += bool(found and found[0])
        top5 += any(found)
        if not (found and found[0]):
            misses.append(fact["question"])
    n = len(questions)
    return {"top1": top1 / n, "top5": top5 / n, "n": n, "misses": misses}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    private_home()
    from eagle_chat import paths
    from eagle_chat.core.documents import store as store_module
    from eagle_chat.core.documents.embedder import KeywordOnly, OpenVinoEmbedder
    from eagle_chat.core.documents.indexer import Indexer
    from eagle_chat.core.documents.retrieval import open_embedder
    from eagle_chat.core.documents.store import DocumentStore
    from eagle_chat.core.models.document_models import DocumentModelRegistry

    work = Path(tempfile.mkdtemp(prefix="eagle-retrieval-"))
    write_corpus(work / "corpus")
    questions = facts()
    modes = [("keyword-only", lambda: KeywordOnly(), False),
             ("tiny embedder + keyword", lambda: OpenVinoEmbedder(paths.tiny_embedder_dir()), False),
             ("tiny embedder, vectors always vote (before)", lambda: OpenVinoEmbedder(paths.tiny_embedder_dir()), True)]
    modes += [(f"{m.name} + keyword", lambda m=m: open_embedder(m), False)
              for m in DocumentModelRegistry().models("embedding") if m.path.is_dir()]
    rows = []
    original = store_module.separates
    for n, (label, make, always) in enumerate(modes):
        store_module.separates = (lambda scores: True) if always else original
        store = DocumentStore(work / f"index-{n}.sqlite3")
        indexer = Indexer(store, make())
        report = indexer.add([work / "corpus"])
        assert not report.failed, report.failed
        for lang in ("en", "zh"):
            result = score(indexer, [q for q in questions if q["lang"] == lang])
            rows.append({"mode": label, "lang": lang, "chunks": store.chunk_count(), **result})
        store.close()
    store_module.separates = original
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    print("| mode | language | questions | chunks | top-1 | top-5 |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['mode']} | {r['lang']} | {r['n']} | {r['chunks']} | {r['top1']:.0%} | {r['top5']:.0%} |")
    for r in rows:
        for miss in r["misses"]:
            print(f"  not first ({r['mode']}, {r['lang']}): {miss}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
