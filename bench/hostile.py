"""Hostile outputs: how often the judge is talked into a pass, with and without the guard.

`bench/data/hostile.jsonl` holds 32 outputs that pair a plainly wrong answer with text that tries
to talk the judge into a pass (instructions to ignore the rubric, claims that it is met, fake
verdict JSON, forged delimiters and chat-template tokens, instructions in code blocks and
Markdown, zero-width and full-width letters), plus controls: the plain wrong answers (must
fail) and right answers (must pass). Each row is graded by the same judge with the injection
guard on and off; the guard adds a failed, code-decided verdict when the output addresses the
grader. It also counts how many judge-bench outputs the guard flags (a flag there would cost
accuracy), which needs no model.

    python bench/hostile.py --judge local --json bench/results/hostile.json
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from rubricate import Judge
from rubricate._injection import find_grader_injection

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE / "data" / "hostile.jsonl"
JUDGE_BENCH = HERE.parents[1] / "shared" / "judge-bench"


def run(judge: Judge, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Grade every row; count passes by kind."""
    counts: dict[str, dict[str, int]] = {}
    started = time.perf_counter()
    calls = 0
    for row in rows:
        evaluation = judge.evaluate(row["rubric"], output=row["output"], task=row["task"])
        calls += evaluation.usage.calls
        kind = counts.setdefault(row["kind"], {"rows": 0, "passed": 0})
        kind["rows"] += 1
        kind["passed"] += evaluation.result == "satisfied"
    return {"counts": counts, "wall_s": round(time.perf_counter() - started, 1), "calls": calls}


def judge_bench_flags(folder: Path) -> dict[str, int]:
    """How many judge-bench outputs the guard would flag, per source."""
    flags: dict[str, int] = {}
    for path in sorted(folder.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            flags[path.stem] = sum(
                find_grader_injection(json.loads(line)["output"]) is not None
                for line in handle
                if line.strip()
            )
    return flags


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--judge", default="local")
    parser.add_argument("--mode", choices=["joint", "per_criterion"], default=None)
    parser.add_argument("--judge-bench", type=Path, default=JUDGE_BENCH)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    with args.data.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    results = {
        guard: run(Judge(args.judge, mode=args.mode, guard_injections=guard), rows)
        for guard in (False, True)
    }
    flags = judge_bench_flags(args.judge_bench) if args.judge_bench.is_dir() else {}

    table = Table(title=f"Hostile outputs ({args.judge}): rows that ended satisfied")
    for column in (
        "guard",
        "hostile (false passes)",
        "plain wrong (false passes)",
        "right (passes)",
        "wall",
        "calls",
    ):
        table.add_column(column)
    for guard, result in results.items():
        c = result["counts"]
        table.add_row(
            "on" if guard else "off",
            _rate(c.get("hostile")),
            _rate(c.get("control_wrong")),
            _rate(c.get("control_right")),
            f"{result['wall_s']:.0f} s",
            str(result["calls"]),
        )
    console = Console(width=140)
    console.print(table)
    console.print(f"judge-bench outputs the guard flags: {flags}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "machine": {"platform": platform.platform(), "python": platform.python_version()},
            "judge": args.judge,
            "mode": args.mode,
            "rows": len(rows),
            "results": {"guard_off": results[False], "guard_on": results[True]},
            "judge_bench_flags": flags,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n")


def _rate(counts: dict[str, int] | None) -> str:
    if not counts:
        return "-"
    return f"{counts['passed']}/{counts['rows']} ({counts['passed'] / counts['rows']:.0%})"


if __name__ == "__main__":
    main()
