from __future__ import annotations

import pytest
from pydantic import ValidationError

from rubricate import CriterionVerdict, Evaluation, GraderResponse


def test_from_an_evaluation() -> None:
    evaluation = Evaluation(
        result="needs_revision",
        explanation="1 of 2 required criteria are not met.",
        criteria=(
            CriterionVerdict(id="a", name="Mentions Paris", passed=True),
            CriterionVerdict(id="b", name="Under ten words", passed=False, gap="Too long."),
        ),
    )
    response = GraderResponse.from_evaluation(evaluation)
    assert response.result == "needs_revision"
    assert response.criteria == [
        {"name": "Mentions Paris", "passed": True},
        {"name": "Under ten words", "passed": False, "gap": "Too long."},
    ]


def test_a_grader_error_has_no_verdict() -> None:
    with pytest.raises(ValueError, match="grader_error"):
        GraderResponse.from_evaluation(Evaluation(result="grader_error", explanation="boom"))


@pytest.mark.parametrize(
    ("result", "criteria"),
    [
        ("satisfied", [{"name": "x", "passed": False, "gap": "missing"}]),
        ("needs_revision", [{"name": "x", "passed": True}]),
        ("needs_revision", [{"name": "x", "passed": False}]),
    ],
)
def test_inconsistent_verdicts_are_rejected_as_in_deepagents(
    result: str, criteria: list[dict[str, object]]
) -> None:
    with pytest.raises(ValidationError):
        GraderResponse.model_validate({"result": result, "explanation": "", "criteria": criteria})
