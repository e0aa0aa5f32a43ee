"""Fit the embedded judge's pass threshold and uncertainty band on the dev split only.

Grades a seeded sample of criteria from each split of judge-bench files, fits `PASS_THRESHOLD`
and `UNSURE_BAND` on `dev`, and reports AUROC, ECE and balanced accuracy on `dev` and `test`
(docs/benchmarks.md, "Calibration"). Each graded item is checkpointed (`--checkpoint`): rerun to
resume, `--fit-only` to fit from what a stopped run graded.

    .venv/bin/python bench/calibrate.py DATA/realsumm.jsonl DATA/ifeval.jsonl --criteria 100 40
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from itertools import zip_longest
from pathlib import Path
from typing import Any

from _common import (
    RESULTS,
    ROOT,
    SPLITS,
    Rows,
    chat_model,
    header,
    read_jsonl,
    rubric_of,
    split_of,
    write_json,
)

from rubricate import AgreementMetrics, Judge, agreement_metrics

# The embedded judge's confidence constants, which this fits.
from rubricate._judge._confidence import PASS_THRESHOLD, UNSURE_BAND

DEFAULT_OUT = RESULTS / "calibration.json"
DEFAULT_CHECKPOINT = ROOT / ".cache" / "calibration-verdicts.jsonl"
BAND_STEP = 0.05


def sample(path: Path, split: str, criteria: int, per_item: int, seed: int) -> list[dict[str, Any]]:
    """Items of `split` in a seeded order, each cut to at most `per_item` seeded criteria."""
    items = [item for item in read_jsonl(path) if split_of(str(item["id"])) == split]
    rng = random.Random(f"{seed}:{path.name}:{split}")
    rng.shuffle(items)
    chosen: list[dict[str, Any]] = []
    left = criteria
    for item in items:
        if left <= 0:
            break
        indices = sorted(
            rng.sample(range(len(item["criteria"])), k=min(per_item, left, len(item["criteria"])))
        )
        chosen.append({**item, "criteria": [item["criteria"][i] for i in indices]})
        left -= len(indices)
    return chosen


def grade(judge: Judge, item: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    evaluation = judge.evaluate(rubric_of(item), output=item["output"], task=item.get("task", ""))
    verdicts = {v.id: v for v in evaluation.criteria}
    rows = []
    for index, labelled in enumerate(item["criteria"], start=1):
        verdict = verdicts.get(f"c{index}")
        rows.append(
            {
                "id": labelled["id"],
                "label": bool(labelled["label"]),
                "passed": verdict.passed if verdict else False,
                "confidence": verdict.confidence if verdict else None,
            }
        )
    return {
        "id": item["id"],
        "source": item["source"],
        "split": split_of(str(item["id"])),
        "result": evaluation.result,
        "seconds": time.perf_counter() - started,
        "criteria": rows,
    }


def logit(p: float) -> float:
    """log(p / (1 - p)), with p kept off 0 and 1: P(yes) as a feature of a logistic fit."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def balanced_accuracy(labels: Sequence[bool], scores: Sequence[float], threshold: float) -> float:
    from sklearn.metrics import balanced_accuracy_score  # type: ignore[import-untyped]

    return float(balanced_accuracy_score(labels, [s >= threshold for s in scores]))


def fit_threshold(labels: Sequence[bool], scores: Sequence[float], seed: int) -> dict[str, Any]:
    """The threshold nearest 0.5 within one standard error of the best dev balanced accuracy.

    The one-standard-error rule: on a few hundred criteria many thresholds score alike, and the
    best of them by a hair is noise; 0.5 (the greedy answer) is kept unless another threshold
    beats it by more than the best's own bootstrap standard error (1,000 seeded resamples).
    """
    import numpy as np

    candidates = sorted({0.5, *scores})
    scored = {t: balanced_accuracy(labels, scores, t) for t in candidates}
    best = max(candidates, key=lambda t: (round(scored[t], 12), -abs(t - 0.5)))
    rng = np.random.default_rng(seed)
    y, p = np.asarray(labels), np.asarray(scores)
    resampled = []
    for _ in range(1000):
        pick = rng.integers(0, len(y), len(y))
        if 0 < y[pick].sum() < len(pick):
            resampled.append(balanced_accuracy(y[pick].tolist(), p[pick].tolist(), best))
    error = float(np.std(resampled)) if resampled else 0.0
    chosen = min(
        (t for t in candidates if scored[t] >= scored[best] - error), key=lambda t: abs(t - 0.5)
    )
    return {
        "threshold": chosen,
        "best": best,
        "best_balanced_accuracy": scored[best],
        "standard_error": error,
    }


def fit_band(
    labels: Sequence[bool],
    scores: Sequence[float],
    threshold: float,
    target: float,
    most_unsure: float,
) -> tuple[float, float]:
    """Narrowest band around `threshold` outside which the verdicts reach `target` accuracy.

    It grows in steps of 0.05 and stops before it would hold more than `most_unsure` of the
    verdicts: a list of what to check first is no use when it is most of them.
    """
    width, band = 0.0, (threshold, threshold)
    while width <= 0.5:
        low, high = max(0.0, threshold - width), min(1.0, threshold + width)
        inside = sum(low <= s <= high for s in scores)
        if inside > most_unsure * len(scores):
            break
        band = (round(low, 4), round(high, 4))
        sure = [
            (y, s >= threshold) for y, s in zip(labels, scores, strict=True) if not low <= s <= high
        ]
        if not sure or sum(y == v for y, v in sure) / len(sure) >= target:
            break
        width = round(width + BAND_STEP, 10)
    return band


def calibration_of(labels: list[bool], scores: list[float]) -> AgreementMetrics | None:
    """AUROC, calibration error and reliability of `scores` (the verdicts at 0.5 aside)."""
    if not labels:
        return None
    return agreement_metrics(labels, [s >= 0.5 for s in scores], confidences=scores)


def figures(
    rows: Sequence[dict[str, Any]], threshold: float, band: tuple[float, float]
) -> dict[str, Any]:
    scored = [r for r in rows if r["confidence"] is not None]
    labels = [r["label"] for r in scored]
    scores = [r["confidence"] for r in scored]
    calibration = calibration_of(labels, scores)
    unsure = [r for r in scored if band[0] <= r["confidence"] <= band[1]]
    sure = [r for r in scored if not band[0] <= r["confidence"] <= band[1]]

    def accuracy(group: Sequence[dict[str, Any]]) -> float | None:
        if not group:
            return None
        return sum((r["confidence"] >= threshold) == r["label"] for r in group) / len(group)

    both = 0 < sum(labels) < len(labels)
    return {
        "criteria": len(rows),
        "scored": len(scored),
        "positive_rate": sum(labels) / len(labels) if labels else None,
        "auroc": calibration.auroc if calibration else None,
        "ece": calibration.ece if calibration else None,
        "balanced_accuracy": balanced_accuracy(labels, scores, threshold) if both else None,
        "balanced_accuracy_at_0.5": balanced_accuracy(labels, scores, 0.5) if both else None,
        "unsure_share": len(unsure) / len(scored) if scored else None,
        "accuracy_unsure": accuracy(unsure),
        "accuracy_sure": accuracy(sure),
        "reliability": calibration.to_dict()["reliability"] if calibration else [],
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", nargs="+", type=Path, help="judge-bench JSONL files")
    parser.add_argument("--criteria", nargs="+", type=int, default=[100, 50], help="per file")
    parser.add_argument("--per-item", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sure-accuracy", type=float, default=0.9)
    parser.add_argument("--most-unsure", type=float, default=0.3, help="the band's largest share")
    parser.add_argument("--min-dev", type=int, default=100, help="fewer dev criteria keep 0.5")
    parser.add_argument("--judge", default="local", help="the model (see _common.chat_model)")
    parser.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--fit-only", action="store_true", help="fit from the checkpoint alone")
    args = parser.parse_args(argv)
    if len(args.criteria) != len(args.data):
        parser.error(
            f"--criteria needs one number per file ({len(args.data)}), got {args.criteria}"
        )

    checkpoint = Rows(args.checkpoint, lambda r: r["id"])
    done = checkpoint.done
    # Round robin over (split, file), so that a run stopped early has graded some of each.
    queues = [
        sample(path, split, count, args.per_item, args.seed)
        for split in SPLITS
        for path, count in zip(args.data, args.criteria, strict=True)
    ]
    plan = [item for group in zip_longest(*queues) for item in group if item is not None]
    if not args.fit_only:
        judge = Judge(chat_model(args.judge))
        for number, item in enumerate(plan, start=1):
            if item["id"] in done:
                continue
            record = checkpoint.add(grade(judge, item))
            print(
                f"[{number}/{len(plan)}] {record['split']} {item['id']}: "
                f"{len(record['criteria'])} criteria in {record['seconds']:.1f} s",
                flush=True,
            )

    graded = [done[item["id"]] for item in plan if item["id"] in done]
    rows = {
        split: [
            {**row, "source": record["source"]}
            for record in graded
            if record["split"] == split and record["result"] != "grader_error"
            for row in record["criteria"]
        ]
        for split in SPLITS
    }
    dev = [r for r in rows["dev"] if r["confidence"] is not None]
    labels, scores = [r["label"] for r in dev], [r["confidence"] for r in dev]
    fit = fit_threshold(labels, scores, args.seed) if dev else {}
    if len(dev) < args.min_dev:
        fit["kept_0.5"] = f"{len(dev)} scored dev criteria, fewer than --min-dev {args.min_dev}"
        fit["threshold"] = 0.5
    threshold = fit["threshold"]
    band = fit_band(labels, scores, threshold, args.sure_accuracy, args.most_unsure)
    report: dict[str, Any] = {
        **header("calibrate.py", argv),
        "judge": args.judge,
        "seed": args.seed,
        "fitted_on": "dev",
        "pass_threshold": threshold,
        "threshold_fit": fit,
        "most_unsure": args.most_unsure,
        "unsure_band": list(band),
        "sure_accuracy_target": args.sure_accuracy,
        "constants_in_code": {"PASS_THRESHOLD": PASS_THRESHOLD, "UNSURE_BAND": list(UNSURE_BAND)},
        "seconds_per_criterion": sum(r["seconds"] for r in graded)
        / max(1, sum(len(r["criteria"]) for r in graded)),
        "splits": {
            split: {
                "all": figures(rows[split], threshold, band),
                **{
                    source: figures(
                        [r for r in rows[split] if r["source"] == source], threshold, band
                    )
                    for source in sorted({r["source"] for r in rows[split]})
                },
            }
            for split in SPLITS
        },
    }
    write_json(args.out, report)
    print_table(report)
    return report


def print_table(report: dict[str, Any]) -> None:
    print(
        f"\nFitted on dev: PASS_THRESHOLD = {report['pass_threshold']:.4g}, "
        f"UNSURE_BAND = {tuple(report['unsure_band'])}"
    )
    print(
        f"{'split':6} {'group':9} {'crit':>5} {'AUROC':>6} {'ECE':>6} {'bal@t':>6} "
        f"{'bal@.5':>6} {'unsure':>7} {'acc sure':>8}"
    )
    for split, groups in report["splits"].items():
        for group, f in groups.items():
            print(
                f"{split:6} {group:9} {f['criteria']:5d} {_f(f['auroc'])} {_f(f['ece'])} "
                f"{_f(f['balanced_accuracy'])} {_f(f['balanced_accuracy_at_0.5'])} "
                f"{_f(f['unsure_share'], 7)} {_f(f['accuracy_sure'], 8)}"
            )


def _f(value: float | None, width: int = 6) -> str:
    return f"{'n/a':>{width}}" if value is None else f"{value:{width}.3f}"


if __name__ == "__main__":
    main()
