"""The judge inside a Ray actor: the `map_batches` callable that turns items into result rows.

Ray Data builds one `JudgeActor` per actor of the pool and hands it batches. The judge is built
once per actor (the embedded model's GGUF is loaded once per actor process, with as many
threads as the CPUs the actor reserved), and each item goes through the same `grade_item` as
`rubricate grade` on one machine, so result rows, cache keys and recorded errors are the same.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias, cast

from .._batch._grade import grade_item
from .._batch._items import ItemResult, parse_item
from .._batch._results import cache_key, judge_fingerprint
from .._batch._streaming import LineProblem, run_bounded
from .._exceptions import RubricateError
from .._judge._judge import Judge, check_judge_options
from .._judge._options import JudgeOptions
from .._judge._scorer import RubricScorer
from .._models import ModelLike, supports_grammar
from .._redact import redact
from .._rubric._rubric import Rubric
from .._types import Usage
from ._limiter import ClusterRateLimiter

__all__ = [
    "PROBLEM_COLUMN",
    "RESULT_COLUMNS",
    "JudgeActor",
    "JudgeSpec",
    "build_judge",
    "check_spec",
    "plain",
]

JudgeSpec: TypeAlias = "Judge | ModelLike | Callable[[], Judge]"
"""What builds each actor's judge: a `Judge` (pickled to the actors), a model for a default
one (`"local"`, `"provider:model-id"`), or a function of no arguments that returns a `Judge`
(for a judge that cannot be pickled, such as one holding an open HTTP client)."""

RESULT_COLUMNS: tuple[str, ...] = tuple(
    ItemResult(
        id=0, line=0, score=0.0, passed=False, result="failed", cache_of=0, cache_key=""
    ).to_dict()
)
"""The columns of a result row: every field a results-file line can have (the optional ones,
`cache_of` and `cache_key`, are null in a row without them)."""


PROBLEM_COLUMN = "_rubricate_line_problem"
"""Set by the driver on a row for an input line that is not an item: why (a user's dataset may
well have a column named `problem`, so the name is ours)."""


def check_spec(spec: JudgeSpec, options: JudgeOptions, where: str) -> None:
    """Raise `TypeError` for judge options the actors cannot be given.

    Options go to every actor pickled, beside a model spec; with a `Judge` or a function that
    builds one they would be ignored, and tools (functions, clients) may not pickle at all.
    """
    check_judge_options(spec if isinstance(spec, Judge) else "local", options, where)
    if options and _is_factory(spec):
        raise TypeError(
            f"{where}: judge options ({', '.join(options)}) apply only when `judge` names a "
            "model; this `judge` is a function, which builds the Judge with its own settings"
        )
    if options.get("tools"):
        raise TypeError(
            f"{where}: `tools` cannot be sent to Ray actors, which receive the judge options "
            "pickled, and tools may not pickle; pass `judge=` a function of no arguments that "
            "builds the `Judge` with its tools inside each actor"
        )


def build_judge(spec: JudgeSpec, options: JudgeOptions | None = None) -> Judge:
    """The `Judge` that `spec` names, with `options` when `spec` is a model."""
    options = options or {}
    check_spec(spec, options, "the Ray engine")
    if isinstance(spec, Judge):
        return spec
    if _is_factory(spec):
        judge = cast("Callable[[], Judge]", spec)()
        if not isinstance(judge, Judge):
            raise TypeError(f"the judge factory must return a Judge, got {type(judge).__name__}")
        return judge
    return Judge(cast("ModelLike", spec), **options)


def _is_factory(spec: JudgeSpec) -> bool:
    """A function that builds the judge, as opposed to a model (chat models are callable too)."""
    return callable(spec) and not isinstance(spec, (str, Judge)) and not hasattr(spec, "invoke")


class JudgeActor:
    """Grades a batch of items (a pandas DataFrame) into a DataFrame of result rows.

    Args:
        judge: Builds this actor's judge.
        options: The judge options, when `judge` is a model.
        rubric: The batch rubric; a row's own `rubric` overrides it.
        cpus: CPUs the actor reserved; the embedded model runs that many threads.
        concurrency: Items graded at once within a batch (1 on the embedded model).
        limiter: The shared `RequestSlots` actor capping requests per second, or `None`.
        source: Names the input in problems ("malformed item" errors).

    """

    def __init__(
        self,
        judge: JudgeSpec,
        rubric: Rubric | None,
        *,
        options: JudgeOptions | None = None,
        cpus: int = 1,
        concurrency: int = 1,
        limiter: Any = None,
        source: str = "dataset",
    ) -> None:
        try:
            self.judge = build_judge(judge, options)
        except Exception as exc:
            # Ray prints an actor's failure on the driver's console and in its logs, and the
            # cause (a provider's error) may quote a key: only the redacted message leaves here.
            message = redact(f"cannot build the judge in a Ray actor: {type(exc).__name__}: {exc}")
            raise RubricateError(message) from None
        model = self.judge.model
        if supports_grammar(model) and getattr(model, "n_threads", 0) is None:
            model.n_threads = cpus  # type: ignore[attr-defined]
        if limiter is not None:
            model.rate_limiter = ClusterRateLimiter(limiter)
        self.rubric = rubric
        self.scorer = RubricScorer(self.judge, None)
        self.fingerprint = judge_fingerprint(self.judge)
        self.concurrency = concurrency if self.judge.concurrent_items else 1
        self.source = source
        # One loop for the actor's life: async clients a judge caches stay bound to it.
        self._loop = asyncio.new_event_loop()

    def __call__(self, batch: Any) -> Any:
        """Grade every row of `batch`; one result row each, in the batch's order."""
        import pandas as pd

        rows = [plain(row) for row in batch.to_dict("records")]
        results = self._loop.run_until_complete(self._grade(rows))
        frame = pd.DataFrame(results, columns=list(RESULT_COLUMNS), dtype=object)
        return frame

    async def _grade(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{} for _ in rows]

        async def one(numbered: tuple[int, dict[str, Any]]) -> None:
            index, row = numbered
            out[index] = await self._grade_row(row)

        await run_bounded(enumerate(rows), one, concurrency=self.concurrency)
        return out

    async def _grade_row(self, row: Mapping[str, Any]) -> dict[str, Any]:
        line = row.get("line")
        line = line if isinstance(line, int) and not isinstance(line, bool) else 0
        problem = row.get(PROBLEM_COLUMN)
        if isinstance(problem, str):  # a line the driver could not read as an item
            return self._problem_row(row, LineProblem(path=self.source, line=line, reason=problem))
        item = parse_item(dict(row), line=line, path=self.source)
        if isinstance(item, LineProblem):
            return self._problem_row(row, item)
        rubric = item.rubric or self.rubric
        if rubric is None:
            reason = f"id {item.id!r}: no `rubric` field and no batch rubric"
            return self._problem_row(row, LineProblem(path=self.source, line=line, reason=reason))
        key = cache_key(rubric, item, self.fingerprint)
        result = await grade_item(item, rubric, self.judge, self.scorer, key)
        data = result.to_dict()
        data.setdefault("cache_key", None)
        return data

    def _problem_row(self, row: Mapping[str, Any], problem: LineProblem) -> dict[str, Any]:
        """A row that is not an item: recorded with its reason, like a judge failure."""
        return {
            **dict.fromkeys(RESULT_COLUMNS),
            "id": row.get("id"),
            "line": problem.line,
            "score": 0.0,
            "passed": False,
            "result": "grader_error",
            "criteria": [],
            "usage": Usage().to_dict(),
            "latency_s": 0.0,
            "error": f"malformed item: {problem}",
            "cached": False,
            "model": self.judge.model_name,
            "mode": self.judge.mode,
        }


def plain(value: Any) -> Any:
    """`value` with numpy and pandas leftovers (scalars, arrays, NaN) turned into plain Python.

    Rows come back from Ray as pandas or Arrow data; result lines and `parse_item` need JSON
    types. Runs on every field of every row, so the plain types return first.
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return None if math.isnan(value) else value
    if kind is dict:
        return {k: plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    tolist = getattr(value, "tolist", None)  # numpy arrays and scalars
    if callable(tolist) and not isinstance(value, (str, bytes)):
        return plain(tolist())
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
