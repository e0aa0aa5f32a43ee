"""`measure_agreement_ray`: judge agreement with labels, the grading done by Ray actors.

The driver picks the items (all, or the same seeded sample as `measure_agreement`) and computes
the metrics; the actors grade each item against its own criteria with `grade_item`, as for
`grade`. Only what the metrics need (source, labels, criterion ids) stays on the driver.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Unpack

from .._batch._agreement import AgreementReport, finish_report, record_evaluation, select_items
from .._batch._items import GradeItem
from .._batch._labels import LabelledItem
from .._batch._statistics import Pair, require_sklearn
from .._batch._streaming import BatchProgress, check_count
from .._judge._options import JudgeOptions
from .._types import Evaluation
from ._actor import JudgeSpec
from ._pool import ActorPool

__all__ = ["measure_agreement_ray"]


def measure_agreement_ray(
    paths: Sequence[str | Path],
    *,
    judge: JudgeSpec = "local",
    limit: int | None = None,
    seed: int = 0,
    actors: int = 1,
    cpus_per_actor: int = 1,
    concurrency: int = 1,
    requests_per_second: float | None = None,
    batch_size: int | None = None,
    progress: BatchProgress | None = None,
    **options: Unpack[JudgeOptions],
) -> AgreementReport:
    """Measure agreement like `measure_agreement`, grading on a pool of Ray judge actors.

    The report is the one `measure_agreement` gives for the same files, limit and seed
    (verdicts permitting: the same judge on the same item). Synchronous, like Ray's API.

    Args:
        paths: Labelled JSONL files (the `judge-bench` format), read by this process.
        judge: A `Judge`, a model for a default one, or a function returning a `Judge`.
        limit: Grade a seeded sample of this many items; `None` grades all.
        seed: Seeds the sample and the bootstrap.
        actors: Judge actors in the pool.
        cpus_per_actor: CPUs each actor reserves (the embedded model's threads).
        concurrency: Items each actor grades at once (1 on the embedded model).
        requests_per_second: Cap on model calls per second across the cluster, or `None`.
        batch_size: Items per actor batch (see `grade_dataset`).
        progress: Receives an event per finished item and per skipped line.
        **options: The judge's settings (`JudgeOptions`) when `judge` names a model, sent to
            every actor; `tools` cannot be (see `grade_dataset`).

    Example:
        ```python
        report = measure_agreement_ray(["realsumm.jsonl"], judge="local", actors=4, limit=200)
        report.overall.kappa
        ```

    """
    started = time.perf_counter()
    check_count("limit", limit, optional=True)
    require_sklearn()
    pool = ActorPool.start(
        "measure_agreement_ray()",
        judge,
        options,
        actors=actors,
        cpus_per_actor=cpus_per_actor,
        concurrency=concurrency,
        requests_per_second=requests_per_second,
        batch_size=batch_size,
    )
    driver_judge = pool.driver
    progress = progress or BatchProgress()
    report = AgreementReport.start(driver_judge, paths, seed=seed, limit=limit)
    pending: dict[int, LabelledItem] = {}

    def as_grade_items() -> Iterator[GradeItem]:
        items = select_items(paths, limit=limit, seed=seed, report=report, progress=progress)
        for index, item in enumerate(items):
            pending[index] = dataclasses.replace(item, output="")  # the output goes to Ray
            yield GradeItem(
                id=index, output=item.output, task=item.task, rubric=item.rubric, line=item.line
            )

    pairs: list[Pair] = []
    for result in pool.grade(as_grade_items(), None, source=", ".join(report.files)):
        item = pending.pop(int(result.id), None)
        if item is None:  # a replayed batch: this item is counted already
            continue
        evaluation = Evaluation(
            result=result.result,
            explanation=result.error or "",
            criteria=result.criteria,
            usage=result.usage,
            latency_s=result.latency_s,
            mode=driver_judge.mode,
            model=result.model,
        )
        record_evaluation(report, pairs, int(result.id), item, evaluation, progress)
    finish_report(report, pairs, seed=seed, started=started)
    return report
