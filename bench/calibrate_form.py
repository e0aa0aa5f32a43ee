"""Fit the embedded judge's bar for a kind of criterion it decides poorly, on dev files only.

`--kind form` (the default): form rules no check could read, `FORM_PASS_THRESHOLD`.
`--kind tone`: criteria about tone alone (`_tone.about_tone`), `TONE_PASS_THRESHOLD`; the same
way, on whichever dev files hold them (trivial, format, hostile, look-alike).

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
    .venv/bin/python bench/calibrate_form.py --kind tone bench/data/*/dev*.jsonl
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from _common import (
    RESULTS,
    ROOT,
    Rows,
    chat_model,
    fitting_parser,
    grade_files,
    header,
    read_jsonl,
    refuse_test_files,
    rubric_of,
    write_json,
)
from calibrate import balanced_accuracy, calibration_of, fit_threshold

from rubricate import Criterion, Judge, Rubric
from rubricate._judge._compile._compiler import CheckCompiler
from rubricate._judge._confidence import FORM_PASS_THRESHOLD, PASS_THRESHOLD, TONE_PASS_THRESHOLD
from rubricate._judge._tone import about_tone

DEFAULT_OUT = RESULTS / "calibration-form.json"
DEFAULT_CHECKPOINT = ROOT / ".cache" / "calibration-form-verdicts.jsonl"


# Per kind: the constant it fits, the report's key for its figures, and which criteria it holds.
KINDS: dict[str, tuple[str, str, Callable[[CheckCompiler, Criterion], bool]]] = {
    "form": ("FORM_PASS_THRESHOLD", "form_unread", lambda c, r: c.format_unread(r)),
    "tone": (
        "TONE_PASS_THRESHOLD",
        "tone",
        lambda c, r: r.check is None and not c.format_unread(r) and about_tone(r.description),
    ),
}


def grade(
    judge: Judge, compiler: CheckCompiler, item: dict[str, Any], file: str, kind: str
) -> dict[str, Any]:
    """The item's criteria of `kind`, graded by the default judge."""
    started = time.perf_counter()
    rubric = rubric_of(item)
    read = compiler.read(rubric)
    labels = {
        c.id: bool(labelled["label"]) for c, labelled in zip(rubric, item["criteria"], strict=True)
    }
    holds = KINDS[kind][2]
    chosen = Rubric(tuple(c for c, r in zip(rubric, read, strict=True) if holds(compiler, r)))
    rows = []
    if chosen:
        evaluation = judge.evaluate(chosen, output=item["output"], task=item.get("task", ""))
        rows = [
            {
                "label": labels[verdict.id],
                "confidence": verdict.confidence,
                "decided_by": verdict.decided_by,
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
        "dev files (bench/data/format for form rules)",
        checkpoint=DEFAULT_CHECKPOINT,
        out=DEFAULT_OUT,
    )
    parser.add_argument("--kind", choices=sorted(KINDS), default="form")
    args = parser.parse_args(argv)
    refuse_test_files(parser, args.data)
    constant, key, _ = KINDS[args.kind]
    if args.kind != "form":  # each kind keeps its own checkpoint and report by default
        if args.checkpoint == DEFAULT_CHECKPOINT:
            args.checkpoint = DEFAULT_CHECKPOINT.with_name(
                f"calibration-{args.kind}-verdicts.jsonl"
            )
        if args.out == DEFAULT_OUT:
            args.out = DEFAULT_OUT.with_name(f"calibration-{args.kind}.json")

    started = header("calibrate_form.py", argv)  # the code that grades, not what a later edit made
    checkpoint = Rows(args.checkpoint, lambda r: (r["file"], r["id"]), fresh=args.fresh)
    judge, compiler = Judge(chat_model(args.judge)), CheckCompiler()
    plan = [(item, _file_name(path, args.kind)) for path in args.data for item in read_jsonl(path)]
    graded = grade_files(
        plan, checkpoint, lambda item, file: grade(judge, compiler, item, file, args.kind)
    )
    rows = [
        {**row, "file": record["file"]}
        for record in graded
        for row in record["criteria"]
        if row["decided_by"] == "judge" and row["confidence"] is not None
    ]
    labels, scores = [r["label"] for r in rows], [r["confidence"] for r in rows]
    fit = fit_threshold(labels, scores, args.seed)
    bar = fit["threshold"]
    report: dict[str, Any] = {
        **started,
        "judge": args.judge,
        "kind": args.kind,
        "fitted_on": sorted({file for _, file in plan}),
        f"{args.kind}_pass_threshold": bar,
        "threshold_fit": fit,
        "constants_in_code": {
            "PASS_THRESHOLD": PASS_THRESHOLD,
            "FORM_PASS_THRESHOLD": FORM_PASS_THRESHOLD,
            "TONE_PASS_THRESHOLD": TONE_PASS_THRESHOLD,
        },
        key: {
            "all": figures(rows, bar),
            **{
                file: figures([r for r in rows if r["file"] == file], bar)
                for file in sorted({r["file"] for r in rows})
            },
        },
    }
    write_json(args.out, report)
    print(
        f"\nFitted on {', '.join(report['fitted_on'])}: {constant} = {bar:.4g} "
        f"(best {fit['best']:.4g}: {fit['best_balanced_accuracy']:.3f}, "
        f"standard error {fit['standard_error']:.3f})"
    )
    print(
        f"{'group':22} {'crit':>5} {'AUROC':>6} {'bal@.5':>6} {'bal@bar':>7} "
        f"{'FP@.5':>6} {'FP@bar':>6}"
    )
    for group, f in report[key].items():
        print(
            f"{group:22} {f['criteria']:5d} {_f(f['auroc'])} {_f(f['balanced_accuracy_at_0.5'])} "
            f"{_f(f['balanced_accuracy_at_bar'], 7)} {_f(f['false_pass_rate_at_0.5'])} "
            f"{_f(f['false_pass_rate_at_bar'])}"
        )
    return report


def _file_name(path: Path, kind: str) -> str:
    """The file as the report names it: its name for format files, with its set for the rest."""
    return path.name if kind == "form" else f"{path.parent.name}/{path.name}"


def _f(value: float | None, width: int = 6) -> str:
    return f"{'n/a':>{width}}" if value is None else f"{value:{width}.3f}"


if __name__ == "__main__":
    main()
