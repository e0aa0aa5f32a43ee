"""Completion checks in the reference scorer's style: several scorers decide "done" together.

`is_task_complete(scorers=[...], strategy="all")` builds a check that the loops (`refine`,
`RubricMiddleware`) can use instead of, or besides, a rubric. Each scorer is a rubric scorer or a
plain function; one that raises or runs past the timeout counts as not complete, with the reason,
and is cancelled rather than left running.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

from langchain_core.messages import BaseMessage

from .._judge._retry import describe_error
from .._judge._scorer import RubricScorer, ScoreResult
from .._types import CriterionVerdict, Evaluation, Usage

__all__ = ["CompletionCheck", "CompletionResult", "ScorerOutcome", "is_task_complete"]

logger = logging.getLogger("rubricate")

Scorer: TypeAlias = RubricScorer | Callable[..., Any]
"""A `RubricScorer`, or `fn(input, output)` returning a bool, a number (1 = complete), a
`(bool, reason)` tuple, a `ScoreResult`, or a mapping with `score` / `passed` and `reason`."""


@dataclass(kw_only=True, frozen=True)
class ScorerOutcome:
    """One scorer's say (the reference's per-scorer result, in snake_case)."""

    id: str
    """The scorer's `id` attribute, else its function name, else `scorer-<n>`."""
    name: str
    complete: bool
    reason: str
    score: float | None = None
    error: str | None = None
    """Set when the scorer raised or timed out."""
    usage: Usage = field(default_factory=Usage)
    duration_s: float = 0.0
    """Wall time of this scorer, until it answered, raised or was cancelled."""
    timed_out: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "id": self.id,
            "name": self.name,
            "complete": self.complete,
            "score": self.score,
            "reason": self.reason,
            "error": self.error,
            "usage": self.usage.to_dict(),
            "duration_s": round(self.duration_s, 4),
            "timed_out": self.timed_out,
        }


@dataclass(kw_only=True, frozen=True)
class CompletionResult:
    """The combined decision."""

    complete: bool
    reason: str
    """Every scorer's reason, one line each: the feedback when the task is not complete."""
    outcomes: tuple[ScorerOutcome, ...]
    latency_s: float = 0.0
    """Wall time of the whole check."""

    @property
    def timed_out(self) -> bool:
        """True when a scorer ran past the timeout (and counted as not complete)."""
        return any(o.timed_out for o in self.outcomes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "complete": self.complete,
            "reason": self.reason,
            "scorers": [o.to_dict() for o in self.outcomes],
            "latency_s": round(self.latency_s, 4),
            "timed_out": self.timed_out,
        }

    def to_evaluation(self) -> Evaluation:
        """The decision as an `Evaluation`, one verdict per scorer: loops treat it like a rubric."""
        verdicts = tuple(
            CriterionVerdict(
                id=f"scorer-{index}-{outcome.name}",
                name=outcome.name,
                passed=outcome.complete,
                gap="" if outcome.complete else outcome.reason,
            )
            for index, outcome in enumerate(self.outcomes, start=1)
        )
        usage = sum((o.usage for o in self.outcomes), Usage())
        return Evaluation(
            result="satisfied" if self.complete else "needs_revision",
            explanation=self.reason,
            criteria=verdicts,
            usage=usage,
            latency_s=self.latency_s,
        )


class CompletionCheck:
    """Runs its scorers on an answer and combines them with `strategy`.

    Build it with `is_task_complete`.
    """

    def __init__(
        self,
        scorers: Sequence[Scorer],
        *,
        strategy: Literal["all", "any"] = "all",
        parallel: bool = True,
        timeout: float | None = None,
        on_complete: Callable[[CompletionResult], Any] | None = None,
    ) -> None:
        if not scorers:
            raise ValueError("`scorers` needs at least one scorer")
        if strategy not in ("all", "any"):
            raise ValueError(f"`strategy` must be 'all' or 'any', got {strategy!r}")
        if timeout is not None and timeout <= 0:
            raise ValueError(f"`timeout` must be > 0 seconds or None, got {timeout!r}")
        for scorer in scorers:
            if not isinstance(scorer, RubricScorer) and not callable(scorer):
                raise TypeError(f"a scorer must be a RubricScorer or a callable, got {scorer!r}")
        self.scorers = tuple(scorers)
        self.strategy = strategy
        self.parallel = parallel
        self.timeout = timeout
        self.on_complete = on_complete

    async def arun(
        self,
        input: Any = None,
        output: Any = None,
        *,
        messages: Sequence[BaseMessage | Mapping[str, Any]] = (),
        request_context: Mapping[str, Any] | None = None,
    ) -> CompletionResult:
        """Ask every scorer; `complete` follows `strategy` over their answers."""
        started = time.perf_counter()

        async def one(index: int, scorer: Scorer) -> ScorerOutcome:
            return await self._score(index, scorer, input, output, messages, request_context)

        if self.parallel:
            outcomes = tuple(
                await asyncio.gather(*(one(i, s) for i, s in enumerate(self.scorers, start=1)))
            )
        else:
            outcomes = tuple([await one(i, s) for i, s in enumerate(self.scorers, start=1)])
        decide = all if self.strategy == "all" else any
        complete = decide(o.complete for o in outcomes)
        reason = "\n".join(
            f"- [{'complete' if o.complete else 'not complete'}] {o.name}: {o.reason}"
            for o in outcomes
        )
        result = CompletionResult(
            complete=complete,
            reason=reason,
            outcomes=outcomes,
            latency_s=time.perf_counter() - started,
        )
        if self.on_complete is not None:
            try:
                maybe = self.on_complete(result)
                if inspect.isawaitable(maybe):
                    await maybe
            except Exception:
                logger.exception("rubricate: the on_complete callback raised; continuing")
        return result

    def run(self, input: Any = None, output: Any = None, **kwargs: Any) -> CompletionResult:
        """Sync twin of `arun`."""
        from .._sync import run_sync

        return run_sync(self.arun(input, output, **kwargs))

    async def _score(
        self,
        index: int,
        scorer: Scorer,
        input: Any,
        output: Any,
        messages: Sequence[BaseMessage | Mapping[str, Any]],
        request_context: Mapping[str, Any] | None,
    ) -> ScorerOutcome:
        name = _scorer_name(scorer, index)
        key = _scorer_id(scorer, index)
        started = time.perf_counter()
        if isinstance(scorer, RubricScorer):
            call = scorer.arun(input, output, messages=messages, request_context=request_context)
        else:
            call = _call_function(scorer, input, output)
        # A task of its own, so a timeout cancels the scorer instead of abandoning it.
        task = asyncio.ensure_future(call)
        try:
            value = await asyncio.wait_for(task, self.timeout)
        except TimeoutError:
            return ScorerOutcome(
                id=key,
                name=name,
                complete=False,
                reason=f"timed out after {self.timeout:g} s and was cancelled",
                error="TimeoutError",
                duration_s=time.perf_counter() - started,
                timed_out=True,
            )
        except Exception as exc:
            detail = describe_error(exc)
            return ScorerOutcome(
                id=key,
                name=name,
                complete=False,
                reason=f"raised {detail}",
                error=detail,
                duration_s=time.perf_counter() - started,
            )
        return replace(_outcome(key, name, value), duration_s=time.perf_counter() - started)


async def _call_function(fn: Callable[..., Any], input: Any, output: Any) -> Any:
    if inspect.iscoroutinefunction(fn):
        return await fn(input, output)
    result = await asyncio.to_thread(fn, input, output)
    return await result if inspect.isawaitable(result) else result


def _outcome(key: str, name: str, value: Any) -> ScorerOutcome:
    """Read whatever a scorer returned; anything unreadable is "not complete", with why."""
    if isinstance(value, ScoreResult):
        return ScorerOutcome(
            id=key,
            name=name,
            complete=value.passed,
            reason=value.reason,
            score=value.score,
            usage=value.evaluation.usage,
        )
    if isinstance(value, bool):
        return ScorerOutcome(
            id=key,
            name=name,
            complete=value,
            reason="complete" if value else "not complete",
            score=float(value),
        )
    if isinstance(value, (int, float)):
        return ScorerOutcome(
            id=key, name=name, complete=value == 1, reason=f"score {value:g}", score=float(value)
        )
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], bool):
        return ScorerOutcome(
            id=key, name=name, complete=value[0], reason=str(value[1]), score=float(value[0])
        )
    if isinstance(value, Mapping):
        if "passed" in value:
            complete = bool(value["passed"])
        elif isinstance(value.get("score"), (int, float)):
            complete = value["score"] == 1
        else:
            complete = False
        score = value.get("score")
        return ScorerOutcome(
            id=key,
            name=name,
            complete=complete,
            reason=str(value.get("reason") or ("complete" if complete else "not complete")),
            score=float(score) if isinstance(score, (int, float)) else None,
        )
    return ScorerOutcome(
        id=key,
        name=name,
        complete=False,
        reason=f"returned {value!r:.80}, which is not a score",
        error="unreadable score",
    )


def _scorer_name(scorer: Scorer, index: int) -> str:
    name = getattr(scorer, "name", None)
    if isinstance(name, str) and name:
        return name
    if isinstance(scorer, RubricScorer):
        return f"rubric scorer {index}"
    name = getattr(scorer, "__name__", None)
    return name if name and name != "<lambda>" else f"scorer {index}"


def _scorer_id(scorer: Scorer, index: int) -> str:
    key = getattr(scorer, "id", None)
    if isinstance(key, str) and key:
        return key
    name = getattr(scorer, "__name__", None)
    if isinstance(name, str) and name and name != "<lambda>":
        return name
    return f"{'rubric-scorer' if isinstance(scorer, RubricScorer) else 'scorer'}-{index}"


def is_task_complete(
    scorers: Sequence[Scorer],
    *,
    strategy: Literal["all", "any"] = "all",
    parallel: bool = True,
    timeout: float | None = None,
    on_complete: Callable[[CompletionResult], Any] | None = None,
) -> CompletionCheck:
    """Combine scorers into one completion check (the reference's `isTaskComplete`).

    Args:
        scorers: Rubric scorers or plain functions `fn(input, output)`.
        strategy: `"all"`: complete only when every scorer says so; `"any"`: when one does.
        parallel: Run the scorers concurrently.
        timeout: Seconds each scorer may take; past it, it counts as not complete. Async scorers
            are cancelled; a sync function runs in a worker thread, which Python cannot stop,
            so its late result is discarded.
        on_complete: Called with the combined `CompletionResult` after every check.

    Example:
        ```python
        check = is_task_complete(scorers=[create_rubric_scorer("local", "- Cites a source"),
                                          lambda task, answer: len(answer.split()) < 200],
                                 strategy="all", timeout=60)
        result = refine(agent, task, completion=check)
        ```

    """
    return CompletionCheck(
        scorers, strategy=strategy, parallel=parallel, timeout=timeout, on_complete=on_complete
    )
