"""Agreement statistics: accuracy, Cohen's kappa with a bootstrap interval, calibration.

Metrics come from scikit-learn (accuracy, balanced accuracy, Cohen's kappa, the confusion
matrix; AUROC and the reliability curve of the verdicts' confidences). The expected calibration
error is the count-weighted gap between the bins of `sklearn.calibration.calibration_curve`;
verdicts without a confidence (code checks, models without log-probabilities) are left out of
AUROC and calibration, and counted. Kappa gets a percentile bootstrap 95% interval with a fixed
seed that resamples whole items, because the criteria of one item are not independent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._exceptions import RubricateError

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "CONFIDENCE",
    "AgreementMetrics",
    "Calibration",
    "Pair",
    "ReliabilityBin",
    "agreement_metrics",
    "calibration_of",
    "grouped",
    "kappa_from_counts",
    "metrics_of",
    "require_sklearn",
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


@dataclass(frozen=True)
class Pair:
    """One criterion's label and verdict, with the item it belongs to."""

    item: int
    """Position of the item in the input, the bootstrap's resampling unit."""
    source: str
    criterion: str
    label: bool
    verdict: bool
    confidence: float | None = None


def agreement_metrics(
    labels: Sequence[bool],
    verdicts: Sequence[bool],
    clusters: Sequence[int] | None = None,
    *,
    seed: int = 0,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidences: Sequence[float | None] | None = None,
) -> AgreementMetrics:
    """Accuracy, balanced accuracy, Cohen's kappa with a bootstrap interval, confusion counts.

    What `measure_agreement` reports, for verdicts you already have (from your own runs, another
    judge, or a human second rater) against reference labels. Needs the `eval` extra
    (scikit-learn).

    Example:
        ```python
        from rubricate import agreement_metrics

        metrics = agreement_metrics([True, False, True, True], [True, False, False, True])
        print(metrics.balanced_accuracy, metrics.kappa, metrics.to_dict()["confusion"])
        ```

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
    require_sklearn()
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


def metrics_of(pairs: Sequence[Pair], seed: int) -> AgreementMetrics:
    """`agreement_metrics` over pairs, resampling by item."""
    return agreement_metrics(
        [p.label for p in pairs],
        [p.verdict for p in pairs],
        [p.item for p in pairs],
        seed=seed,
        confidences=[p.confidence for p in pairs],
    )


def grouped(pairs: Sequence[Pair], key: Any) -> list[tuple[str, list[Pair]]]:
    """Pairs grouped by `key`, the groups in natural order of their names."""
    grouped: dict[str, list[Pair]] = {}
    for pair in pairs:
        grouped.setdefault(key(pair), []).append(pair)
    return sorted(grouped.items(), key=lambda kv: _natural(kv[0]))


def _natural(text: str) -> list[Any]:
    """Sort key so `fact-2` comes before `fact-10`."""
    return [
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text)
    ]


def require_sklearn() -> None:
    """Fail with the install hint, before any grading, when scikit-learn is missing."""
    try:
        import sklearn  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise RubricateError(
            "measuring agreement needs scikit-learn: pip install 'rubricate[eval]'"
        ) from None
