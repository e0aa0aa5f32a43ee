"""`grade_file_ray`: `rubricate grade` on Ray, with the guarantees of the one-machine path.

The driver (this process) does what needs one place: it streams the JSONL input, reports
malformed lines with their line numbers, skips ids already in the results file, serves cache
hits, and appends each result line as its batch comes back. Ray does the grading: the pending
items go to the object store in chunks (the driver holds one chunk at a time) and through the
pool of judge actors.

- **No loss.** A killed actor is restarted and its unfinished batch graded again; a batch's
  results reach the driver only once the whole batch is done.
- **No duplicate.** The writer keeps the ids already in the results file and drops any result
  for one of them, so a batch run twice (or a resumed run) never writes an id twice.
- **Cache.** Items with the same key as an item already in the results file are copied from it;
  copies of an item still being graded wait for it on the driver and are written as copies
  when it comes back. If it failed, they are sent to Ray again, one per key.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Unpack

from .._batch._grade import parse_batch_rubric
from .._batch._items import GradeItem, ItemId, ItemResult, iter_items
from .._batch._results import (
    ResultCache,
    ResultsFile,
    cache_key,
    from_cached,
    judge_fingerprint,
    pending_count,
    results_target,
    resume,
)
from .._batch._streaming import BatchProgress, LineProblem
from .._batch._summary import GradeSummary
from .._judge._options import JudgeOptions
from .._rubric._rubric import RubricLike
from ._actor import JudgeSpec
from ._pool import ActorPool

__all__ = ["grade_file_ray"]


def grade_file_ray(
    input_path: str | Path,
    results_path: str | Path | None = None,
    *,
    judge: JudgeSpec = "local",
    rubric: RubricLike | None = None,
    actors: int = 1,
    cpus_per_actor: int = 1,
    concurrency: int = 1,
    requests_per_second: float | None = None,
    batch_size: int | None = None,
    progress: BatchProgress | None = None,
    **options: Unpack[JudgeOptions],
) -> GradeSummary:
    r"""Grade a JSONL file on Ray; the results file and summary are those of `grade_file`.

    Ray must be reachable: an initialised Ray, or `ray.init` is called for you (a local
    instance, or the cluster in `$RAY_ADDRESS`). Synchronous, like Ray's API.

    Args:
        input_path: JSONL, one `{"id", "output", "task"?, "rubric"?}` object a line.
        results_path: Where results go (appended; ids already there are skipped). Defaults to
            `<input stem>.results.jsonl` next to the input.
        judge: A `Judge`, a model for a default one, or a function returning a `Judge`
            (see `grade_dataset`).
        rubric: The batch rubric; a line's own `rubric` overrides it.
        actors: Judge actors in the pool.
        cpus_per_actor: CPUs each actor reserves (the embedded model's threads).
        concurrency: Items each actor grades at once (1 on the embedded model).
        requests_per_second: Cap on model calls per second across the cluster, or `None`.
        batch_size: Items per actor batch (see `grade_dataset`); results are written a batch
            at a time.
        progress: Receives an event per finished item and per skipped line.
        **options: The judge's settings (`JudgeOptions`) when `judge` names a model, sent to
            every actor; `tools` cannot be (see `grade_dataset`).

    Returns:
        The summary over the whole results file, with this run's own counts.

    Example:
        ```python
        summary = grade_file_ray(
            "outputs.jsonl", judge="local", rubric="- Cites a source", actors=4
        )
        ```

    """
    started = time.perf_counter()
    pool = ActorPool.start(
        "grade_file_ray()",
        judge,
        options,
        actors=actors,
        cpus_per_actor=cpus_per_actor,
        concurrency=concurrency,
        requests_per_second=requests_per_second,
        batch_size=batch_size,
    )
    driver_judge = pool.driver
    default_rubric = parse_batch_rubric(rubric)
    source = Path(input_path)
    target = results_target(source, results_path)
    progress = progress or BatchProgress()
    summary = GradeSummary(
        input_path=str(source),
        results_path=str(target),
        judge=driver_judge.model_name,
        mode=driver_judge.mode,
    )
    fingerprint = judge_fingerprint(driver_judge)

    with ResultsFile(target) as results:
        cache = ResultCache(results)
        done = resume(results, cache, summary, progress)
        progress.start(total=pending_count(source, done))
        waiting: dict[str, list[GradeItem]] = {}  # key being graded -> items that will copy it
        key_of: dict[ItemId, str] = {}  # id of an item being graded -> its cache key

        def write(result: ItemResult) -> None:
            if result.id in done:  # the idempotent step: one line per id, whatever Ray replays
                return
            done.add(result.id)
            offset = results.append(result)
            summary.add(result)
            progress.done(
                passed=result.passed, error=result.error is not None, cached=result.cached
            )
            if result.cache_key is not None:
                cache.remember(result.cache_key, offset)

        def first_round() -> Iterator[GradeItem]:
            for item in iter_items(source, batch_rubric=default_rubric is not None):
                if isinstance(item, LineProblem):
                    summary.add_problem(item)
                    progress.problem(item)
                    continue
                if item.id in done:
                    continue
                rubric_of_item = item.rubric or default_rubric
                assert rubric_of_item is not None  # lines without any rubric are problems
                key = cache_key(rubric_of_item, item, fingerprint)
                if key is not None:
                    stored = cache.lookup(key)
                    if isinstance(stored, dict):
                        write(from_cached(item, stored, key))
                        continue
                    if key in waiting:
                        waiting[key].append(item)
                        continue
                    waiting[key] = []
                    key_of[item.id] = key
                yield item

        items: Iterable[GradeItem] = first_round()
        while True:
            again: list[GradeItem] = []
            for result in pool.grade(items, default_rubric, source=str(source)):
                write(result)
                key = key_of.pop(result.id, None)
                if key is None:
                    continue
                followers = waiting.pop(key, [])
                if result.cache_key is None and followers:  # failed: the next one tries
                    leader, *rest = followers
                    waiting[key] = rest
                    key_of[leader.id] = key
                    again.append(leader)
                    continue
                stored = cache.lookup(key) if followers else None
                for follower in followers:
                    assert isinstance(stored, dict)  # the leader's line was just written
                    write(from_cached(follower, stored, key))
            if not again:
                break
            items = again
    summary.wall_s = time.perf_counter() - started
    return summary
