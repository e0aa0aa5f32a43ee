"""Fit the embedded judge's bar for form rules no check could read, on format dev files only.

The grammar decides the format rules it can read; the model decides the rest, and on those it
says "yes" far more often than it should. Its P(yes) still ranks them (AUROC about 0.65 on dev),
but 0.5 is the wrong place to cut it. This grades the given format files with the default judge,
keeps the model verdicts on criteria the judge marks as form rules no check could read
(`CheckCompiler.format_unread`), and fits `FORM_PASS_THRESHOLD` on them with the rule that set
`PASS_THRESHOLD` (`calibrate.fit_threshold`: nearest 0.5 within one standard error of the best
balanced accuracy). Only those criteria are graded: every criterion's question is its own
sequence over the same evidence, so a criterion's P(yes) does not depend on which others are
asked beside it, and the rest would only cost time. Test files are refused: a bar fitted on a
test split would be a lie.

    .venv/bin/python bench/calibrate_form.py bench/data/format/dev*.jsonl
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from _common import (
    RESULTS,
    ROOT,
    Rows,
    chat_model,
    fitting_parser,
    header,
    read_jsonl,
    refuse_test_files,
    rubric_of,
    write_json,
)
from calibrate import balanced_accuracy, calibration_of, fit_threshold

from rubricate import Judge, Rubric
from rubricate._judge._compile._compiler import CheckCompiler
from rubricate._judge._confidence import FORM_PASS_THRESHOLD, PASS_THRESHOLD

DEFAULT_OUT = RESULTS / "calibration-form.json"
DEFAULT_CHECKPOINT = ROOT / ".cache" / "calibration-form-verdicts.jsonl"


def grade(judge: Judge, compiler: CheckCompiler, item: dict[str, Any], file: str) -> dict[str, Any]:
    """The item's form rules no check could read, graded by the default judge."""
    started = time.perf_counter()
    rubric = rubric_of(item)
    read = compiler.read(rubric)
    labels = {
        c.id: bool(labelled["label"]) for c, labelled in zip(rubric, item["criteria"], strict=True)
    }
    form = Rubric(tuple(c for c, r in zip(rubric, read, strict=True) if compiler.format_unread(r)))
    rows = []
    if form:
        evaluation = judge.evaluate(form, output=item["output"], task=item.get("task", ""))
        rows = [
            {
                "label": labels[verdict.id],
                "confidence": verdict.confidence,
                "decided_by": verdict.decided_by,
                "form_unread": True,
            }
            for verdict in evaluation.criteria
        ]
    return {
        "id": item["id"],
        "file": file,
        "seconds": time.perf_counter() - started,
        "criteria": rows,
    }


def figures(rows: Sequence[dict[str, Any]], threshold: float) -> dict[str, Any]:
    labels = [r["label"] for r in rows]
    scores = [r["confidence"] for r in rows]
    both = 0 < sum(labels) < len(labels)
    calibration = calibration_of(labels, scores) if both else None
    return {
        "criteria": len(rows),
        "positive_rate": sum(labels) / len(labels) if labels else None,
        "auroc": calibration.auroc if calibration else None,
        "balanced_accuracy_at_0.5": balanced_accuracy(labels, scores, 0.5) if both else None,
        "balanced_accuracy_at_bar": balanced_accuracy(labels, scores, threshold) if both else None,
        "false_pass_rate_at_0.5": _false_pass_rate(labels, scores, 0.5),
        "false_pass_rate_at_bar": _false_pass_rate(labels, scores, threshold),
    }


def _false_pass_rate(labels: Sequence[bool], scores: Sequence[float], threshold: float) -> float:
    negatives = [s for y, s in zip(labels, scores, strict=True) if not y]
    return sum(s >= threshold for s in negatives) / len(negatives) if negatives else 0.0


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = fitting_parser(
        __doc__,
        "format dev files (bench/data/format)",
        checkpoint=DEFAULT_CHECKPOINT,
        out=DEFAULT_OUT,
    )
    args = parser.parse_args(argv)
    refuse_test_files(parser, args.data)

    started = header("calibrate_form.py", argv)  # the code that grades, not what a later edit made
    checkpoint = Rows(args.checkpoint, lambda r: r["id"], fresh=args.fresh)
    judge, compiler = Judge(chat_model(args.judge)), CheckCompiler()
    plan = [(item, path.name) for path in args.data for item in read_jsonl(path)]
    for number, (item, file) in enumerate(plan, start=1):
        if item["id"] not in checkpoint.done:
            record = checkpoint.add(grade(judge, compiler, item, file))
            print(f"[{number}/{len(plan)}] {item['id']}: {record['seconds']:.1f} s", flush=True)

    graded = [checkpoint.done[item["id"]] for item, _ in plan]
    rows = [
        {**row, "file": record["file"]}
        for record in graded
        for row in record["criteria"]
        if row["decided_by"] == "judge" and row["confidence"] is not None
    ]
    form = [r for r in rows if r["form_unread"]]
    labels, scores = [r["label"] for r in form], [r["confidence"] for r in form]
    fit = fit_threshold(labels, scores, args.seed)
    bar = fit["threshold"]
    report: dict[str, Any] = {
        **started,
        "judge": args.judge,
        "fitted_on": sorted({p.name for p in args.data}),
        "form_pass_threshold": bar,
        "threshold_fit": fit,
        "constants_in_code": {
            "PASS_THRESHOLD": PASS_THRESHOLD,
            "FORM_PASS_THRESHOLD": FORM_PASS_THRESHOLD,
        },
        "form_unread": {
            "all": figures(form, bar),
            **{
                file: figures([r for r in form if r["file"] == file], bar)
                for file in sorted({r["file"] for r in form})
            },
        },
    }
    write_json(args.out, report)
    print(
        f"\nFitted on {', '.join(report['fitted_on'])}: FORM_PASS_THRESHOLD = {bar:.4g} "
        f"(best {fit['best']:.4g}: {fit['best_balanced_accuracy']:.3f}, "
        f"standard error {fit['standard_error']:.3f})"
    )
    print(
        f"{'group':22} {'crit':>5} {'AUROC':>6} {'bal@.5':>6} {'bal@bar':>7} "
        f"{'FP@.5':>6} {'FP@bar':>6}"
    )
    for group, f in report["form_unread"].items():
        print(
            f"{group:22} {f['criteria']:5d} {_f(f['auroc'])} {_f(f['balanced_accuracy_at_0.5'])} "
            f"{_f(f['balanced_accuracy_at_bar'], 7)} {_f(f['false_pass_rate_at_0.5'])} "
            f"{_f(f['false_pass_rate_at_bar'])}"
        )
    return report


def _f(value: float | None, width: int = 6) -> str:
    return f"{'n/a':>{width}}" if value is None else f"{value:{width}.3f}"


if __name__ == "__main__":
    main()
