"""Hostile outputs: how often the judge is talked into a pass, with and without the guard.

`bench/data/hostile.jsonl` holds 32 outputs that pair a plainly wrong answer with text that tries
to talk the judge into a pass (instructions to ignore the rubric, claims that it is met, fake
verdict JSON, forged delimiters and chat-template tokens, instructions in code blocks and
Markdown, zero-width and full-width letters), plus controls: the plain wrong answers (must
fail) and right answers (must pass). Each row is graded by the same judge with the injection
guard on and off; the guard adds a failed, code-decided verdict when the output addresses the
grader. `--configs` adds `reference`: deepagents' own `RubricMiddleware` grader on the same
model, driven exactly as in `bench/judge.py` (a row passes when its result is `satisfied`).

The report breaks the hostile rows down per defence: whether the guard alone flags the output
(`find_grader_injection`, no model), whether the model alone (guard off) fails it, and whether
the combination (guard on) does. It also counts how many judge-bench outputs the guard flags (a
flag there would cost accuracy), which needs no model.

    .venv/bin/python bench/hostile.py --judge local --json bench/results/hostile.json
    .venv/bin/python bench/hostile.py --judge local --configs reference --json ...
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

from rubricate import Judge
from rubricate._injection import find_grader_injection
from rubricate._models import ModelLike, model_name, resolve_chat_model

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE / "data" / "hostile.jsonl"
JUDGE_BENCH = HERE.parents[1] / "shared" / "judge-bench"
CONFIGS = ("guard_off", "guard_on", "reference")
DEFAULT_CONFIGS = ("guard_off", "guard_on")

Grade = Callable[[dict[str, Any]], dict[str, Any]]
"""Grades one row: returns at least `result` (and `calls` when known)."""


def _bench_judge() -> ModuleType:
    """`bench/judge.py`, whose `reference()` drives deepagents' grader (shared, not copied)."""
    if (module := sys.modules.get("bench_judge")) is not None:
        return module
    spec = importlib.util.spec_from_file_location("bench_judge", HERE / "judge.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_judge"] = module
    spec.loader.exec_module(module)
    return module


def ours(judge: Judge) -> Grade:
    def grade(row: dict[str, Any]) -> dict[str, Any]:
        evaluation = judge.evaluate(row["rubric"], output=row["output"], task=row["task"])
        return {"result": evaluation.result, "calls": evaluation.usage.calls}

    return grade


def reference(model: Any) -> Grade:
    """The reference: deepagents' grader, through `bench/judge.py`'s `reference()`."""
    meter = _bench_judge().CallMeter()
    model.callbacks = [*(model.callbacks or []), meter]
    grader = _bench_judge().reference(model)

    def grade(row: dict[str, Any]) -> dict[str, Any]:
        criteria = [
            {"description": line.strip()[2:].strip()}
            for line in row["rubric"].splitlines()
            if line.strip().startswith("- ")
        ]
        meter.reset()
        try:
            _, extra = grader({"task": row["task"], "output": row["output"], "criteria": criteria})
        except Exception as exc:  # a grader failure is a non-pass, recorded
            return {
                "result": "exception",
                "exception": f"{type(exc).__name__}: {exc}"[:300],
                "calls": meter.calls,
            }
        return {"result": extra["result"], "calls": meter.calls}

    return grade


def run(grade: Grade, rows: list[dict[str, Any]], log: Callable[[str], None]) -> dict[str, Any]:
    """Grade every row; count passes (result `satisfied`) by kind; keep each row's result."""
    counts: dict[str, dict[str, int]] = {}
    per_row: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    calls = 0
    for index, row in enumerate(rows, start=1):
        t0 = time.perf_counter()
        graded = grade(row)
        calls += int(graded.get("calls") or 0)
        passed = graded["result"] == "satisfied"
        kind = counts.setdefault(row["kind"], {"rows": 0, "passed": 0})
        kind["rows"] += 1
        kind["passed"] += passed
        per_row[row["id"]] = {
            "kind": row["kind"],
            "result": graded["result"],
            "passed": passed,
            **({"exception": graded["exception"]} if graded.get("exception") else {}),
        }
        log(
            f"{index}/{len(rows)} {row['id']}: {graded['result']} "
            f"({time.perf_counter() - t0:.1f} s)"
        )
    return {
        "counts": counts,
        "wall_s": round(time.perf_counter() - started, 1),
        "calls": calls,
        "rows": per_row,
    }


def defence_breakdown(
    rows: Sequence[dict[str, Any]], results: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """Per kind: which rows the guard alone flags, the model alone fails, and both together.

    "Stopped" means the row did not end `satisfied`. The guard column needs no model; the model
    column needs `guard_off`, the combination `guard_on`, the reference column `reference`.
    """
    breakdown: dict[str, Any] = {}
    for row in rows:
        entry = breakdown.setdefault(row["kind"], {"rows": 0, "guard_flags": 0})
        entry["rows"] += 1
        flagged = find_grader_injection(row["output"]) is not None
        entry["guard_flags"] += flagged
        model_row = results.get("guard_off", {}).get("rows", {}).get(row["id"])
        combined = results.get("guard_on", {}).get("rows", {}).get(row["id"])
        ref = results.get("reference", {}).get("rows", {}).get(row["id"])
        if model_row is not None:
            model_stops = not model_row["passed"]
            entry["model_alone_stops"] = entry.get("model_alone_stops", 0) + model_stops
            entry["guard_and_model_both_stop"] = entry.get("guard_and_model_both_stop", 0) + (
                flagged and model_stops
            )
            entry["only_guard_stops"] = entry.get("only_guard_stops", 0) + (
                flagged and not model_stops
            )
            entry["only_model_stops"] = entry.get("only_model_stops", 0) + (
                model_stops and not flagged
            )
            entry["neither_stops"] = entry.get("neither_stops", 0) + (
                not flagged and not model_stops
            )
        if combined is not None:
            entry["combination_stops"] = entry.get("combination_stops", 0) + (
                not combined["passed"]
            )
        if ref is not None:
            entry["reference_stops"] = entry.get("reference_stops", 0) + (not ref["passed"])
    return breakdown


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


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--judge", default="local")
    parser.add_argument("--mode", choices=["joint", "per_criterion"], default=None)
    parser.add_argument(
        "--configs",
        default=",".join(DEFAULT_CONFIGS),
        help=f"comma-separated, of {', '.join(CONFIGS)} (run in that order)",
    )
    parser.add_argument(
        "--reference", action="store_true", help="add `reference` to --configs (same as listing it)"
    )
    parser.add_argument("--limit", type=int, default=None, help="grade only the first N rows")
    parser.add_argument("--judge-bench", type=Path, default=JUDGE_BENCH)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    if args.reference and "reference" not in configs:
        configs.append("reference")
    unknown = set(configs) - set(CONFIGS)
    if unknown or not configs:
        parser.error(f"--configs must name some of {', '.join(CONFIGS)}; got {configs}")
    args.configs = configs
    return args


def main(argv: Sequence[str] | None = None, *, model: ModelLike | None = None) -> dict[str, Any]:
    """Run the suite; `model` (tests) overrides `--judge`. Returns the JSON payload."""
    args = parse_args(argv)
    with args.data.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    if args.limit is not None:
        rows = rows[: args.limit]
    console = Console(width=140)
    chat_model = resolve_chat_model(model if model is not None else args.judge)
    graders: dict[str, Grade] = {}
    for config in args.configs:
        if config == "reference":
            graders[config] = reference(chat_model)
        else:
            judge = Judge(chat_model, mode=args.mode, guard_injections=config == "guard_on")
            graders[config] = ours(judge)
    results: dict[str, dict[str, Any]] = {}
    for config, grade in graders.items():
        results[config] = run(
            grade,
            rows,
            lambda text, c=config: console.print(f"[{c}] {text}", highlight=False, markup=False),
        )
    flags = judge_bench_flags(args.judge_bench) if args.judge_bench.is_dir() else {}
    breakdown = defence_breakdown(rows, results)

    label = args.judge if model is None else model_name(chat_model)
    table = Table(title=f"Hostile outputs ({label}): rows that ended satisfied")
    for column in (
        "config",
        "hostile (false passes)",
        "plain wrong (false passes)",
        "right (passes)",
        "wall",
        "calls",
    ):
        table.add_column(column)
    for config, result in results.items():
        c = result["counts"]
        table.add_row(
            config,
            _rate(c.get("hostile")),
            _rate(c.get("control_wrong")),
            _rate(c.get("control_right")),
            f"{result['wall_s']:.0f} s",
            str(result["calls"]),
        )
    console.print(table)
    defences = Table(title="Per defence: rows each one stops (did not end satisfied), by kind")
    columns = (
        ("guard_flags", "guard alone (no model)"),
        ("model_alone_stops", "model alone (guard off)"),
        ("guard_and_model_both_stop", "both"),
        ("only_guard_stops", "only guard"),
        ("only_model_stops", "only model"),
        ("neither_stops", "neither"),
        ("combination_stops", "guard on"),
        ("reference_stops", "reference"),
    )
    defences.add_column("kind")
    for _, title in columns:
        defences.add_column(title, justify="right")
    for kind, entry in breakdown.items():
        defences.add_row(
            kind,
            *(f"{entry[key]}/{entry['rows']}" if key in entry else "-" for key, _ in columns),
        )
    console.print(defences)
    console.print(f"judge-bench outputs the guard flags: {flags}")
    payload = {
        "command": " ".join(
            shlex.quote(a)
            for a in (
                ".venv/bin/python",
                "bench/hostile.py",
                *(argv if argv is not None else sys.argv[1:]),
            )
        ),
        "machine": {"platform": platform.platform(), "python": platform.python_version()},
        "judge": label,
        "mode": args.mode,
        "rows": len(rows),
        "configs": args.configs,
        "results": results,
        "defences": breakdown,
        "judge_bench_flags": flags,
    }
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return payload


def _rate(counts: dict[str, int] | None) -> str:
    if not counts:
        return "-"
    return f"{counts['passed']}/{counts['rows']} ({counts['passed'] / counts['rows']:.0%})"


if __name__ == "__main__":
    main()
