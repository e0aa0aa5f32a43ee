"""Batch grading: a JSONL file of outputs in, one JSON result line per item out.

How a batch stays cheap and safe to interrupt:

- **Streaming.** The input is read one line at a time (`_items.py`), only as fast as workers
  free up.
- **Append-only results, resume, cache.** See `_results.py`: each result is written the moment
  it is ready, ids already in the results file are skipped, identical work is graded once.
- **Failures are data.** A malformed line is reported with its line number and skipped; a judge
  failure on one item is recorded on that item (`error`), and the batch goes on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Unpack

from .._exceptions import RubricError
from .._judge._judge import Judge, judge_for
from .._judge._options import JudgeOptions
from .._judge._scorer import RubricScorer
from .._models import ModelLike
from .._rubric._rubric import Rubric, RubricLike
from .._sync import run_sync
from ._items import GradeItem, ItemResult, iter_items
from ._results import (
    ResultCache,
    ResultsFile,
    cache_key,
    from_cached,
    judge_fingerprint,
    pending_count,
    results_target,
    resume,
)
from ._streaming import BatchProgress, LineProblem, check_count, evaluate_item, run_bounded
from ._summary import GradeSummary

__all__ = ["agrade_file", "grade_file", "grade_item", "parse_batch_rubric"]


def grade_file(
    input_path: str | Path,
    results_path: str | Path | None = None,
    *,
    judge: Judge | ModelLike = "local",
    rubric: RubricLike | None = None,
    concurrency: int = 1,
    progress: BatchProgress | None = None,
    **options: Unpack[JudgeOptions],
) -> GradeSummary:
    """Grade a JSONL file synchronously; see `agrade_file`."""
    return run_sync(
        agrade_file(
            input_path,
            results_path,
            judge=judge,
            rubric=rubric,
            concurrency=concurrency,
            progress=progress,
            **options,
        )
    )


async def agrade_file(
    input_path: str | Path,
    results_path: str | Path | None = None,
    *,
    judge: Judge | ModelLike = "local",
    rubric: RubricLike | None = None,
    concurrency: int = 1,
    progress: BatchProgress | None = None,
    **options: Unpack[JudgeOptions],
) -> GradeSummary:
    r"""Grade every line of a JSONL file and append one result line per item to `results_path`.

    Args:
        input_path: JSONL, one `{"id", "output", "task"?, "rubric"?}` object a line.
        results_path: Where results go (appended; ids already there are skipped). Defaults to
            `<input stem>.results.jsonl` next to the input.
        judge: A `Judge`, or a model (`"local"`, `"provider:model-id"`...) for one built with
            `options`.
        rubric: The batch rubric; a line's own `rubric` overrides it. A line with neither is
            reported as malformed.
        concurrency: Items graded at once. On remote judges, concurrent requests; on the
            embedded model (per-criterion mode), items whose calls run as one batch. 1 where it
            cannot help (`Judge.concurrent_items`).
        progress: Receives an event per finished item and per skipped line.
        **options: The judge's settings (`JudgeOptions`) when `judge` names a model.

    Returns:
        The summary over the whole results file, with this run's own counts.

    Raises:
        RubricError: `rubric` cannot be parsed or has no criteria.
        ValueError: Bad arguments, such as the results file being the input file.

    Example:
        ```python
        summary = await agrade_file(
            "outputs.jsonl", "results.jsonl",
            judge=Judge("openai:gpt-5-mini"), rubric="- Cites a source\n- Under 100 words",
            concurrency=8,
        )
        summary.pass_rate, summary.errors
        ```

    """
    started = time.perf_counter()
    check_count("concurrency", concurrency)
    judge = judge_for(judge, options, "grade_file()")
    default_rubric = parse_batch_rubric(rubric)
    source = Path(input_path)
    target = results_target(source, results_path)
    if not judge.concurrent_items:
        concurrency = 1  # one llama.cpp context: calls would only queue, and evict its KV cache
    progress = progress or BatchProgress()
    summary = GradeSummary(
        input_path=str(source), results_path=str(target), judge=judge.model_name, mode=judge.mode
    )
    scorer = RubricScorer(judge, None)
    fingerprint = judge_fingerprint(judge)

    with ResultsFile(target) as results:
        cache = ResultCache(results)
        done = resume(results, cache, summary, progress)
        progress.start(total=pending_count(source, done))

        def items() -> Iterator[GradeItem]:
            for item in iter_items(source, batch_rubric=default_rubric is not None):
                if isinstance(item, LineProblem):
                    summary.add_problem(item)
                    progress.problem(item)
                elif item.id not in done:
                    yield item

        async def grade(item: GradeItem) -> None:
            item_rubric = item.rubric or default_rubric
            assert item_rubric is not None  # lines without any rubric were reported above
            result = await _grade_one(item, item_rubric, judge, scorer, cache, fingerprint)
            summary.add(result)
            progress.done(
                passed=result.passed, error=result.error is not None, cached=result.cached
            )

        await run_bounded(items(), grade, concurrency=concurrency)
    summary.wall_s = time.perf_counter() - started
    return summary


async def _grade_one(
    item: GradeItem,
    rubric: Rubric,
    judge: Judge,
    scorer: RubricScorer,
    cache: ResultCache,
    fingerprint: Mapping[str, Any],
) -> ItemResult:
    key = cache_key(rubric, item, fingerprint)
    if key is not None:
        while (found := cache.lookup(key)) is not None:
            if isinstance(found, dict):
                result = from_cached(item, found, key)
                cache.results.append(result)
                return result
            await found.wait()  # an identical item is being graded right now
        cache.claim(key)
    offset: int | None = None
    try:
        result = await grade_item(item, rubric, judge, scorer, key)
        written = cache.results.append(result)
        offset = written if result.error is None else None
        return result
    finally:
        if key is not None:
            cache.release(key, offset)


async def grade_item(
    item: GradeItem, rubric: Rubric, judge: Judge, scorer: RubricScorer, key: str | None
) -> ItemResult:
    """Grade one item: its result line, with a judge failure recorded (redacted), never raised.

    The per-item step every engine shares: this process (`agrade_file`) and Ray's actors.
    """
    evaluation = await evaluate_item(judge, rubric, output=item.output, task=item.task)
    scored = scorer.score(evaluation)
    error = evaluation.explanation if evaluation.result == "grader_error" else None
    return ItemResult(
        id=item.id,
        line=item.line,
        score=float(scored.score),
        passed=scored.passed,
        result=evaluation.result,
        criteria=evaluation.criteria,
        usage=evaluation.usage,
        latency_s=evaluation.latency_s,
        error=error,
        model=evaluation.model or judge.model_name,
        mode=evaluation.mode or judge.mode,
        cache_key=key if error is None else None,
    )


def parse_batch_rubric(rubric: RubricLike | None) -> Rubric | None:
    """The batch rubric, parsed once; a rubric with no criteria is an error."""
    if rubric is None:
        return None
    parsed = Rubric.parse(rubric)
    if not parsed:
        raise RubricError("the rubric has no criteria", source=parsed.source)
    return parsed
