r"""Format criteria: balanced accuracy with and without `compile_checks`, and seconds a criterion.

Grades every item of a labelled JSONL file (judge-bench lines: `id`, `task`, `output`,
`criteria[{description, label}]`) with rubricate's default per-criterion judge, once with
`compile_checks=True` (criteria compiled to catalogue checks are decided in code; the compile
step's time counts) and once without. One judge per variant lives for the whole run, so a
criterion text is compiled once, as a long-lived judge would.

    .venv/bin/python bench/format_bench.py bench/data/format/dev.jsonl
    .venv/bin/python bench/format_bench.py ../shared/judge-bench/ifeval.jsonl --split dev \\
        --variants compiled --out bench/results/format-ifeval-dev.json

`--split dev` keeps the development half by the rule in `bench/splits.py` (all items when the
file is a split already). Every finished (variant, item) is appended to a checkpoint beside
`--out`; rerunning the same command resumes, and the checkpoint is removed once the summary is
written. The summary holds the figures only, no per-item verdicts.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from splits import select

from rubricate import Criterion, Judge, Rubric
from rubricate._batch._statistics import compute_metrics
from rubricate._models import ModelLike, model_name, resolve_chat_model

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ("compiled", "plain")


def load(path: Path, split: str, limit: int | None) -> list[dict[str, Any]]:
    items = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    items = select(items, split)  # type: ignore[arg-type]
    return items[:limit] if limit else items


def grade_item(judge: Judge, item: dict[str, Any]) -> dict[str, Any]:
    """One item's verdicts, by whom each was decided, and the wall time."""
    rubric = Rubric(
        tuple(
            Criterion(id=f"c{i}", description=c["description"])
            for i, c in enumerate(item["criteria"], start=1)
        )
    )
    started = time.perf_counter()
    evaluation = judge.evaluate(rubric, output=item["output"], task=item["task"])
    seconds = time.perf_counter() - started
    by_id = {v.id: v for v in evaluation.criteria}
    verdicts = []
    for i, criterion in enumerate(item["criteria"], start=1):
        verdict = by_id.get(f"c{i}")
        verdicts.append(
            {
                "label": bool(criterion["label"]),
                # No verdict (grader error) counts as not satisfied, as a loop would act.
                "passed": bool(verdict.passed) if verdict is not None else False,
                "by": verdict.decided_by if verdict is not None else "error",
            }
        )
    return {"id": item["id"], "seconds": seconds, "verdicts": verdicts}


def summarize(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    pairs = [v for r in records for v in r["verdicts"]]
    clusters = [n for n, r in enumerate(records) for _ in r["verdicts"]]
    metrics = compute_metrics(
        [p["label"] for p in pairs], [p["passed"] for p in pairs], clusters
    ).to_dict()
    seconds = sum(r["seconds"] for r in records)
    by_check = [p for p in pairs if p["by"] == "check"]
    return {
        "items": len(records),
        "criteria": len(pairs),
        "balanced_accuracy": metrics.get("balanced_accuracy"),
        "accuracy": metrics.get("accuracy"),
        "kappa": metrics.get("kappa"),
        "confusion": metrics.get("confusion"),
        "decided_by_check": len(by_check),
        "check_accuracy": (
            round(sum(p["passed"] == p["label"] for p in by_check) / len(by_check), 4)
            if by_check
            else None
        ),
        "seconds": round(seconds, 1),
        "seconds_per_criterion": round(seconds / len(pairs), 3) if pairs else None,
    }


def commit() -> str | None:
    try:
        return subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="labelled JSONL (judge-bench lines)")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--judge", default="local")
    parser.add_argument("--limit", type=int, default=None, help="first N items only")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, *, model: ModelLike | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    unknown = sorted(set(variants) - set(VARIANTS))
    if unknown:
        raise SystemExit(f"--variants: unknown {unknown}; choose from {', '.join(VARIANTS)}")
    items = load(args.data, args.split, args.limit)
    out = args.out or ROOT / "bench" / "results" / f"format-{args.data.stem}-{args.split}.json"
    partial = out.with_suffix(".partial.jsonl")
    done: dict[tuple[str, str], dict[str, Any]] = {}
    if partial.exists() and not args.fresh:
        for line in partial.read_text().splitlines():
            record = json.loads(line)
            done[(record["variant"], record["id"])] = record
    out.parent.mkdir(parents=True, exist_ok=True)
    chat = resolve_chat_model(model if model is not None else args.judge)
    report: dict[str, Any] = {
        "data": str(args.data),
        "split": args.split,
        "judge": model_name(chat),
        "commit": commit(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "note": "timed on a shared 2-core machine under load from other jobs",
        "variants": {},
    }
    with partial.open("a") as checkpoint:
        for variant in variants:
            judge = Judge(chat, compile_checks=variant == "compiled")
            records = []
            for number, item in enumerate(items, start=1):
                record = done.get((variant, item["id"]))
                if record is None:
                    record = {"variant": variant, **grade_item(judge, item)}
                    checkpoint.write(json.dumps(record) + "\n")
                    checkpoint.flush()
                records.append(record)
                print(f"{variant} {number}/{len(items)} {record['seconds']:.1f}s", flush=True)
            report["variants"][variant] = summarize(records)
    out.write_text(json.dumps(report, indent=2) + "\n")
    partial.unlink(missing_ok=True)
    for variant, figures in report["variants"].items():
        print(
            f"{variant:9} balanced accuracy {figures['balanced_accuracy']}, "
            f"{figures['decided_by_check']}/{figures['criteria']} by check, "
            f"{figures['seconds_per_criterion']} s a criterion"
        )
    return report


if __name__ == "__main__":
    main()
