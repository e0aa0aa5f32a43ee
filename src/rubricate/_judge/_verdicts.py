"""From the judge's answers to verdicts, and from verdicts to an evaluation's result.

An answer (`_answers.Answer`) is what the model said about one criterion, or a problem string
when it gave no valid answer; a `CriterionVerdict` is what rubricate reports, with the
criterion's own id, name and `required` flag (never what the judge echoed), and fails closed
as `unverified` when there was no valid answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._rubric._rubric import Criterion
from .._types import CriterionVerdict, EvaluationResult
from ._answers import Answer
from ._confidence import is_unsure

__all__ = ["NO_GAP", "scored", "summarize", "to_verdict"]

NO_GAP = "The judge found this criterion not met but gave no reason."
_UNVERIFIED_GAP = "The judge gave no valid verdict for this criterion ({problem}); failed closed."


def scored(
    answer: Answer, scores: Sequence[tuple[str | None, float | None]], label: str | None
) -> Answer:
    """`answer` with the confidence read for its verdict (by label in a joint answer)."""
    if label is None:
        confidence = scores[0][1] if len(scores) == 1 else None
    else:
        matching = [p for named, p in scores if named == label]
        confidence = matching[0] if len(matching) == 1 else None
    return answer.model_copy(update={"confidence": confidence})


def to_verdict(criterion: Criterion, answer: Answer | str) -> CriterionVerdict:
    """The verdict on `criterion`: from its answer, or failed closed on a problem string."""
    if isinstance(answer, str):
        return CriterionVerdict(
            id=criterion.id,
            name=criterion.description,
            passed=False,
            gap=_UNVERIFIED_GAP.format(problem=answer),
            required=criterion.required,
            unverified=True,
        )
    unscorable = answer.verdict == "cannot_evaluate"
    return CriterionVerdict(
        id=criterion.id,
        name=criterion.description,
        passed=answer.passed,
        gap="" if answer.passed else (answer.gap or NO_GAP),
        reason=answer.reason if answer.passed else "",
        required=criterion.required,
        unscorable=unscorable,
        confidence=answer.confidence,
        unsure=is_unsure(answer.confidence),
    )


def summarize(verdicts: Sequence[CriterionVerdict]) -> tuple[EvaluationResult, str]:
    """The evaluation's result and explanation, from the configured `required` flags only."""
    required = [v for v in verdicts if v.required]
    unscorable = [v for v in required if v.unscorable]
    unmet = [v for v in required if not v.passed]
    optional_unmet = [v for v in verdicts if not v.required and not v.passed]
    if unscorable:
        listed = "; ".join(f"{v.name} ({v.gap})" for v in unscorable)
        return "failed", (
            f"{len(unscorable)} required criteria cannot be evaluated from the evidence: {listed}"
        )
    if not unmet:
        text = f"All {len(required)} required criteria are met."
        if optional_unmet:
            text += f" Optional criteria not met: {'; '.join(v.name for v in optional_unmet)}."
        return "satisfied", text
    listed = "; ".join(f"{v.name}: {v.gap}" for v in unmet)
    return (
        "needs_revision",
        f"{len(unmet)} of {len(required)} required criteria are not met. {listed}",
    )
