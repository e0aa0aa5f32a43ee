from __future__ import annotations

import asyncio
from typing import Any

import pytest

from rubricate import RetryPolicy, create_rubric_scorer, is_task_complete, refine
from rubricate.testing import ScriptedChatModel, joint_reply

FAST = RetryPolicy(max_retries=0, timeout=None)


def short(task: Any, answer: str) -> tuple[bool, str]:
    words = len(answer.split())
    return words < 5, f"has {words} words"


async def polite(task: Any, answer: str) -> bool:
    return "please" in answer.lower()


@pytest.mark.parametrize(
    ("strategy", "answer", "complete"),
    [
        ("all", "please go", True),
        ("all", "go now", False),
        ("any", "go now", True),
        ("any", "go away now you fool", False),
    ],
)
def test_strategies(strategy: Any, answer: str, complete: bool) -> None:
    check = is_task_complete(scorers=[short, polite], strategy=strategy)
    result = check.run("Ask nicely", answer)
    assert result.complete is complete
    assert [o.name for o in result.outcomes] == ["short", "polite"]
    assert len(result.reason.splitlines()) == 2


def test_a_rubric_scorer_and_a_function_together() -> None:
    judge = ScriptedChatModel(script=[joint_reply(("C1", "fail", "No source."))])
    scorer = create_rubric_scorer(judge, "- Cites a source", retry=FAST)
    result = is_task_complete(scorers=[scorer, short]).run("Answer", "Paris")
    assert not result.complete
    assert result.outcomes[0].reason.startswith("Score 0/1")
    assert "No source." in result.reason
    assert result.outcomes[1].complete


def test_a_raising_scorer_counts_as_not_complete_with_the_reason() -> None:
    def broken(task: Any, answer: str) -> bool:
        raise KeyError("missing")

    result = is_task_complete(scorers=[broken, short], strategy="any").run("x", "ok")
    assert result.complete  # `any`: the other scorer carries it
    assert result.outcomes[0].error is not None and "KeyError" in result.outcomes[0].reason


async def test_a_slow_scorer_is_cancelled_at_the_timeout() -> None:
    cancelled = asyncio.Event()

    async def slow(task: Any, answer: str) -> bool:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return True

    result = await is_task_complete(scorers=[slow], timeout=0.05).arun("x", "y")
    assert not result.complete
    assert "timed out after 0.05 s and was cancelled" in result.outcomes[0].reason
    assert cancelled.is_set()


async def test_parallel_scorers_overlap() -> None:
    async def wait(task: Any, answer: str) -> bool:
        await asyncio.sleep(0.2)
        return True

    result = await is_task_complete(scorers=[wait, wait, wait]).arun("x", "y")
    assert result.complete
    assert result.latency_s < 0.5


def test_on_complete_is_called_and_its_errors_are_suppressed() -> None:
    seen: list[bool] = []

    def callback(result: Any) -> None:
        seen.append(result.complete)
        raise RuntimeError("callback bug")

    is_task_complete(scorers=[short], on_complete=callback).run("x", "ok")
    assert seen == [True]


@pytest.mark.parametrize(
    ("value", "complete"),
    [
        (1, True),
        (0.5, False),
        ({"score": 1, "reason": "fine"}, True),
        ({"passed": False}, False),
        ("yes", False),
    ],
)
def test_scorer_return_shapes(value: Any, complete: bool) -> None:
    result = is_task_complete(scorers=[lambda task, answer: value]).run("x", "y")
    assert result.complete is complete


def test_refine_uses_a_completion_check_as_its_judge() -> None:
    drafts = iter(["this answer is far too long", "short one"])
    result = refine(
        lambda task, feedback: next(drafts),
        "Answer briefly.",
        completion=is_task_complete(scorers=[short]),
    )
    assert result.status == "satisfied"
    assert result.output == "short one"
    first = result.evaluations[0]
    assert first["result"] == "needs_revision"
    assert first["criteria"][0]["gap"] == "has 6 words"


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at least one"):
        is_task_complete(scorers=[])
    with pytest.raises(ValueError, match="strategy"):
        is_task_complete(scorers=[short], strategy="most")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="scorer"):
        is_task_complete(scorers=[42])  # type: ignore[list-item]


async def test_each_outcome_has_an_id_a_name_a_duration_and_the_result_says_timed_out() -> None:
    async def slow(task: Any, answer: str) -> bool:
        await asyncio.sleep(30)
        return True

    judge = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    scorer = create_rubric_scorer(
        judge, "- Says hi", retry=FAST, id="greets", name="Greets the user"
    )
    result = await is_task_complete(scorers=[scorer, short, slow], timeout=0.2).arun("x", "hi")
    assert [(o.id, o.name) for o in result.outcomes] == [
        ("greets", "Greets the user"),
        ("short", "short"),
        ("slow", "slow"),
    ]
    assert [o.timed_out for o in result.outcomes] == [False, False, True]
    assert result.timed_out
    assert all(o.duration_s >= 0 for o in result.outcomes)
    assert result.outcomes[2].duration_s >= 0.2
    data = result.to_dict()
    assert data["timed_out"] is True
    assert set(data["scorers"][0]) == {
        "id",
        "name",
        "complete",
        "score",
        "reason",
        "error",
        "usage",
        "duration_s",
        "timed_out",
    }
    assert "- [complete] Greets the user:" in result.reason


def test_unnamed_scorers_get_positional_ids() -> None:
    judge = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    scorer = create_rubric_scorer(judge, "- Says hi", retry=FAST)
    result = is_task_complete(scorers=[scorer, lambda task, answer: True]).run("x", "hi")
    assert [(o.id, o.name) for o in result.outcomes] == [
        ("rubric-scorer-1", "rubric scorer 1"),
        ("scorer-2", "scorer 2"),
    ]
    assert not result.timed_out
