"""Deciding code-checked criteria: a Python callable instead of a model call.

A check can never crash a grading run: whatever it raises or returns that is not a verdict
becomes a failed verdict whose gap says what went wrong. The one exception it may raise to
decide nothing is `CheckUndecided`: the criterion then goes to the judge.
"""

from __future__ import annotations

import inspect
from typing import Any

from .._exceptions import CheckUndecided
from .._redact import redact
from .._rubric._criterion import Criterion
from .._types import CriterionVerdict, Evidence

__all__ = ["run_check"]


async def run_check(criterion: Criterion, evidence: Evidence) -> CriterionVerdict | str:
    """Decide `criterion` with its `check`; exceptions become failed verdicts, never crashes.

    A check that raises `CheckUndecided` decides nothing: its reason is returned, and the
    criterion goes to the judge. `KeyboardInterrupt` and cancellation propagate: they are the
    user's, not the check's.
    """
    assert criterion.check is not None, "run_check needs a criterion with a check"
    name = _check_name(criterion.check)
    try:
        outcome: Any = criterion.check(evidence)
        if inspect.isawaitable(outcome):
            outcome = await outcome
    except CheckUndecided as exc:
        return str(exc) or f"The check {name} could not read this output."
    except Exception as exc:
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return _verdict(criterion, False, redact(f"The check {name} raised {detail}"))
    if isinstance(outcome, bool):
        gap = "" if outcome else f"The check {name} failed."
        return _verdict(criterion, outcome, gap)
    if (
        isinstance(outcome, tuple)
        and len(outcome) == 2
        and isinstance(outcome[0], bool)
        and isinstance(outcome[1], str)
    ):
        passed, gap = outcome
        return _verdict(criterion, passed, gap.strip() or f"The check {name} failed.")
    return _verdict(
        criterion,
        False,
        f"The check {name} returned {outcome!r:.80}; expected a bool or a (bool, gap) tuple.",
    )


def _verdict(criterion: Criterion, passed: bool, gap: str) -> CriterionVerdict:
    return CriterionVerdict(
        id=criterion.id,
        name=criterion.description,
        passed=passed,
        gap="" if passed else gap,
        required=criterion.required,
        decided_by="check",
    )


def _check_name(check: Any) -> str:
    name = getattr(check, "__qualname__", None) or getattr(check, "__name__", None)
    if not isinstance(name, str):  # a callable object or a functools.partial: name its type
        name = type(check).__qualname__
    # A lambda defined in a function is qualified, as in `make.<locals>.<lambda>`.
    return "(lambda)" if name.rsplit(".", 1)[-1] == "<lambda>" else f"`{name}`"
