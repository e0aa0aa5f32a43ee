"""Wall time and tokens of single evaluations of a 10-criterion rubric, per grading mode.

Takes `judge-bench` items (realsumm: ten fact criteria each), grades each once in `joint` and once
in `per_criterion` mode on the same judge, and prints a table; `--json` writes the figures.

    python bench/one_evaluation.py --items 1 --judge local --json bench/results/one_evaluation.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from rubricate import Criterion, Judge, Rubric

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "judge-bench" / "realsumm.jsonl"
"""Where judge-bench sits beside a CI checkout; it is not part of the repository (`--data`)."""


def load_items(path: Path, count: int, seed: int, criteria: int) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        items = [json.loads(line) for line in handle if line.strip()]
    items = [item for item in items if len(item["criteria"]) == criteria]
    random.Random(seed).shuffle(items)
    return items[:count]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data", type=Path, default=DEFAULT_DATA, help="judge-bench realsumm.jsonl"
    )
    parser.add_argument("--items", type=int, default=1)
    parser.add_argument("--criteria", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--judge", default="local")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if not args.data.is_file():
        parser.error(
            f"judge-bench data not found: {args.data} (judge-bench is not part of the repository; "
            "pass --data PATH to its realsumm.jsonl; tests/data/judge-bench has a small sample)"
        )

    judges = {mode: Judge(args.judge, mode=mode) for mode in ("joint", "per_criterion")}
    rows: list[dict[str, Any]] = []
    for item in load_items(args.data, args.items, args.seed, args.criteria):
        rubric = Rubric(
            tuple(Criterion(id=c["id"], description=c["description"]) for c in item["criteria"])
        )
        labels = {c["id"]: c["label"] for c in item["criteria"]}
        for mode, judge in judges.items():
            started = time.perf_counter()
            evaluation = judge.evaluate(rubric, output=item["output"], task=item["task"])
            wall = time.perf_counter() - started
            correct = sum(v.passed == labels[v.id] for v in evaluation.criteria)
            rows.append(
                {
                    "item": item["id"],
                    "mode": mode,
                    "criteria": len(rubric),
                    "wall_s": round(wall, 2),
                    "calls": evaluation.usage.calls,
                    "input_tokens": evaluation.usage.input_tokens,
                    "output_tokens": evaluation.usage.output_tokens,
                    "agree_with_labels": correct,
                    "result": evaluation.result,
                }
            )

    table = Table(title=f"One evaluation of a {args.criteria}-criterion rubric ({args.judge})")
    for column in (
        "item",
        "mode",
        "wall_s",
        "calls",
        "input_tokens",
        "output_tokens",
        "agree_with_labels",
    ):
        table.add_column(column)
    for row in rows:
        table.add_row(
            row["item"],
            row["mode"],
            f"{row['wall_s']:.1f}",
            str(row["calls"]),
            str(row["input_tokens"]),
            str(row["output_tokens"]),
            f"{row['agree_with_labels']}/{row['criteria']}",
        )
    Console(width=140).print(table)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        meta = {
            "machine": platform.platform(),
            "processor": platform.processor(),
            "judge": args.judge,
        }
        args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
