"""`refine` end to end on the real embedded judge (a few seconds of model time)."""

from __future__ import annotations

import pytest

from rubricate import Criterion, Rubric, refine

pytestmark = pytest.mark.local_model


def test_refine_with_a_code_check_that_forces_one_revision() -> None:
    rubric = Rubric(
        (
            Criterion(description="The answer says that the capital of France is Paris"),
            Criterion(
                description="The answer ends with a period",
                check=lambda ev: (
                    ev.output.rstrip().endswith("."),
                    "End the answer with a period.",
                ),
            ),
        )
    )
    seen: list[str | None] = []

    def agent(task: str, feedback: str | None) -> str:
        seen.append(feedback)
        return "The capital of France is Paris" + ("." if feedback else "")

    result = refine(agent, "What is the capital of France?", rubric, judge="local")
    assert result.status == "satisfied", result.evaluations
    assert result.output == "The capital of France is Paris."
    first, second = result.evaluations
    assert first["result"] == "needs_revision"
    failed = [c for c in first["criteria"] if not c["passed"]]
    assert [(c["decided_by"], c["gap"]) for c in failed] == [
        ("check", "End the answer with a period.")
    ]
    assert seen[0] is None and seen[1] is not None and "End the answer with a period." in seen[1]
    assert second["usage"]["calls"] >= 1
