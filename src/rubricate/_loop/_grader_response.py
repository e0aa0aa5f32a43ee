"""`GraderResponse`: deepagents' shape of a grader's verdict, for code written against it.

deepagents' grader answers one `GraderResponse` (result, explanation, per-criterion verdicts).
rubricate's judge asks the model for one verdict per criterion label instead and builds the
result in code, so this class is not what the model is asked for; it is the same data, built
from an `Evaluation`, validated by the same rules, for code that reads or type-checks it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from .._types import Evaluation
from ._core import CriterionEval

__all__ = ["GraderResponse", "GraderVerdict"]

GraderVerdict = Literal["satisfied", "needs_revision", "failed"]
"""What a grader can conclude by itself (the loop adds `max_iterations_reached`, `grader_error`)."""


class GraderResponse(BaseModel):
    """A grader's verdict in deepagents' shape: `result`, `explanation`, `criteria`."""

    result: GraderVerdict
    explanation: str
    criteria: list[CriterionEval] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> GraderResponse:
        """Reject a `result` that contradicts the criteria, or a failed criterion with no gap."""
        failing = [c for c in self.criteria if not c["passed"]]
        if any(not c.get("gap") for c in failing):
            raise ValueError("GraderResponse: a criterion with passed=False needs a `gap`")
        if self.result == "satisfied" and failing:
            raise ValueError("GraderResponse: result='satisfied' but a criterion has passed=False")
        if self.result == "needs_revision" and self.criteria and not failing:
            raise ValueError("GraderResponse: result='needs_revision' but every criterion passed")
        return self

    @classmethod
    def from_evaluation(cls, evaluation: Evaluation) -> GraderResponse:
        """The verdict of a rubricate `Evaluation` (not one that ended in `grader_error`)."""
        if evaluation.result == "grader_error":
            raise ValueError(
                "GraderResponse: a `grader_error` evaluation has no verdict "
                f"({evaluation.explanation})"
            )
        criteria: list[CriterionEval] = []
        for verdict in evaluation.criteria:
            item: CriterionEval = {"name": verdict.name, "passed": verdict.passed}
            if not verdict.passed:
                item["gap"] = verdict.gap
            criteria.append(item)
        return cls(result=evaluation.result, explanation=evaluation.explanation, criteria=criteria)
