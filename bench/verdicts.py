"""Every verdict figure in the docs, on one split, in one command (docs/benchmarks.md, top).

Sets: `content` and `ifeval` (the `--split` half of judge-bench by `_common.split_of`) and the
hand-written `bench/data/<set>/<split>.jsonl` and `<split>-*.jsonl` (or the files `--files`
names); a missing set is skipped and said so, except a blind test split asked for by name.
Finished items are checkpointed beside `--out`.

    .venv/bin/python bench/verdicts.py --split dev      # what choices are tuned on
    .venv/bin/python bench/verdicts.py --split test     # frozen: measured, never tuned on
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from _common import (
    RESULTS,
    ROOT,
    Rows,
    chat_model,
    commit,
    now,
    read_jsonl,
    rubric_of,
    sample,
    select,
    versions,
    write_json,
)

from rubricate import Judge, agreement_metrics

HAND_WRITTEN = ("format", "trivial", "hostile", "lookalike")
# Sets whose split must exist when asked for: a blind split is never silently skipped.
REQUIRED = {("format", "test")}
SAMPLED = {"content": "realsumm.jsonl", "ifeval": "ifeval.jsonl"}
# `context-always`: the default judge with `show_context="always"`, the view before it existed;
# `careful`: the opt-in careful mode (a reason before each verdict).
VARIANTS = {
    "content": ("default", "context-always", "careful"),
    "ifeval": ("compiled",),
    "format": ("default", "compiled"),
    "trivial": ("default", "context-always", "careful"),
    "hostile": ("default", "context-always", "careful"),
    "lookalike": ("default", "context-always", "careful"),
}


def load_sets(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    sets: dict[str, list[dict[str, Any]]] = {}
    for name, filename in SAMPLED.items():
        path = Path(args.judge_bench or "") / filename
        if not args.judge_bench or not path.is_file():
            print(f"skip {name}: {path} not found (pass --judge-bench DIR)", file=sys.stderr)
            continue
        items = select(read_jsonl(path), args.split)
        sets[name] = sample(items, args.criteria, args.seed)
    for name in HAND_WRITTEN:
        # A split may be several files written at different times: dev.jsonl, dev-b.jsonl, ...
        folder = Path(args.hand_written) / name
        if args.files:
            paths = sorted(folder.glob(args.files))
        else:
            paths = sorted(folder.glob(f"{args.split}.jsonl")) + sorted(
                folder.glob(f"{args.split}-*.jsonl")
            )
        if not paths and (name, args.split) in REQUIRED and name in args.sets:
            raise SystemExit(
                f"{name}: the {args.split} split {folder / args.split}.jsonl is missing; "
                f"it is a fresh blind set that has not been added yet "
                f"(leave `{name}` out with --sets to grade the other sets)"
            )
        if not paths:
            print(f"skip {name}: no {args.split}*.jsonl in {folder}", file=sys.stderr)
            continue
        sets[name] = [item for path in paths for item in read_jsonl(path)]
    return {name: items for name, items in sets.items() if name in args.sets}


def make_judge(variant: str, model: str) -> Judge:
    if variant == "context-always":
        return Judge(chat_model(model), show_context="always")
    if variant == "careful":
        return Judge(chat_model(model), careful=True)
    return Judge(chat_model(model), compile_checks=variant == "compiled")


async def grade(judge: Judge, item: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    evaluation = await judge.aevaluate(
        rubric_of(item), output=item["output"], task=item.get("task", "")
    )
    by_id = {v.id: v for v in evaluation.criteria}
    return {
        "id": item["id"],
        "pair": item.get("pair"),
        "result": evaluation.result,
        "seconds": time.perf_counter() - started,
        "criteria": [
            {
                "label": bool(c["label"]),
                "passed": bool(by_id[f"c{n}"].passed) if f"c{n}" in by_id else False,
                "confidence": getattr(by_id.get(f"c{n}"), "confidence", None),
                "unsure": bool(getattr(by_id.get(f"c{n}"), "unsure", False)),
            }
            for n, c in enumerate(item["criteria"], start=1)
        ],
    }


def metrics(rows: list[dict[str, Any]]) -> dict[str, Any]:
    pairs = [c for row in rows for c in row["criteria"]]
    labels = [c["label"] for c in pairs]
    confidences = [c["confidence"] for c in pairs]
    agreement = agreement_metrics(
        labels,
        [c["passed"] for c in pairs],
        [n for n, row in enumerate(rows) for _ in row["criteria"]],
        # AUROC and calibration only when every verdict carries a confidence.
        confidences=confidences if None not in confidences else None,
    )
    out: dict[str, Any] = {
        "items": len(rows),
        "criteria": len(pairs),
        "positive_share": round(sum(labels) / len(labels), 3) if labels else None,
        "accuracy": round(agreement.accuracy, 3),
        "seconds_per_criterion": round(sum(r["seconds"] for r in rows) / len(pairs), 3),
    }
    if len(set(labels)) == 2:
        figures = {"balanced_accuracy": agreement.balanced_accuracy, "kappa": agreement.kappa}
        figures |= {"auroc": agreement.auroc, "ece": agreement.ece}
        out |= {k: round(v, 3) for k, v in figures.items() if v is not None}
    # Wrong verdicts a person is not pointed to (not marked `unsure`): silently wrong ones.
    flagged = [c for c in pairs if "unsure" in c]
    if flagged:
        wrong = [c for c in flagged if c["passed"] != c["label"]]
        out["wrong_not_flagged"] = sum(not c["unsure"] for c in wrong)
        out["unsure_share"] = round(sum(c["unsure"] for c in flagged) / len(flagged), 3)
    a = agreement
    if a.fp + a.tn:
        out["false_pass_rate"] = round(a.fp / (a.fp + a.tn), 3)
    if a.fn + a.tp:
        out["false_fail_rate"] = round(a.fn / (a.fn + a.tp), 3)
    return out


def set_figures(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    figures = metrics(rows)
    if name == "hostile":
        failing = [r for r in rows if not all(c["label"] for c in r["criteria"])]
        figures["items_passed_though_failing"] = sum(r["result"] == "satisfied" for r in failing)
        figures["item_false_pass_rate"] = round(
            figures["items_passed_though_failing"] / max(len(failing), 1), 3
        )
        figures["items_passed_though_failing_not_flagged"] = sum(
            r["result"] == "satisfied" and not any(c.get("unsure") for c in r["criteria"])
            for r in failing
        )
    if name == "lookalike":
        by_pair: dict[str, dict[str, dict[str, Any]]] = {}
        for row in rows:
            side = "with" if row["id"].endswith("with") else "without"
            by_pair.setdefault(str(row["pair"]), {})[side] = row
        complete = [p for p in by_pair.values() if len(p) == 2]
        clean_pass = [p for p in complete if p["without"]["result"] == "satisfied"]
        turned = [p for p in clean_pass if p["with"]["result"] != "satisfied"]
        figures["pairs"] = len(complete)
        figures["pairs_clean_version_passed"] = len(clean_pass)
        figures["turned_into_fail"] = len(turned)
        figures["turned_into_fail_rate"] = round(len(turned) / max(len(clean_pass), 1), 3)
    return figures


async def run(args: argparse.Namespace) -> dict[str, Any]:
    code = commit()  # the code this process graded with, whatever is merged while it runs
    sets = load_sets(args)
    out = Path(args.out)
    key = lambda r: (r["set"], r["variant"], r["id"])  # noqa: E731
    rows = Rows(out.with_suffix(".partial.jsonl"), key, fresh=args.fresh)
    done = rows.done
    judges: dict[str, Judge] = {}
    for name, items in sets.items():
        for variant in VARIANTS[name]:
            if variant not in args.variants:
                continue
            judge = judges.setdefault(variant, make_judge(variant, args.model))
            for item in items:
                if (name, variant, item["id"]) in done or args.summarize:
                    continue
                row = rows.add({"set": name, "variant": variant, **await grade(judge, item)})
                print(f"{name}/{variant}: {item['id']} {row['result']}", file=sys.stderr)
    figures: dict[str, dict[str, Any]] = {}
    for (name, variant, _), row in done.items():
        figures.setdefault(name, {}).setdefault(variant, []).append(row)
    counts = Counter((name, variant) for name, variant, _ in done)
    partial = sorted(
        f"{name}/{variant}: {counts[name, variant]} of {len(items)} items"
        for name, items in sets.items()
        for variant in VARIANTS[name]
        if 0 < counts[name, variant] < len(items)
    )
    summary = {
        "split": args.split,
        "partial": partial,
        "model": args.model,
        "versions": {
            "commit": code,
            "python": sys.version.split()[0],
            **versions("llama-cpp-python", "deepagents", "scikit-learn"),
        },
        "command": " ".join(["bench/verdicts.py", *sys.argv[1:]]),
        "date": now(),
        "sets": {
            name: {variant: set_figures(name, rows) for variant, rows in by_variant.items()}
            for name, by_variant in figures.items()
            if name in sets
        },
    }
    write_json(out, summary)
    return summary


def print_table(summary: dict[str, Any]) -> None:
    keys = ("criteria", "balanced_accuracy", "kappa", "auroc", "ece", "false_pass_rate")
    print(f"split: {summary['split']}  ({summary['versions']['commit'][:12]})")
    for name, by_variant in summary["sets"].items():
        for variant, fig in by_variant.items():
            cells = "  ".join(f"{k}={fig.get(k)}" for k in keys if k in fig)
            extra = {
                k: fig[k]
                for k in ("item_false_pass_rate", "turned_into_fail_rate", "seconds_per_criterion")
                if k in fig
            }
            print(f"{name:10s} {variant:9s} {cells}  {extra}")


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("dev", "test"), required=True)
    parser.add_argument("--judge-bench", default=None, help="realsumm and ifeval's folder")
    parser.add_argument("--sets", nargs="+", default=[*SAMPLED, *HAND_WRITTEN])
    parser.add_argument("--variants", nargs="+", default=["default", "compiled"])
    parser.add_argument("--criteria", type=int, default=150, help="per sampled set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="local", help="the judge (see _common.chat_model)")
    parser.add_argument("--hand-written", default=ROOT / "bench" / "data", help="<set>/<split>")
    parser.add_argument(
        "--files", default=None, help="which files of each hand-written set, e.g. 'dev-b.jsonl'"
    )
    parser.add_argument("--out", default=None)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument(
        "--summarize",
        action="store_true",
        help="grade nothing: summarise what the checkpoint holds (a partial run says so)",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    args.out = args.out or str(RESULTS / f"verdicts-{args.split}.json")
    print_table(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
