"""Code-checked criteria: decided in Python, never crash a grading run."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import pytest

from rubricate import Criterion, CriterionVerdict, Evidence
from rubricate._judge._code_checks import run_check

EVIDENCE = Evidence(output="The answer is 42.", task="What is the answer?")


def short_output(evidence: Evidence) -> bool:
    return len(evidence.output) < 30


def mentions_43(evidence: Evidence) -> tuple[bool, str]:
    return "43" in evidence.output, "The output does not mention 43."


async def async_mentions_42(evidence: Evidence) -> bool:
    await asyncio.sleep(0)
    return "42" in evidence.output


async def async_with_gap(evidence: Evidence) -> tuple[bool, str]:
    await asyncio.sleep(0)
    return False, "  Needs a citation.  "


def exploding(evidence: Evidence) -> bool:
    raise ValueError("no output to check")


async def async_exploding(evidence: Evidence) -> bool:
    await asyncio.sleep(0)
    raise KeyError("missing")


async def check(fn: Any, *, required: bool = True) -> CriterionVerdict:
    criterion = Criterion(id="c1", description="The check holds", required=required, check=fn)
    return await run_check(criterion, EVIDENCE)


async def test_passing_sync_check_is_a_passing_verdict_decided_by_check() -> None:
    verdict = await check(short_output)
    assert verdict == CriterionVerdict(
        id="c1", name="The check holds", passed=True, gap="", required=True, decided_by="check"
    )
    assert verdict.to_dict() == {
        "id": "c1",
        "name": "The check holds",
        "passed": True,
        "gap": "",
        "required": True,
        "decided_by": "check",
    }


async def test_failing_bool_check_gets_a_default_gap_naming_the_check() -> None:
    verdict = await check(lambda ev: False, required=False)
    assert not verdict.passed
    assert verdict.gap == "The check (lambda) failed."
    assert verdict.required is False
    assert verdict.decided_by == "check"


async def test_tuple_check_reports_its_gap() -> None:
    verdict = await check(mentions_43)
    assert (verdict.passed, verdict.gap) == (False, "The output does not mention 43.")


async def test_tuple_check_that_passes_has_no_gap() -> None:
    verdict = await check(lambda ev: (True, "a note that must not become a gap"))
    assert (verdict.passed, verdict.gap) == (True, "")


@pytest.mark.parametrize("gap", ["", "   "])
async def test_false_with_empty_gap_gets_a_default_gap(gap: str) -> None:
    verdict = await check(lambda ev: (False, gap))
    assert (verdict.passed, verdict.gap) == (False, "The check (lambda) failed.")


async def test_async_checks_are_awaited() -> None:
    assert (await check(async_mentions_42)).passed is True
    verdict = await check(async_with_gap)
    assert (verdict.passed, verdict.gap) == (False, "Needs a citation.")


async def test_sync_check_returning_an_awaitable_is_awaited() -> None:
    verdict = await check(lambda ev: async_mentions_42(ev))
    assert verdict.passed is True


@pytest.mark.parametrize(
    ("fn", "expected_gap"),
    [
        (exploding, "The check `exploding` raised ValueError: no output to check"),
        (async_exploding, "The check `async_exploding` raised KeyError: 'missing'"),
        (lambda ev: 1 / 0, "The check (lambda) raised ZeroDivisionError: division by zero"),
        (lambda ev: ev.nope, "raised AttributeError: 'Evidence' object has no attribute 'nope'"),
    ],
)
async def test_a_check_that_raises_is_a_failed_verdict(fn: Any, expected_gap: str) -> None:
    verdict = await check(fn)
    assert verdict.passed is False
    assert verdict.decided_by == "check"
    assert verdict.gap.endswith(expected_gap)


@pytest.mark.parametrize(
    ("returned", "shown"),
    [
        (None, "None"),
        ("yes", "'yes'"),
        (1, "1"),
        ((True, "gap", "extra"), "(True, 'gap', 'extra')"),
        ((True,), "(True,)"),
        ((1, "gap"), "(1, 'gap')"),
        ((False, None), "(False, None)"),
        ([True, "gap"], "[True, 'gap']"),
    ],
)
async def test_a_check_returning_something_else_is_a_failed_verdict(
    returned: Any, shown: str
) -> None:
    def odd(evidence: Evidence) -> Any:
        return returned

    verdict = await check(odd)
    assert verdict.passed is False
    assert verdict.gap == (
        f"The check `{odd.__qualname__}` returned {shown}; expected a bool or a (bool, gap) tuple."
    )


async def test_an_unhelpful_return_value_is_shown_truncated() -> None:
    verdict = await check(lambda ev: "x" * 500)
    assert "returned 'xxx" in verdict.gap
    assert "x" * 100 not in verdict.gap
    assert verdict.gap.endswith("expected a bool or a (bool, gap) tuple.")


async def test_callable_objects_and_partials_are_named_by_type() -> None:
    class LengthCheck:
        def __call__(self, evidence: Evidence) -> bool:
            return False

    def over(evidence: Evidence, limit: int) -> bool:
        return len(evidence.output) > limit

    assert (await check(LengthCheck())).gap.endswith("LengthCheck` failed.")
    assert (await check(functools.partial(over, limit=100))).gap == "The check `partial` failed."


async def test_keyboard_interrupt_propagates() -> None:
    def interrupted(evidence: Evidence) -> bool:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        await check(interrupted)


async def test_cancellation_propagates() -> None:
    async def cancelled(evidence: Evidence) -> bool:
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await check(cancelled)


async def test_the_check_receives_the_evidence() -> None:
    seen: list[Evidence] = []

    def record(evidence: Evidence) -> bool:
        seen.append(evidence)
        return True

    await check(record)
    assert seen == [EVIDENCE]
