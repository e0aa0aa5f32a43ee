"""Layout facts on and off, in one run, on the format rules no check could read.

The default judge shows the model the output's layout as code measured it when it grades a rule
on the text's form that the phrase grammar could not read (`layout_facts`,
`rubricate._judge._layout_facts`). This grades exactly those criteria of the given format files
(`CheckCompiler.format_unread`) twice, with the facts and without, item by item in the same run,
and reports balanced accuracy at the judge's own bar, AUROC and seconds for both (each grading
starts with the embedded model's prompt cache cleared, so neither reuses the other's). Rows are
checkpointed, so an interrupted run resumes; `--limit N` grades the first N such items of each file.

    .venv/bin/python bench/layout_facts.py bench/data/format/dev-h.jsonl
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _common import RESULTS, ROOT, Rows, chat_model, header, read_jsonl, write_json
from calibrate import balanced_accuracy, calibration_of

from rubricate import Criterion, Judge, Rubric
from rubricate._judge._compile._compiler import CheckCompiler

DEFAULT_OUT = RESULTS / "layout-facts.json"
DEFAULT_CHECKPOINT = ROOT / ".cache" / "layout-facts-verdicts.jsonl"
VARIANTS = {"facts": True, "no-facts": False}


async def grade(
    judge: Judge, item: dict[str, Any], chosen: list[tuple[int, str]]
) -> tuple[float, list[dict[str, Any]]]:
    """Grade only the chosen criteria (`(position, description)`) of `item`."""
    rubric = Rubric(tuple(Criterion(id=f"c{n}", description=d) for n, d in chosen))
    started = time.perf_counter()
    evaluation = await judge.aevaluate(rubric, output=item["output"], task=item.get("task", ""))
    by_id = {v.id: v for v in evaluation.criteria}
    return time.perf_counter() - started, [
        {
            "position": n,
            "label": bool(item["criteria"][n - 1]["label"]),
            "passed": bool(by_id[f"c{n}"].passed),
            "confidence": by_id[f"c{n}"].confidence,
        }
        for n, _ in chosen
    ]


def figures(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    rows = [row for record in records for row in record["criteria"]]
    labels = [r["label"] for r in rows]
    passed = [1.0 if r["passed"] else 0.0 for r in rows]
    scores = [r["confidence"] if r["confidence"] is not None else 0.5 for r in rows]
    both = 0 < sum(labels) < len(labels)
    negatives = [p for y, p in zip(labels, passed, strict=True) if not y]
    return {
        "criteria": len(rows),
        "positive_rate": round(sum(labels) / len(labels), 3) if labels else None,
        "balanced_accuracy": round(balanced_accuracy(labels, passed, 0.5), 3) if both else None,
        "false_pass_rate": round(sum(negatives) / len(negatives), 3) if negatives else None,
        "auroc": _auroc(labels, scores) if both else None,
        "seconds": round(sum(record["seconds"] for record in records), 1),
    }


async def run(args: argparse.Namespace, argv: Sequence[str] | None) -> dict[str, Any]:
    started = header("layout_facts.py", argv)
    checkpoint = Rows(
        args.checkpoint, lambda r: (r["file"], r["id"], r["variant"]), fresh=args.fresh
    )
    model = chat_model(args.judge)
    judges = {name: Judge(model, layout_facts=on) for name, on in VARIANTS.items()}
    compiler = CheckCompiler()
    plan = []
    for path in args.data:
        kept = 0
        for item in read_jsonl(path):
            if args.limit is not None and kept >= args.limit:
                break
            chosen = [
                (n, c["description"])
                for n, c in enumerate(item["criteria"], start=1)
                if compiler.format_unread(Criterion(id=f"c{n}", description=c["description"]))
            ]
            if chosen:
                plan.append((path.name, item, chosen))
                kept += 1
    for number, (file, item, chosen) in enumerate(plan, start=1):
        for name, judge in judges.items():
            if (file, item["id"], name) in checkpoint.done:
                continue
            if hasattr(judge.model, "clear_cache"):
                judge.model.clear_cache()  # each starts cold: the second would reuse the first's
            seconds, rows = await grade(judge, item, chosen)
            checkpoint.add(
                {
                    "file": file,
                    "id": item["id"],
                    "variant": name,
                    "seconds": seconds,
                    "criteria": rows,
                }
            )
            print(f"[{number}/{len(plan)}] {file} {item['id']} {name}: {seconds:.1f} s", flush=True)

    keys = [(file, item["id"]) for file, item, _ in plan]
    report: dict[str, Any] = {
        **started,
        "judge": args.judge,
        "files": sorted({p.name for p in args.data}),
        "limit": args.limit,
        "variants": {
            name: {
                "all": figures([checkpoint.done[(*key, name)] for key in keys]),
                **{
                    file: figures([checkpoint.done[(f, i, name)] for f, i in keys if f == file])
                    for file in sorted({f for f, _ in keys})
                },
            }
            for name in VARIANTS
        },
    }
    write_json(args.out, report)
    print(f"\n{'variant':9} {'group':14} {'crit':>5} {'bal':>6} {'FP':>6} {'AUROC':>6} {'s':>7}")
    for name, groups in report["variants"].items():
        for group, f in groups.items():
            print(
                f"{name:9} {group:14} {f['criteria']:5d} {_f(f['balanced_accuracy'])} "
                f"{_f(f['false_pass_rate'])} {_f(f['auroc'])} {f['seconds']:7.1f}"
            )
    return report


def _auroc(labels: list[bool], scores: list[float]) -> float | None:
    calibration = calibration_of(labels, scores)
    auroc = calibration.auroc if calibration is not None else None
    return round(auroc, 3) if auroc is not None else None


def _f(value: float | None) -> str:
    return f"{'n/a':>6}" if value is None else f"{value:6.3f}"


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", nargs="+", type=Path, help="format files (bench/data/format)")
    parser.add_argument("--judge", default="local", help="the model (see _common.chat_model)")
    parser.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--fresh", action="store_true", help="grade again from the start")
    parser.add_argument(
        "--limit", type=int, help="only the first N items of each file that hold such criteria"
    )
    return asyncio.run(run(parser.parse_args(argv), argv))


if __name__ == "__main__":
    main()
