"""Export of a finished comparison: its runs as CSV, everything (prompt, verdict, both answers, runs and
steps) as JSON, and the speed chart as PNG. The field names and values are machine fields: not translated."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from eagle_chat.core.measure.compare import Comparison
from eagle_chat.ui.words import texts
from eagle_chat.ui.speed.verdict_board import headline_text


def export_comparison(comparison: Comparison, chart, folder: Path) -> list[Path]:
    """Write ``comparison`` and ``chart`` (a SpeedChart) into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = comparison.to_rows()
    csv_path, json_path, png_path = (folder / f"comparison.{ext}" for ext in ("csv", "json", "png"))
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    json_path.write_text(
        json.dumps(
            {
                "prompt": comparison.prompt,
                "precision": comparison.precision,
                "speedup": comparison.speedup,
                "verdict": comparison.verdict,
                "headline": headline_text(comparison),  # what the demo's headline said, in the UI's language
                "summary": texts.comparison_lines(comparison),  # and the details under it
                "compared": texts.compared_text(comparison),
                "identical": comparison.identical,
                "divergence": None if comparison.identical else texts.divergence_text(comparison.divergence),
                "baseline_text": comparison.baseline_text,
                "speculative_text": comparison.speculative_text,
                "runs": rows,
                # Per run: tokens per step, characters per step, the histogram of accepted lengths.
                "steps": comparison.step_summaries(),
            },
            indent=2,
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    chart.flush()
    chart.grab().save(str(png_path))
    return [csv_path, json_path, png_path]
