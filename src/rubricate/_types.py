"""The plain data types every layer shares: evidence in, verdicts and evaluations out.

They are defined once here and used by the judge, the scorer, the loop and the command line.
All of them turn into JSON-ready dicts with `to_dict()`, and the results back with `from_dict()`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import BaseMessage

__all__ = [
    "ContextPolicy",
    "CriterionVerdict",
    "DecidedBy",
    "Evaluation",
    "EvaluationResult",
    "Evidence",
    "Mode",
    "Usage",
]

EvaluationResult = Literal["satisfied", "needs_revision", "failed", "grader_error"]
"""What one grading pass concluded.

- `satisfied`: every required criterion passed.
- `needs_revision`: at least one required criterion failed (or could not be verified).
- `failed`: the judge found a required criterion impossible to evaluate from the evidence.
- `grader_error`: the judge itself failed after its retries; the explanation says why.
"""

Mode = Literal["joint", "per_criterion"]
ContextPolicy = Literal["when_referenced", "always"]
"""`joint`: one judge call grades every criterion. `per_criterion`: one small call each."""

DecidedBy = Literal["judge", "check"]
"""Who decided a verdict: the judge model, or a criterion's Python `check`."""


@dataclass(kw_only=True, frozen=True)
class Usage:
    """Judge model usage, summed over every call made for one evaluation."""

    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            calls=self.calls + other.calls,
        )

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    def to_dict(self) -> dict[str, int]:
        """JSON-ready form."""
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "calls": self.calls,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Usage:
        """The inverse of `to_dict`."""
        return cls(
            input_tokens=int(data.get("input_tokens", 0)),
            output_tokens=int(data.get("output_tokens", 0)),
            calls=int(data.get("calls", 0)),
        )


@dataclass(kw_only=True, frozen=True)
class Evidence:
    """What the judge grades: the task, the output, and optionally the transcript behind it.

    Everything here is untrusted data: the judge delimits it and never follows instructions in it.
    A criterion's `check` receives this object.
    """

    output: str = ""
    """The final output to grade."""
    task: str = ""
    """The instruction the output answers."""
    messages: Sequence[BaseMessage | Mapping[str, Any]] = ()
    """The conversation that produced the output: LangChain messages or role/content dicts."""


@dataclass(kw_only=True, frozen=True)
class CriterionVerdict:
    """The verdict on one configured criterion, matched by id (never by what the judge echoes)."""

    id: str
    """The criterion's stable id."""
    name: str
    """The criterion's description, as the user wrote it."""
    passed: bool
    gap: str = ""
    """What is missing, actionable; empty when passed."""
    reason: str = ""
    """Why a passed criterion is met, when the judge was asked to explain passes."""
    required: bool = True
    """The configured flag: only required criteria gate completion."""
    decided_by: DecidedBy = "judge"
    unverified: bool = False
    """The judge gave no valid verdict for this criterion even after a correction: failed closed."""
    unscorable: bool = False
    """The judge said the evidence cannot show either way (makes the evaluation `failed`)."""
    confidence: float | None = None
    """The judge model's probability that the criterion is met, read from the verdict token's
    log-probabilities in the same call; `None` when the model gives no probabilities.

    Also `None` for a verdict decided in code (`decided_by="check"`): a check is exact by
    construction, and not a probability estimate. Writing 1.0 / 0.0 there would mix exact
    decisions into the judge's calibration figures (AUROC, calibration error) and would hide
    that a check can still be the wrong check for what the criterion meant.
    """
    unsure: bool = False
    """The verdict still stands, but a person should look at it first: the confidence lies
    inside the uncertainty band (`rubricate._judge._confidence.UNSURE_BAND`), the criterion is
    a format rule that no check could read, so the model decided it, and the model's verdicts on
    those are close to chance (docs/checks.md), or a pass held with passages that may address
    the grader masked (docs/reliability.md). The last two say so in `reason`."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: `{id, name, passed, gap}` plus how the verdict was reached.

        `confidence` is there when the judge gave one, `unsure` when it is true.
        """
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "passed": self.passed,
            "gap": self.gap,
            "required": self.required,
            "decided_by": self.decided_by,
        }
        if self.reason:
            data["reason"] = self.reason
        if self.confidence is not None:
            data["confidence"] = round(self.confidence, 4)
        if self.unsure:
            data["unsure"] = True
        if self.unverified:
            data["unverified"] = True
        if self.unscorable:
            data["unscorable"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CriterionVerdict:
        """The inverse of `to_dict`."""
        return cls(
            id=data["id"],
            name=data["name"],
            passed=data["passed"],
            gap=data.get("gap", ""),
            reason=data.get("reason", ""),
            required=data.get("required", True),
            decided_by=data.get("decided_by", "judge"),
            unverified=data.get("unverified", False),
            unscorable=data.get("unscorable", False),
            confidence=data.get("confidence"),
            unsure=data.get("unsure", False),
        )


@dataclass(kw_only=True, frozen=True)
class Evaluation:
    """The result of grading one piece of evidence against one rubric."""

    result: EvaluationResult
    explanation: str
    criteria: tuple[CriterionVerdict, ...] = ()
    """One verdict per configured criterion, in rubric order (empty on `grader_error`)."""
    usage: Usage = field(default_factory=Usage)
    latency_s: float = 0.0
    """Wall time of the whole evaluation, checks and retries included."""
    mode: Mode | None = None
    """The grading mode used, or `None` when no model call was needed."""
    model: str | None = None
    """The judge model's name."""
    skipped: bool = False
    """True when there was no rubric to grade against: nothing was called."""

    @property
    def passed(self) -> bool:
        """True when the result is `satisfied`."""
        return self.result == "satisfied"

    @property
    def failed_criteria(self) -> tuple[CriterionVerdict, ...]:
        """The verdicts that did not pass, required or not."""
        return tuple(v for v in self.criteria if not v.passed)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "result": self.result,
            "explanation": self.explanation,
            "criteria": [v.to_dict() for v in self.criteria],
            "usage": self.usage.to_dict(),
            "latency_s": round(self.latency_s, 4),
            "mode": self.mode,
            "model": self.model,
            "skipped": self.skipped,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evaluation:
        """The inverse of `to_dict` (as kept in a checkpoint; `latency_s` to 0.1 ms)."""
        return cls(
            result=data["result"],
            explanation=data["explanation"],
            criteria=tuple(CriterionVerdict.from_dict(v) for v in data.get("criteria", ())),
            usage=Usage.from_dict(data.get("usage", {})),
            latency_s=data.get("latency_s", 0.0),
            mode=data.get("mode"),
            model=data.get("model"),
            skipped=data.get("skipped", False),
        )
