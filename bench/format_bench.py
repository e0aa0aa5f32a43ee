r"""Format criteria: balanced accuracy with and without `compile_checks`, and seconds a criterion.

Grades a labelled JSONL file with one long-lived judge per variant (docs/benchmarks.md,
"Ordinary phrasing"), checkpointed beside `--out`. `--grammar` calls no model: per file, what
the phrase grammar decides in code and how well, then every wrong code verdict and every
criterion it leaves to the model.

    .venv/bin/python bench/format_bench.py bench/data/format/dev.jsonl
    .venv/bin/python bench/format_bench.py bench/data/format/dev.jsonl \
        bench/data/format/dev-b.jsonl --grammar
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _common import (
    RESULTS,
    Rows,
    chat_model,
    header,
    name_of,
    names_of,
    read_jsonl,
    rubric_of,
    select,
    write_json,
)

from rubricate import CheckUndecided, Evidence, Judge, agreement_metrics

# The phrase grammar that `read_checks` runs inside the judge, measured on its own (`--grammar`).
from rubricate._judge._compile._compiler import CheckCompiler

VARIANTS = ("compiled", "plain")


def load(path: Path, split: str, limit: int | None) -> list[dict[str, Any]]:
    items = select(read_jsonl(path), split)
    return items[:limit] if limit else items


def grade_item(judge: Judge, item: dict[str, Any]) -> dict[str, Any]:
    """One item's verdicts, by whom each was decided, and the wall time."""
    started = time.perf_counter()
    evaluation = judge.evaluate(rubric_of(item), output=item["output"], task=item["task"])
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
    metrics = agreement_metrics(
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


# The kind of rule a criterion states, by the first of these its words name (for the lists).
KINDS = (
    ("keywords", r"['\"‘“]"),
    ("case", r"case|capital|lower|upper|caps"),
    ("emoji", r"emoji|emoticon"),
    ("title", r"title|heading|header|headline"),
    ("list", r"bullet|list|numbered|item|point|step"),
    ("paragraph", r"paragraph|para\b"),
    ("sentence", r"sentence"),
    ("length", r"word|character|letter|long|short|length|brief|concise"),
    ("end", r"\bend|finish|close|conclude|last|final|sign"),
    ("start", r"start|begin|open|first"),
    ("date/number", r"date|number|digit|percent|%|currency|time"),
)


def kind_of(description: str) -> str:
    text = description.casefold()
    return next((kind for kind, pattern in KINDS if re.search(pattern, text)), "other")


def grammar_rows(items: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every criterion as the judge's default reads it, with no model: by check or unread."""
    compiler = CheckCompiler()
    rows = []
    for item in items:
        rubric = compiler.read(rubric_of(item))
        evidence = Evidence(output=item["output"], task=item["task"])
        for labelled, criterion in zip(item["criteria"], rubric.criteria, strict=True):
            row: dict[str, Any] = {
                "item": item["id"],
                "description": labelled["description"],
                "label": bool(labelled["label"]),
                "check": None,
            }
            if criterion.check is not None:
                try:
                    passed, finding = criterion.check(evidence)
                except CheckUndecided:  # read, but this output's pieces were not marked apart
                    row["undecided"] = True
                else:
                    row |= {"check": criterion.check.__name__, "passed": passed, "finding": finding}
            rows.append(row)
    return rows


def grammar_report(paths: Sequence[Path], split: str) -> dict[str, Any]:
    """Coverage and code-verdict accuracy of the phrase grammar per file; prints a dev file's misses."""
    report: dict[str, Any] = {}
    for path in paths:
        rows = grammar_rows(load(path, split, None))
        read = [r for r in rows if r["check"] is not None]
        right = sum(r["passed"] == r["label"] for r in read)
        report[str(path)] = {
            "criteria": len(rows),
            "read_in_code": len(read),
            "coverage": round(len(read) / len(rows), 3) if rows else None,
            "code_accuracy": round(right / len(read), 3) if read else None,
            "wrong": len(read) - right,
            "undecided": sum(bool(r.get("undecided")) for r in rows),
        }
        print(
            f"{path}: {len(read)}/{len(rows)} read in code "
            f"(coverage {report[str(path)]['coverage']}), {right}/{len(read)} right "
            f"(code-verdict accuracy {report[str(path)]['code_accuracy']}); "
            f"{report[str(path)]['undecided']} read but left to the judge by this output"
        )
        if frozen(path, split):
            continue  # a frozen split is measured, never read: counts only
        for r in read:
            if r["passed"] != r["label"]:
                print(f"  WRONG {r['item']}: {r['description']!r}")
                print(
                    f"        label {r['label']}, {r['check']} says {r['passed']}: {r['finding']}"
                )
        unread: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            if r["check"] is None:
                unread.setdefault(kind_of(r["description"]), []).append(r)
        for kind, group in sorted(unread.items(), key=lambda kv: -len(kv[1])):
            print(f"  unread, {kind} ({len(group)}):")
            for r in group:
                print(f"    {r['description']!r}")
    return report


def frozen(path: Path, split: str) -> bool:
    """Whether `path` holds (or `split` selects) a frozen test split, whose items nobody reads."""
    return split == "test" or path.name.startswith("test")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, nargs="+", help="labelled JSONL; one to grade")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--variants", type=names_of(VARIANTS), default=",".join(VARIANTS))
    parser.add_argument("--judge", default="local", help="the model (see _common.chat_model)")
    parser.add_argument("--limit", type=int, default=None, help="first N items only")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    parser.add_argument("--grammar", action="store_true", help="the phrase grammar, no model")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    if args.grammar:
        report = grammar_report(args.data, args.split)
        if args.out:
            write_json(args.out, report)
        return report
    if len(args.data) != 1:
        raise SystemExit("grading with a model takes one data file (several only with --grammar)")
    args.data = args.data[0]
    items = load(args.data, args.split, args.limit)
    out = args.out or RESULTS / f"format-{args.data.stem}-{args.split}.json"
    rows = Rows(
        out.with_suffix(".partial.jsonl"), lambda r: (r["variant"], r["id"]), fresh=args.fresh
    )
    chat = chat_model(args.judge)
    report: dict[str, Any] = {
        "data": str(args.data),
        "split": args.split,
        "judge": name_of(chat),
        **header("format_bench.py", argv),
        "note": "timed on a shared 2-core machine under load from other jobs",
        "variants": {},
    }
    for variant in args.variants:
        judge = Judge(chat, compile_checks=variant == "compiled")
        records = []
        for number, item in enumerate(items, start=1):
            record = rows.done.get((variant, item["id"])) or rows.add(
                {"variant": variant, **grade_item(judge, item)}
            )
            records.append(record)
            print(f"{variant} {number}/{len(items)} {record['seconds']:.1f}s", flush=True)
        report["variants"][variant] = summarize(records)
    write_json(out, report)
    rows.path.unlink()
    for variant, figures in report["variants"].items():
        print(
            f"{variant:9} balanced accuracy {figures['balanced_accuracy']}, "
            f"{figures['decided_by_check']}/{figures['criteria']} by check, "
            f"{figures['seconds_per_criterion']} s a criterion"
        )
    return report


if __name__ == "__main__":
    main()
