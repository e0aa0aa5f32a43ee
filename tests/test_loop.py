"""The loop's pure core (`_core.decide`, `feedback_text`, `better_draft`), with no model or graph.

`refine` and `RubricMiddleware` both act on these decisions through `GradingLoop`; their own
tests check the wiring, these check every branch of the decisions themselves.
"""

from __future__ import annotations

import pytest

from rubricate import Budget, CriterionVerdict, Evaluation, EvaluationResult, Usage
from rubricate._judge._evidence import FEEDBACK_MESSAGE_NAME, FEEDBACK_SOURCE
from rubricate._loop._core import (
    CriterionRecord,
    RubricEvaluation,
    RunStatus,
    better_draft,
    decide,
    feedback_message,
    feedback_text,
    run_criteria,
)

CITY = CriterionVerdict(id="city", name="Names the city", passed=False, gap="No city named.")
SHORT = CriterionVerdict(id="short", name="Under 20 words", passed=True)
TITLE = CriterionVerdict(
    id="title", name="Has a title", passed=False, gap="No title.", required=False
)
ONE_CALL = Usage(input_tokens=100, output_tokens=10, calls=1)


def evaluation(
    result: EvaluationResult, *criteria: CriterionVerdict, usage: Usage = ONE_CALL
) -> Evaluation:
    return Evaluation(result=result, explanation="...", criteria=criteria, usage=usage)


def test_needs_revision_before_the_cap_continues_with_feedback() -> None:
    decision = decide(
        evaluation("needs_revision", CITY, SHORT),
        iteration=0,
        max_iterations=3,
        budget=Budget(),
        spent=Usage(),
    )
    assert decision.status == "needs_revision"
    assert decision.stop_reason is None
    assert decision.spent == ONE_CALL
    assert decision.feedback == feedback_text([CITY, SHORT])


def test_needs_revision_on_the_last_pass_reaches_the_cap_without_feedback() -> None:
    decision = decide(
        evaluation("needs_revision", CITY),
        iteration=2,
        max_iterations=3,
        budget=Budget(),
        spent=Usage(),
    )
    assert decision.status == "max_iterations_reached"
    assert decision.stop_reason == "the rubric was not satisfied after 3 grading passes"
    assert decision.feedback is None


@pytest.mark.parametrize("result", ["satisfied", "failed", "grader_error"])
@pytest.mark.parametrize("iteration", [0, 2])
def test_other_results_end_the_run_as_they_are(result: EvaluationResult, iteration: int) -> None:
    decision = decide(
        evaluation(result, SHORT),
        iteration=iteration,
        max_iterations=3,
        budget=Budget(max_grader_calls=1),  # even a spent budget does not change a final result
        spent=Usage(calls=5),
    )
    assert decision.status == result
    assert decision.stop_reason is None and decision.feedback is None
    assert decision.spent == Usage(calls=6, input_tokens=100, output_tokens=10)


def test_a_pass_that_uses_up_the_budget_stops_instead_of_revising() -> None:
    decision = decide(
        evaluation("needs_revision", CITY),
        iteration=0,
        max_iterations=3,
        budget=Budget(max_grader_tokens=200),
        spent=Usage(input_tokens=90),
    )
    assert decision.status == "budget_exhausted"
    assert decision.stop_reason == "the grader-token budget is used up (200 of 200 tokens)"
    assert decision.feedback is None


def test_the_cap_wins_over_the_budget_on_the_last_pass() -> None:
    decision = decide(
        evaluation("needs_revision", CITY),
        iteration=0,
        max_iterations=1,
        budget=Budget(max_grader_calls=1),
        spent=Usage(),
    )
    assert decision.status == "max_iterations_reached"


def test_feedback_names_each_gap_then_the_optional_ones_then_what_to_keep() -> None:
    text = feedback_text([CITY, TITLE, SHORT])
    assert text.splitlines() == [
        "A grader checked your work against the rubric. Revise it before finishing.",
        "",
        "Criteria not met yet:",
        "- Names the city: No city named.",
        "",
        "Optional criteria not met (improve them if you can):",
        "- Has a title: No title.",
        "",
        "Criteria already met (do not regress these):",
        "- Under 20 words",
        "",
        "Reply with the complete revised answer, addressing every criterion not met yet.",
    ]
    blank = CriterionVerdict(id="x", name="X", passed=False, gap="")
    assert "- X: no specific feedback" in feedback_text([blank])


def test_the_feedback_message_is_tagged_so_the_judge_skips_it() -> None:
    message = feedback_message("Revise.")
    assert message.type == "human" and message.content == "Revise."
    assert message.name == FEEDBACK_MESSAGE_NAME
    assert message.additional_kwargs == {"lc_source": FEEDBACK_SOURCE}


def test_the_best_draft_is_the_one_passing_most_required_criteria_earliest_on_a_tie() -> None:
    first = better_draft(None, evaluation("needs_revision", CITY, SHORT), text="a", iteration=0)
    assert first == {"text": "a", "passed_required": 1, "iteration": 0}
    # An optional criterion does not count; a tie keeps the earlier draft.
    tie = better_draft(
        first, evaluation("needs_revision", CITY, SHORT, TITLE), text="b", iteration=1
    )
    assert tie is first
    better = better_draft(
        first,
        evaluation("satisfied", CriterionVerdict(id="city", name="N", passed=True), SHORT),
        text="c",
        iteration=2,
    )
    assert better == {"text": "c", "passed_required": 2, "iteration": 2}
    assert better_draft(better, evaluation("grader_error"), text="d", iteration=3) is better


def test_the_run_keeps_the_criterion_names_of_its_first_pass_that_named_any() -> None:
    def record(result: RunStatus, *names: str) -> RubricEvaluation:
        criteria: list[CriterionRecord] = [{"name": n, "passed": False} for n in names]
        return {
            "grading_run_id": "r",
            "iteration": 0,
            "result": result,
            "explanation": "",
            "criteria": criteria,
            "unverified": False,
            "usage": {},
            "latency_s": 0.0,
        }

    assert run_criteria([], record("needs_revision", "A", "B")) == ["A", "B"]
    assert run_criteria(None, record("max_iterations_reached", "A")) == ["A"]
    assert run_criteria(["A", "B"], record("needs_revision", "C")) == ["A", "B"]  # frozen
    assert run_criteria([], record("failed", "A")) == []  # a failed pass names none
    assert run_criteria([], record("grader_error")) == []


def test_an_evaluation_survives_a_checkpoint_as_plain_data() -> None:
    """The resumable grading pass keeps `to_dict()` in the checkpoint and reads it back."""
    evaluation = Evaluation(
        result="failed",
        explanation="Cannot be judged.",
        criteria=(
            CITY,
            CriterionVerdict(
                id="short",
                name="Under 20 words",
                passed=True,
                reason="It has 4 words.",
                decided_by="check",
            ),
            CriterionVerdict(
                id="src", name="Cites a source", passed=False, gap="?", unscorable=True
            ),
            CriterionVerdict(
                id="tone",
                name="Polite",
                passed=False,
                gap="failed closed",
                unverified=True,
                confidence=0.25,
                unsure=True,
                required=False,
            ),
        ),
        usage=ONE_CALL,
        latency_s=1.5,
        mode="joint",
        model="openai:gpt-5-mini",
    )
    assert Evaluation.from_dict(evaluation.to_dict()) == evaluation
    assert Evaluation.from_dict(
        Evaluation(result="satisfied", explanation="", skipped=True).to_dict()
    ).skipped
