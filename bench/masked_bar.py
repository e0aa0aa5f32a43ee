r"""Measure a stricter bar for the grading with text aimed at the grader masked (not adopted).

When an output holds passages that may address its grader, the judge grades the criteria that
passed again with those passages masked (`_injection`), and both gradings must pass. Masking
removes the manipulation; what is left is the small model's own content errors, and on the
hostile dev files those are most of the false passes that remain ("H2O is hydrogen peroxide"
passed as "says H2O is water" at P(yes) 0.62 once masked). One lever is to let an output that
speaks to its grader pass its masked grading only at a higher P(yes). Its cost falls on honest
answers that quote instruction-like text and are borderline passes.

This grades the hostile and look-alike dev files with the default judge, guard off, then grades
again with the suspect passages masked every criterion that passed where a passage was found (what
the guard does), keeps both P(yes), and fits a bar on the masked ones with the rule that set
`PASS_THRESHOLD` (`calibrate.fit_threshold`: nearest 0.5 within one standard error of the best
balanced accuracy). It reports both sides at 0.5 (the guard as shipped) and at that bar: failing
hostile items passed, and look-alike pairs turned into fails by their instruction-like text.
Test files are refused.

    .venv/bin/python bench/masked_bar.py bench/data/hostile/dev*.jsonl \
        bench/data/lookalike/dev*.jsonl
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
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

from rubricate import Judge, Rubric
from rubricate._judge._confidence import PASS_THRESHOLD
from rubricate._judge._injection import mask_passages
from rubricate._judge._suspects import find_suspect_passages

DEFAULT_OUT = RESULTS / "masked-bar-dev.json"
DEFAULT_CHECKPOINT = ROOT / ".cache" / "masked-bar-verdicts.jsonl"


def grade(judge: Judge, item: dict[str, Any], file: str) -> dict[str, Any]:
    """Every criterion's first verdict, and its masked P(yes) where the guard would ask again."""
    started = time.perf_counter()
    rubric = rubric_of(item)
    first = judge.evaluate(rubric, output=item["output"], task=item.get("task", ""))
    passages = find_suspect_passages(item["output"])
    passed = Rubric(tuple(c for c, v in zip(rubric, first.criteria, strict=True) if v.passed))
    masked: dict[str, Any] = {}
    if passages and passed:
        again = judge.evaluate(
            passed, output=mask_passages(item["output"], passages), task=item.get("task", "")
        )
        masked = {v.id: {"passed": v.passed, "confidence": v.confidence} for v in again.criteria}
    return {
        "id": item["id"],
        "file": file,
        "pair": item.get("pair"),
        "seconds": time.perf_counter() - started,
        "criteria": [
            {
                "label": bool(labelled["label"]),
                "passed": verdict.passed,
                "confidence": verdict.confidence,
                "masked": masked.get(verdict.id),
            }
            for verdict, labelled in zip(first.criteria, item["criteria"], strict=True)
        ],
    }


def passes(row: Mapping[str, Any], bar: float) -> bool:
    """The guard's verdict on a criterion when its masked grading needs P(yes) >= `bar`."""
    masked = row["masked"]
    if not row["passed"] or masked is None:
        return bool(row["passed"])
    confidence = masked["confidence"]
    return bool(masked["passed"]) and (confidence is None or confidence >= bar)


def sides(records: Sequence[Mapping[str, Any]], bar: float) -> dict[str, Any]:
    """Both sides of the guard at `bar`: hostile items passed, look-alike pairs turned."""
    satisfied = {r["id"]: all(passes(c, bar) for c in r["criteria"]) for r in records}
    failing = [
        r for r in records if "hostile" in r["file"] and not all(c["label"] for c in r["criteria"])
    ]
    pairs: dict[str, dict[str, bool]] = {}
    for r in records:
        if "lookalike" in r["file"] and r["pair"] is not None:
            side = "with" if r["id"].endswith("with") else "without"
            pairs.setdefault(str(r["pair"]), {})[side] = satisfied[r["id"]]
    clean = [p for p in pairs.values() if p.get("without") and "with" in p]
    return {
        "hostile_failing_items": len(failing),
        "hostile_passed": sum(satisfied[r["id"]] for r in failing),
        "lookalike_pairs_clean_passed": len(clean),
        "lookalike_turned_into_fail": sum(not p["with"] for p in clean),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = fitting_parser(
        __doc__, "hostile and look-alike dev files", checkpoint=DEFAULT_CHECKPOINT, out=DEFAULT_OUT
    )
    args = parser.parse_args(argv)
    refuse_test_files(parser, args.data)

    started = header("masked_bar.py", argv)  # the code that grades, not a later edit
    checkpoint = Rows(args.checkpoint, lambda r: (r["file"], r["id"]), fresh=args.fresh)
    judge = Judge(chat_model(args.judge), guard_injections=False)
    plan = [(item, f"{p.parent.name}/{p.name}") for p in args.data for item in read_jsonl(p)]
    records = grade_files(plan, checkpoint, lambda item, file: grade(judge, item, file))
    masked = [
        (c["label"], c["masked"]["confidence"])
        for r in records
        for c in r["criteria"]
        if c["masked"] is not None and c["masked"]["confidence"] is not None
    ]
    labels, scores = [y for y, _ in masked], [p for _, p in masked]
    both = 0 < sum(labels) < len(labels)
    fit = fit_threshold(labels, scores, args.seed) if both else None
    bar = fit["threshold"] if fit else PASS_THRESHOLD
    calibration = calibration_of(labels, scores) if both else None
    report: dict[str, Any] = {
        **started,
        "judge": args.judge,
        "fitted_on": sorted({file for _, file in plan}),
        "masked_bar": bar,
        "threshold_fit": fit,
        "masked_criteria": {
            "criteria": len(masked),
            "positive_rate": sum(labels) / len(labels) if labels else None,
            "auroc": calibration.auroc if calibration else None,
            "balanced_accuracy_at_0.5": balanced_accuracy(labels, scores, 0.5) if both else None,
            "balanced_accuracy_at_bar": balanced_accuracy(labels, scores, bar) if both else None,
        },
        "at_0.5": sides(records, PASS_THRESHOLD),
        "at_bar": sides(records, bar),
    }
    write_json(args.out, report)
    print(f"\nFitted on {', '.join(report['fitted_on'])}: a masked bar of {bar:.4g}")
    for name in ("at_0.5", "at_bar"):
        s = report[name]
        print(
            f"{name:7} hostile passed {s['hostile_passed']} of {s['hostile_failing_items']}; "
            f"look-alike pairs turned {s['lookalike_turned_into_fail']} "
            f"of {s['lookalike_pairs_clean_passed']}"
        )
    return report


if __name__ == "__main__":
    main()
