"""The judge's answer shapes (JSON schemas) and their fail-closed validation.

The judge sees criteria under short labels (`C1`, `C2`, ...) that map back to the configured
criteria. Validation never trusts the answer's shape: a criterion that is missing, unknown,
duplicated with a different verdict, or failed without a reason is a *problem*. Problems get one
correction round; criteria still without a valid verdict after it fail as `unverified`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

__all__ = [
    "CRITERION_TITLE",
    "JOINT_TITLE",
    "Answer",
    "JointParse",
    "answer_text",
    "criterion_schema",
    "joint_schema",
    "parse_criterion",
    "parse_joint",
]

Verdict = Literal["pass", "fail", "cannot_evaluate"]

CRITERION_TITLE = "CriterionAnswer"
"""The per-criterion schema's title: the tool or function name a remote model answers under.
Not `CriterionVerdict`, which is rubricate's own verdict type (`_types.CriterionVerdict`)."""
JOINT_TITLE = "RubricVerdicts"
"""The joint schema's title: the name of the one answer that holds every criterion's verdict."""


class Answer(BaseModel):
    """One criterion's verdict as the judge gave it (validated, whitespace-normalised)."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    verdict: Verdict
    gap: str = ""
    reason: str = ""
    """Why a passed criterion is met (asked for only when the judge explains passes)."""
    confidence: float | None = None
    """P(criterion met) read from the verdict token's log-probabilities; never from the answer's
    own text (`parse_criterion` drops a `confidence` the judge writes)."""

    @property
    def passed(self) -> bool:
        """True for `pass`."""
        return self.verdict == "pass"


@dataclass(frozen=True)
class JointParse:
    """What could be used from one joint answer, and what could not."""

    answers: dict[str, Answer]
    """Valid verdicts by label."""
    problems: dict[str, str]
    """Labels without a usable verdict, with the reason; the key `*` is for the whole answer."""


def _verdict_values(allow_unscorable: bool) -> list[str]:
    return ["pass", "fail", "cannot_evaluate"] if allow_unscorable else ["pass", "fail"]


def criterion_schema(
    *, allow_unscorable: bool, with_reason: bool = False, with_reasoning: bool = False
) -> dict[str, Any]:
    """JSON schema for one criterion's verdict.

    `with_reason` asks why a pass is one; `with_reasoning` (careful mode) puts a reasoning
    field before the verdict, so a model that writes fields in order reasons first.
    """
    properties: dict[str, Any] = {}
    if with_reasoning:
        properties["reasoning"] = {
            "type": "string",
            "description": "One short sentence on what the output says about the criterion.",
        }
    properties |= {
        "verdict": {"type": "string", "enum": _verdict_values(allow_unscorable)},
        "gap": {
            "type": "string",
            "description": "Empty when the verdict is pass; otherwise what is missing.",
        },
    }
    if with_reason:
        properties["reason"] = {
            "type": "string",
            "description": "When the verdict is pass, why the criterion is met; otherwise empty.",
        }
    return {
        "title": CRITERION_TITLE,
        "description": "The verdict on one rubric criterion.",
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def joint_schema(
    labels: Sequence[str],
    *,
    allow_unscorable: bool,
    with_reason: bool = False,
    with_reasoning: bool = False,
) -> dict[str, Any]:
    """JSON schema for all verdicts at once; labels are restricted to the configured ones."""
    item = criterion_schema(
        allow_unscorable=allow_unscorable, with_reason=with_reason, with_reasoning=with_reasoning
    )
    item = {
        "type": "object",
        "properties": {
            "criterion": {"type": "string", "enum": list(labels)},
            **item["properties"],
        },
        "required": ["criterion", *item["required"]],
        "additionalProperties": False,
    }
    return {
        "title": JOINT_TITLE,
        "description": "One verdict for each rubric criterion, in order.",
        "type": "object",
        "properties": {
            "verdicts": {
                "type": "array",
                "items": item,
                "minItems": len(labels),
                "maxItems": len(labels),
            }
        },
        "required": ["verdicts"],
        "additionalProperties": False,
    }


def parse_criterion(raw: Any) -> tuple[Answer | None, str | None]:
    """Validate one criterion's answer: `(answer, None)` or `(None, problem)`.

    A list holds several answers given at once (parallel tool calls): they must all be valid and
    agree, or the criterion has no usable verdict.
    """
    if isinstance(raw, list) and raw:
        parsed = [parse_criterion(item) for item in raw]
        for answer, problem in parsed:
            if answer is None:
                return None, problem
        verdicts = sorted({answer.verdict for answer, _ in parsed if answer is not None})
        if len(verdicts) > 1:
            return None, f"contradictory verdicts ({' and '.join(verdicts)})"
        return parsed[0]
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if not isinstance(raw, Mapping):
        return None, f"expected a verdict object, got {_kind(raw)}"
    try:
        answer = Answer.model_validate({k: v for k, v in raw.items() if k != "confidence"})
    except ValidationError as exc:
        return None, _first_error(exc)
    if answer.verdict == "fail" and not answer.gap:
        return None, "a fail verdict needs a gap saying what is missing"
    if answer.verdict == "pass" and answer.gap:
        answer = answer.model_copy(update={"gap": ""})
    if answer.verdict != "pass" and answer.reason:
        answer = answer.model_copy(update={"reason": ""})
    return answer, None


def parse_joint(raw: Any, labels: Sequence[str]) -> JointParse:
    """Validate a joint answer against the configured labels, keeping whatever is usable."""
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    items = raw.get("verdicts") if isinstance(raw, Mapping) else None
    if not isinstance(items, list):
        shape = f"expected an object with a `verdicts` list, got {_kind(raw)}"
        return JointParse({}, {"*": shape, **dict.fromkeys(labels, "no verdict")})
    wanted = set(labels)
    answers: dict[str, Answer] = {}
    problems: dict[str, str] = {}
    extra: list[str] = []
    for item in items:
        named = item.get("criterion") if isinstance(item, Mapping) else None
        label = named.strip() if isinstance(named, str) else ""
        if label not in wanted:
            extra.append(repr(named))
            continue
        answer, problem = parse_criterion(item)
        if answer is None:
            problems.setdefault(label, problem or "invalid verdict")
            continue
        earlier = answers.get(label)
        if earlier is not None and earlier.verdict != answer.verdict:
            problems[label] = f"contradictory verdicts ({earlier.verdict} and {answer.verdict})"
        elif label not in problems:
            answers.setdefault(label, answer)
    for label in problems:
        answers.pop(label, None)
    for label in labels:
        if label not in answers and label not in problems:
            problems[label] = "no verdict"
    if extra:
        problems["*"] = f"verdicts for unknown criteria {', '.join(extra)}"
    return JointParse(answers, problems)


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "answer"
    return f"{where}: {error['msg']}"


def answer_text(raw: Any) -> str:
    """An answer as text, to show the model in a correction round."""
    if isinstance(raw, str):
        return raw or "(empty answer)"
    try:
        return json.dumps(raw, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(raw)
