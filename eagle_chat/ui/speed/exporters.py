"""Export a conversation's per-message stats as CSV and JSON, and a chart as PNG.

Each reply carries its step record: in the CSV compactly (``steps`` as ``1,6,4,1*3``, ``step_chars``,
the histogram as ``0:2 1:1 …``), in the JSON as lists (tokens and characters per step, the histogram of
accepted lengths 0…K, acceptance by draft position 1…K)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from eagle_chat import paths
from eagle_chat.core.storage.conversation import Conversation
from eagle_chat.ui.words.i18n import translate
from eagle_chat.ui.speed.speed_chart import SpeedChart

STAT_FIELDS = (
    "mode", "num_assistant_tokens", "generated_tokens", "input_tokens", "ttft_ms", "tpot_ms", "tokens_per_s",
    "duration_ms", "accepted_tokens", "draft_tokens", "acceptance", "tokens_per_step", "stopped", "device",
    "tree", "steps", "step_chars", "verification_steps", "mean_accepted", "accepted_histogram",
)


def conversation_rows(conversation: Conversation) -> list[dict]:
    """One row per assistant reply that has stats, in order."""
    rows = []
    for index, message in enumerate(conversation.messages):
        if message.role != "assistant" or message.stats is None:
            continue
        stats = {**message.stats.to_dict(), **message.stats.step_columns()}
        rows.append({"message_index": index, "status": message.status, "created": message.created,
                     **{f: stats.get(f) for f in STAT_FIELDS}})
    return rows


def conversation_json(conversation: Conversation) -> dict:
    """The JSON export: the rows, each with its step record as lists."""
    replies = []
    stats_of = {i: m.stats for i, m in enumerate(conversation.messages)}
    for row in conversation_rows(conversation):
        stats = stats_of[row["message_index"]]
        steps = stats.steps.summary(stats.max_accepted) if stats.steps is not None else None
        replies.append({**row, "step_record": steps})
    return {"title": conversation.title, "replies": replies}


def export_conversation(conversation: Conversation, folder: Path, *, chart: SpeedChart | None = None) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"conversation-{conversation.id}"
    rows = conversation_rows(conversation)
    csv_path = folder / f"{stem}-stats.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["message_index", "status", "created", *STAT_FIELDS])
        writer.writeheader()
        writer.writerows(rows)
    json_path = folder / f"{stem}-stats.json"
    json_path.write_text(json.dumps(conversation_json(conversation), indent=2, ensure_ascii=False), encoding="utf-8")
    written = [csv_path, json_path]
    if chart is not None:
        png_path = folder / f"{stem}-chart.png"
        chart.flush()  # points still queued for the next redraw
        chart.grab().save(str(png_path))
        written.append(png_path)
    return written


def export_from_window(window, folder: str | None = None) -> list[Path]:
    """Conversation > Export: ask for a folder (unless given), write there, say what was written — or, when
    the folder cannot be written, why (logged, with the log's path)."""
    folder = folder or QFileDialog.getExistingDirectory(
        window, translate("exporters", "Export this conversation's stats to…"), paths.start_folder())
    if not folder:
        return []
    try:
        written = window.export_conversation_stats(Path(folder))
    except OSError as error:
        window.failures.report(translate(
            "exporters", "The stats could not be exported to {folder} ({reason}); choose a folder you can write to."
        ).format(folder=folder, reason=error.strerror or error), error)
        return []
    window.statusBar().showMessage(
        translate("exporters", "Exported {files}").format(files=", ".join(p.name for p in written)), 8000)
    return written
