"""How well the judge agrees with reference labels, criterion by criterion.

Each labelled item (the `judge-bench` format: `id`, `source`, `task`, `output`, and `criteria`
each with a boolean `label`) is graded against its own criteria, all required; each criterion's
verdict is compared with its label. "Positive" means the criterion is satisfied.

Metrics come from scikit-learn (accuracy, balanced accuracy, Cohen's kappa, the confusion
matrix; AUROC and the reliability curve of the verdicts' confidences), overall, per source and
per criterion id. The expected calibration error is the count-weighted gap between the bins of
`sklearn.calibration.calibration_curve`; verdicts without a confidence (code checks, models
without log-probabilities) are left out of AUROC and calibration, and counted. Kappa gets a
percentile bootstrap 95% interval with a fixed seed that resamples whole items, because the
criteria of one item are not independent. An item the judge failed on (`grader_error`) is left
out of the metrics and counted as an error; a criterion it could not verify counts as "not
satisfied", which is what the judge reported.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._exceptions import RubricateError, RubricError
from .._judge._judge import Judge
from .._models import ModelLike
from .._rubric._rubric import Criterion, Rubric
from .._sync import run_sync
from .._types import Evaluation, Usage
from ._streaming import (
    BatchProgress,
    LineProblem,
    count_lines,
    evaluate_item,
    iter_jsonl,
    run_bounded,
    valid_item_id,
)

__all__ = [
    "AgreementMetrics",
    "AgreementReport",
    "Calibration",
    "LabelledCriterion",
    "LabelledItem",
    "ReliabilityBin",
    "ameasure_agreement",
    "calibration_of",
    "compute_metrics",
    "finish_report",
    "measure_agreement",
    "parse_labelled",
    "record_evaluation",
    "select_items",
]

BOOTSTRAP_RESAMPLES = 1000
CONFIDENCE = 0.95
RELIABILITY_BINS = 10
"""Equal-width confidence bins for the reliability curve and the expected calibration error."""


@dataclass(kw_only=True, frozen=True)
class ReliabilityBin:
    """One bin of the reliability curve: how often verdicts this confident were right."""

    confidence: float
    """Mean confidence (P(met)) of the verdicts in the bin."""
    observed: float
    """Share of them whose label says the criterion is met."""
    count: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"confidence": self.confidence, "observed": self.observed, "count": self.count}


@dataclass(kw_only=True, frozen=True)
class Calibration:
    """How well the confidences rank and match the labels."""

    scored: int
    """Verdicts that had a confidence (the others are left out of these figures)."""
    auroc: float | None
    """Area under the ROC curve of confidence against label; `None` with one class only."""
    ece: float
    """Expected calibration error: count-weighted |observed - confidence| over the bins."""
    bins: tuple[ReliabilityBin, ...]
    """The non-empty bins of the reliability curve, by confidence."""


def calibration_of(
    labels: Sequence[bool], confidences: Sequence[float | None], *, bins: int = RELIABILITY_BINS
) -> Calibration | None:
    """AUROC, expected calibration error and reliability bins; `None` when nothing has a confidence.

    Both come from scikit-learn: `roc_auc_score`, and `calibration_curve` (uniform bins) for the
    curve, whose bins are weighted by their counts for the error.
    """
    if len(labels) != len(confidences):
        raise ValueError(
            f"`labels` and `confidences` must be of one length, got {len(labels)} and "
            f"{len(confidences)}"
        )
    import numpy as np
    from sklearn.calibration import calibration_curve  # type: ignore[import-untyped]
    from sklearn.metrics import roc_auc_score  # type: ignore[import-untyped]

    kept = [(bool(y), float(p)) for y, p in zip(labels, confidences, strict=True) if p is not None]
    if not kept:
        return None
    y_true = np.asarray([y for y, _ in kept], dtype=int)
    y_prob = np.clip(np.asarray([p for _, p in kept], dtype=float), 0.0, 1.0)
    observed, predicted = calibration_curve(y_true, y_prob, n_bins=bins, strategy="uniform")
    # calibration_curve returns only the non-empty bins' means; their counts come from the same
    # uniform edges, and the means must then agree with what it returned.
    index = np.searchsorted(np.linspace(0.0, 1.0, bins + 1)[1:-1], y_prob)
    counts = np.bincount(index, minlength=bins)
    counts = counts[counts > 0]
    if len(counts) != len(predicted):
        raise RuntimeError("calibration_curve's bins did not match the uniform bin edges")
    ece = float(np.sum(counts / len(kept) * np.abs(observed - predicted)))
    both = 0 < int(y_true.sum()) < len(y_true)
    return Calibration(
        scored=len(kept),
        auroc=float(roc_auc_score(y_true, y_prob)) if both else None,
        ece=ece,
        bins=tuple(
            ReliabilityBin(confidence=float(p), observed=float(o), count=int(c))
            for p, o, c in zip(predicted, observed, counts, strict=True)
        ),
    )


@dataclass(kw_only=True, frozen=True)
class LabelledCriterion:
    """One criterion of a labelled item, with its reference verdict."""

    id: str
    description: str
    label: bool
    """True when the output satisfies the criterion."""


@dataclass(kw_only=True, frozen=True)
class LabelledItem:
    """One labelled line: an output, its task, and criteria with reference labels."""

    id: str
    source: str
    output: str
    task: str = ""
    criteria: tuple[LabelledCriterion, ...]
    rubric: Rubric
    """The criteria as a rubric, ids `c1`, `c2`... (labelled ids may repeat within an item)."""
    path: str = ""
    line: int = 0


@dataclass(kw_only=True, frozen=True)
class AgreementMetrics:
    """Agreement between judge verdicts and labels over one group of criteria."""

    criteria: int
    """Criterion verdicts compared."""
    items: int
    """Items they come from."""
    accuracy: float
    balanced_accuracy: float | None
    """Mean of the true-positive and true-negative rates; `None` when the labels hold one class."""
    kappa: float | None
    """Cohen's kappa; `None` when undefined (labels and verdicts all one same class)."""
    kappa_ci: tuple[float, float] | None
    """Percentile bootstrap interval over items; `None` when too few items or no defined kappa."""
    tp: int
    """Label satisfied, judge says satisfied."""
    fp: int
    """Label not satisfied, judge says satisfied."""
    fn: int
    """Label satisfied, judge says not satisfied."""
    tn: int
    """Label not satisfied, judge says not satisfied."""
    calibration: Calibration | None = None
    """AUROC, calibration error and reliability curve of the confidences, when there are any."""

    @property
    def auroc(self) -> float | None:
        """Area under the ROC curve of the verdicts' confidences, when defined."""
        return self.calibration.auroc if self.calibration else None

    @property
    def ece(self) -> float | None:
        """Expected calibration error of the verdicts' confidences, when any had one."""
        return self.calibration.ece if self.calibration else None

    @property
    def label_positive_rate(self) -> float:
        """Share of criteria labelled satisfied."""
        return (self.tp + self.fn) / self.criteria if self.criteria else 0.0

    @property
    def judge_positive_rate(self) -> float:
        """Share of criteria the judge said are satisfied."""
        return (self.tp + self.fp) / self.criteria if self.criteria else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "criteria": self.criteria,
            "items": self.items,
            "accuracy": self.accuracy,
            "balanced_accuracy": self.balanced_accuracy,
            "kappa": self.kappa,
            "kappa_ci95": list(self.kappa_ci) if self.kappa_ci is not None else None,
            "confusion": {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn},
            "label_positive_rate": self.label_positive_rate,
            "judge_positive_rate": self.judge_positive_rate,
            "scored": self.calibration.scored if self.calibration else 0,
            "auroc": self.auroc,
            "ece": self.ece,
            "reliability": [b.to_dict() for b in self.calibration.bins] if self.calibration else [],
        }


@dataclass(kw_only=True)
class AgreementReport:
    """Everything `rubricate agreement` reports; `rubricate._batch._render` draws it."""

    judge: str
    mode: str
    files: list[str]
    seed: int
    limit: int | None
    items_available: int = 0
    """Valid labelled items in the files."""
    items_used: int = 0
    """Items graded (all of them, or a seeded sample of `limit`)."""
    overall: AgreementMetrics | None = None
    per_source: dict[str, AgreementMetrics] = field(default_factory=dict)
    per_criterion: dict[str, AgreementMetrics] = field(default_factory=dict)
    errors: list[tuple[str, str]] = field(default_factory=list)
    """(item id, why) for each item the judge failed on; left out of the metrics."""
    malformed: int = 0
    problems: list[LineProblem] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    wall_s: float = 0.0
    judge_s: float = 0.0
    """Sum of per-item grading latencies."""
    resamples: int = BOOTSTRAP_RESAMPLES

    @property
    def ok(self) -> bool:
        """No item failed to grade and no line was skipped."""
        return not self.errors and self.malformed == 0

    @property
    def seconds_per_criterion(self) -> float | None:
        """Judge time per criterion graded."""
        graded = self.overall.criteria if self.overall else 0
        return self.judge_s / graded if graded else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "judge": self.judge,
            "mode": self.mode,
            "files": self.files,
            "seed": self.seed,
            "limit": self.limit,
            "items_available": self.items_available,
            "items_used": self.items_used,
            "items_graded": self.items_used - len(self.errors),
            "errors": [{"id": item_id, "error": why} for item_id, why in self.errors],
            "malformed": self.malformed,
            "problems": [p.to_dict() for p in self.problems],
            "positive": "the criterion is satisfied",
            "bootstrap": {"resamples": self.resamples, "unit": "item", "confidence": CONFIDENCE},
            "overall": self.overall.to_dict() if self.overall else None,
            "per_source": {k: m.to_dict() for k, m in self.per_source.items()},
            "per_criterion": {k: m.to_dict() for k, m in self.per_criterion.items()},
            "usage": self.usage.to_dict(),
            "wall_s": round(self.wall_s, 3),
            "judge_s": round(self.judge_s, 3),
            "seconds_per_criterion": self.seconds_per_criterion,
        }


@dataclass(frozen=True)
class _Pair:
    item: int
    """Position of the item in the input, the bootstrap's resampling unit."""
    source: str
    criterion: str
    label: bool
    verdict: bool
    confidence: float | None = None


def parse_labelled(value: Any, *, line: int, path: str) -> LabelledItem | LineProblem:
    """Check one labelled line; a `LineProblem` says what is wrong with it."""

    def problem(reason: str) -> LineProblem:
        return LineProblem(path=path, line=line, reason=reason)

    if not isinstance(value, dict):
        return problem("expected a JSON object")
    item_id = value.get("id")
    if not valid_item_id(item_id):
        return problem(f"`id` must be a non-empty string or an integer, got {item_id!r}")
    where = f"id {item_id!r}: "
    output, task, source = value.get("output"), value.get("task"), value.get("source")
    if not isinstance(output, str):
        return problem(f"{where}`output` must be a string")
    if task is not None and not isinstance(task, str):
        return problem(f"{where}`task` must be a string")
    if source is not None and not isinstance(source, str):
        return problem(f"{where}`source` must be a string")
    raw = value.get("criteria")
    if not isinstance(raw, list) or not raw:
        return problem(f"{where}`criteria` must be a non-empty list")
    criteria: list[LabelledCriterion] = []
    for index, entry in enumerate(raw):
        at = f"{where}criteria[{index}]"
        if not isinstance(entry, dict):
            return problem(f"{at}: expected an object")
        if not isinstance(entry.get("description"), str):
            return problem(f"{at}.description: expected a string")
        if not isinstance(entry.get("label"), bool):
            return problem(f"{at}.label: expected true or false, got {entry.get('label')!r}")
        criterion_id = entry.get("id", f"criterion-{index + 1}")
        if not isinstance(criterion_id, str):
            return problem(f"{at}.id: expected a string")
        criteria.append(
            LabelledCriterion(
                id=criterion_id, description=entry["description"], label=entry["label"]
            )
        )
    try:
        rubric = Rubric(
            tuple(
                Criterion(id=f"c{i}", description=c.description)
                for i, c in enumerate(criteria, start=1)
            )
        )
    except RubricError as exc:
        return problem(f"{where}{exc}")
    return LabelledItem(
        id=str(item_id),
        source=source or "unknown",
        output=output,
        task=task or "",
        criteria=tuple(criteria),
        rubric=rubric,
        path=path,
        line=line,
    )


def measure_agreement(
    paths: Sequence[str | Path],
    *,
    judge: Judge | ModelLike = "local",
    limit: int | None = None,
    seed: int = 0,
    concurrency: int = 1,
    progress: BatchProgress | None = None,
) -> AgreementReport:
    """Measure agreement synchronously; see `ameasure_agreement`."""
    return run_sync(
        ameasure_agreement(
            paths,
            judge=judge,
            limit=limit,
            seed=seed,
            concurrency=concurrency,
            progress=progress,
        )
    )


async def ameasure_agreement(
    paths: Sequence[str | Path],
    *,
    judge: Judge | ModelLike = "local",
    limit: int | None = None,
    seed: int = 0,
    concurrency: int = 1,
    progress: BatchProgress | None = None,
) -> AgreementReport:
    """Grade labelled items and measure how well the judge's verdicts agree with the labels.

    Args:
        paths: Labelled JSONL files (the `judge-bench` format).
        judge: A `Judge`, or a model for a default one.
        limit: Grade a uniform random sample of this many items (seeded), kept in file order.
            `None` grades every item, streaming the files.
        seed: Seeds the sample and the bootstrap.
        concurrency: Items graded at once (always 1 on the embedded model).
        progress: Receives an event per finished item and per skipped line.

    Example:
        ```python
        report = await ameasure_agreement(["realsumm.jsonl"], judge=Judge("local"), limit=20)
        report.overall.kappa, report.overall.kappa_ci
        ```

    """
    started = time.perf_counter()
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError(f"`limit` must be an int >= 1 or None, got {limit!r}")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"`concurrency` must be an int >= 1, got {concurrency!r}")
    _require_sklearn()
    judge = judge if isinstance(judge, Judge) else Judge(judge)
    if judge.local:
        concurrency = 1
    progress = progress or BatchProgress()
    report = AgreementReport(
        judge=judge.model_name,
        mode=judge.mode,
        files=[str(p) for p in paths],
        seed=seed,
        limit=limit,
    )
    pairs: list[_Pair] = []

    async def grade(numbered: tuple[int, LabelledItem]) -> None:
        index, item = numbered
        evaluation = await evaluate_item(judge, item.rubric, output=item.output, task=item.task)
        record_evaluation(report, pairs, index, item, evaluation, progress)

    items = select_items(paths, limit=limit, seed=seed, report=report, progress=progress)
    await run_bounded(enumerate(items), grade, concurrency=concurrency)
    finish_report(report, pairs, seed=seed, started=started)
    return report


def select_items(
    paths: Sequence[str | Path],
    *,
    limit: int | None,
    seed: int,
    report: AgreementReport,
    progress: BatchProgress,
) -> Iterable[LabelledItem]:
    """The labelled items to grade: all of them (streamed) or a seeded sample of `limit`.

    Skipped lines are counted on `report` and sent to `progress`, and `progress.start` gets the
    total.
    """

    def valid_items() -> Iterator[LabelledItem]:
        for path in paths:
            for entry in iter_jsonl(path):
                item = (
                    entry
                    if isinstance(entry, LineProblem)
                    else parse_labelled(entry.value, line=entry.line, path=str(path))
                )
                if isinstance(item, LineProblem):
                    report.malformed += 1
                    if len(report.problems) < 100:
                        report.problems.append(item)
                    progress.problem(item)
                    continue
                report.items_available += 1
                yield item

    items: Iterable[LabelledItem]
    if limit is None:
        total = sum(count_lines(p) for p in paths)
        items = valid_items()
    else:
        sample = _reservoir(valid_items(), limit, seed)
        total = len(sample)
        items = sample
    progress.start(total=total)
    return items


def record_evaluation(
    report: AgreementReport,
    pairs: list[_Pair],
    index: int,
    item: LabelledItem,
    evaluation: Evaluation,
    progress: BatchProgress,
) -> None:
    """Count one graded item: its usage, its error, or its (label, verdict) pairs."""
    report.items_used += 1
    report.usage = report.usage + evaluation.usage
    report.judge_s += evaluation.latency_s
    if evaluation.result == "grader_error":
        report.errors.append((item.id, evaluation.explanation))
        progress.done(passed=False, error=True)
        return
    verdicts = {v.id: v for v in evaluation.criteria}
    for rubric_criterion, labelled in zip(item.rubric, item.criteria, strict=True):
        verdict = verdicts.get(rubric_criterion.id)
        pairs.append(
            _Pair(
                item=index,
                source=item.source,
                criterion=labelled.id,
                label=labelled.label,
                verdict=verdict.passed if verdict else False,
                confidence=verdict.confidence if verdict else None,
            )
        )
    progress.done(passed=evaluation.passed, error=False)


def finish_report(
    report: AgreementReport, pairs: list[_Pair], *, seed: int, started: float
) -> None:
    """The metrics over every pair, overall, per source and per criterion."""
    # Pairs arrive in completion order; put them back in input order (the sort is stable, so
    # each item's criteria keep theirs) so that the bootstrap does not depend on timing.
    pairs.sort(key=lambda p: p.item)
    if pairs:
        report.overall = _metrics_of(pairs, seed)
    for name, group in _groups(pairs, lambda p: p.source):
        report.per_source[name] = _metrics_of(group, seed)
    for name, group in _groups(pairs, lambda p: p.criterion):
        report.per_criterion[name] = _metrics_of(group, seed)
    report.wall_s = time.perf_counter() - started


def compute_metrics(
    labels: Sequence[bool],
    verdicts: Sequence[bool],
    clusters: Sequence[int] | None = None,
    *,
    seed: int = 0,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidences: Sequence[float | None] | None = None,
) -> AgreementMetrics:
    """Accuracy, balanced accuracy, Cohen's kappa with a bootstrap interval, confusion counts.

    Args:
        labels: Reference verdicts (True: satisfied).
        verdicts: The judge's verdicts, in the same order.
        clusters: The resampling unit of each pair (the item it belongs to); by default each
            pair is its own unit.
        seed: Seeds the bootstrap.
        resamples: Bootstrap resamples.
        confidences: The judge's P(satisfied) for each verdict, `None` where it gave none; adds
            AUROC, expected calibration error and the reliability curve.

    """
    if len(labels) != len(verdicts) or not labels:
        raise ValueError(
            f"`labels` and `verdicts` must be non-empty and of one length, "
            f"got {len(labels)} and {len(verdicts)}"
        )
    import numpy as np
    from sklearn.metrics import (
        accuracy_score,
        balanced_accuracy_score,
        cohen_kappa_score,
        confusion_matrix,
    )

    y_true = np.asarray(labels, dtype=bool)
    y_pred = np.asarray(verdicts, dtype=bool)
    tn, fp, fn, tp = (
        int(x) for x in confusion_matrix(y_true, y_pred, labels=[False, True]).ravel()
    )
    both_classes = bool(y_true.any() and not y_true.all())
    single_class = len(set(y_true.tolist()) | set(y_pred.tolist())) == 1
    kappa = None if single_class else float(cohen_kappa_score(y_true, y_pred, labels=[False, True]))
    groups = np.asarray(clusters if clusters is not None else range(len(labels)))
    return AgreementMetrics(
        criteria=len(labels),
        items=len(set(groups.tolist())),
        accuracy=float(accuracy_score(y_true, y_pred)),
        balanced_accuracy=float(balanced_accuracy_score(y_true, y_pred)) if both_classes else None,
        kappa=kappa,
        kappa_ci=_kappa_interval(y_true, y_pred, groups, seed, resamples)
        if kappa is not None
        else None,
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn,
        calibration=calibration_of(labels, confidences) if confidences is not None else None,
    )


def _kappa_interval(
    y_true: Any, y_pred: Any, groups: Any, seed: int, resamples: int
) -> tuple[float, float] | None:
    """Percentile bootstrap over clusters (items): resample them with replacement.

    Kappa depends only on the 2x2 confusion counts, so each cluster is reduced to its counts and
    a resample is a multinomial weighting of clusters: exact, vectorised, and fast enough for
    thousands of items. The formula is the one `cohen_kappa_score` computes (checked in tests).
    Resamples where kappa is undefined (a single class throughout) are left out.
    """
    import numpy as np

    unique, index = np.unique(groups, return_inverse=True)
    if len(unique) < 2:
        return None
    cells = np.zeros((len(unique), 4))
    codes = y_true.astype(int) * 2 + y_pred.astype(int)  # 0 tn, 1 fp, 2 fn, 3 tp
    np.add.at(cells, (index, codes), 1)
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(len(unique), np.full(len(unique), 1 / len(unique)), size=resamples)
    kappas = kappa_from_counts(weights @ cells)  # (resamples,)
    kappas = kappas[np.isfinite(kappas)]
    if len(kappas) < resamples / 2:
        return None
    alpha = (1 - CONFIDENCE) / 2
    low, high = np.quantile(kappas, [alpha, 1 - alpha])
    return float(low), float(high)


def kappa_from_counts(counts: Any) -> Any:
    """Cohen's kappa from confusion counts `[..., (tn, fp, fn, tp)]`; NaN where undefined."""
    import numpy as np

    tn, fp, fn, tp = np.moveaxis(np.asarray(counts, dtype=float), -1, 0)
    n = tn + fp + fn + tp
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = (tp + tn) / n
        expected = ((tp + fp) * (tp + fn) + (tn + fn) * (tn + fp)) / n**2
        return (observed - expected) / (1 - expected)


def _metrics_of(pairs: Sequence[_Pair], seed: int) -> AgreementMetrics:
    return compute_metrics(
        [p.label for p in pairs],
        [p.verdict for p in pairs],
        [p.item for p in pairs],
        seed=seed,
        confidences=[p.confidence for p in pairs],
    )


def _groups(pairs: Sequence[_Pair], key: Any) -> list[tuple[str, list[_Pair]]]:
    grouped: dict[str, list[_Pair]] = {}
    for pair in pairs:
        grouped.setdefault(key(pair), []).append(pair)
    return sorted(grouped.items(), key=lambda kv: _natural(kv[0]))


def _natural(text: str) -> list[Any]:
    """Sort key so `fact-2` comes before `fact-10`."""
    return [
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text)
    ]


def _reservoir(items: Iterable[LabelledItem], limit: int, seed: int) -> list[LabelledItem]:
    """A uniform sample of `limit` items in one pass (memory: `limit` items), in file order."""
    rng = random.Random(seed)
    sample: list[tuple[int, LabelledItem]] = []
    for position, item in enumerate(items):
        if position < limit:
            sample.append((position, item))
        else:
            slot = rng.randint(0, position)
            if slot < limit:
                sample[slot] = (position, item)
    return [item for _, item in sorted(sample, key=lambda pair: pair[0])]


def _require_sklearn() -> None:
    try:
        import sklearn  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise RubricateError(
            "measuring agreement needs scikit-learn: pip install 'rubricate[eval]'"
        ) from None
