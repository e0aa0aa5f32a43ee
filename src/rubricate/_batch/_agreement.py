"""How well the judge agrees with reference labels, criterion by criterion: the driver.

Each labelled item (`_labels.py`) is graded against its own criteria, all required; each
criterion's verdict is compared with its label, and the pairs go to `_statistics.py` overall, per
source and per criterion id. An item the judge failed on (`grader_error`) is left out of the
metrics and counted as an error; a criterion it could not verify counts as "not satisfied",
which is what the judge reported.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Unpack

from .._judge._judge import Judge, judge_for
from .._judge._options import JudgeOptions
from .._models import ModelLike
from .._sync import run_sync
from .._types import Evaluation, Usage
from ._labels import LabelledItem, parse_labelled
from ._statistics import (
    BOOTSTRAP_RESAMPLES,
    CONFIDENCE,
    AgreementMetrics,
    Pair,
    grouped,
    metrics_of,
    require_sklearn,
)
from ._streaming import (
    BatchProgress,
    LineProblem,
    check_count,
    count_lines,
    evaluate_item,
    iter_jsonl,
    run_bounded,
)

__all__ = [
    "AgreementReport",
    "ameasure_agreement",
    "finish_report",
    "measure_agreement",
    "record_evaluation",
    "select_items",
]


@dataclass(kw_only=True)
class AgreementReport:
    """Everything `rubricate agreement` reports; `rubricate._report` draws it."""

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

    @classmethod
    def start(
        cls, judge: Judge, paths: Sequence[str | Path], *, seed: int, limit: int | None
    ) -> AgreementReport:
        """The empty report of a run of `judge` on `paths`, filled in as items are graded."""
        return cls(
            judge=judge.model_name,
            mode=judge.mode,
            files=[str(p) for p in paths],
            seed=seed,
            limit=limit,
        )

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


def measure_agreement(
    paths: Sequence[str | Path],
    *,
    judge: Judge | ModelLike = "local",
    limit: int | None = None,
    seed: int = 0,
    concurrency: int = 1,
    progress: BatchProgress | None = None,
    **options: Unpack[JudgeOptions],
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
            **options,
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
    **options: Unpack[JudgeOptions],
) -> AgreementReport:
    """Grade labelled items and measure how well the judge's verdicts agree with the labels.

    Args:
        paths: Labelled JSONL files (the `judge-bench` format).
        judge: A `Judge`, or a model for one built with `options`.
        limit: Grade a uniform random sample of this many items (seeded), kept in file order.
            `None` grades every item, streaming the files.
        seed: Seeds the sample and the bootstrap.
        concurrency: Items graded at once (always 1 on the embedded model).
        progress: Receives an event per finished item and per skipped line.
        **options: The judge's settings (`JudgeOptions`) when `judge` names a model.

    Example:
        ```python
        report = await ameasure_agreement(["realsumm.jsonl"], judge=Judge("local"), limit=20)
        report.overall.kappa, report.overall.kappa_ci
        ```

    """
    started = time.perf_counter()
    check_count("limit", limit, optional=True)
    check_count("concurrency", concurrency)
    require_sklearn()
    judge = judge_for(judge, options, "measure_agreement()")
    if not judge.concurrent_items:
        concurrency = 1
    progress = progress or BatchProgress()
    report = AgreementReport.start(judge, paths, seed=seed, limit=limit)
    pairs: list[Pair] = []

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
    pairs: list[Pair],
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
            Pair(
                item=index,
                source=item.source,
                criterion=labelled.id,
                label=labelled.label,
                verdict=verdict.passed if verdict else False,
                confidence=verdict.confidence if verdict else None,
            )
        )
    progress.done(passed=evaluation.passed, error=False)


def finish_report(report: AgreementReport, pairs: list[Pair], *, seed: int, started: float) -> None:
    """The metrics over every pair, overall, per source and per criterion."""
    # Pairs arrive in completion order; put them back in input order (the sort is stable, so
    # each item's criteria keep theirs) so that the bootstrap does not depend on timing.
    pairs.sort(key=lambda p: p.item)
    if pairs:
        report.overall = metrics_of(pairs, seed)
    for name, group in grouped(pairs, lambda p: p.source):
        report.per_source[name] = metrics_of(group, seed)
    for name, group in grouped(pairs, lambda p: p.criterion):
        report.per_criterion[name] = metrics_of(group, seed)
    report.wall_s = time.perf_counter() - started


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
