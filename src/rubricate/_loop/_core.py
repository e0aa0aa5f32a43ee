"""The self-revision loop's pure core: statuses, budgets, records, and every decision.

The LangChain middleware and the framework-free `refine` both drive the same cycle (agent
answers -> judge grades -> feedback or stop) through `GradingLoop`, which does the I/O (calling
the judge, events, callbacks) and asks this module what to do: `decide` turns one evaluation,
the pass number and the budget into the next status and the feedback text; `better_draft` keeps
the best draft. Nothing here awaits or touches the outside world, so it is tested directly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired

from langchain.agents.middleware.types import AgentState, PrivateStateAttr
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from typing_extensions import TypedDict  # pydantic reads it (GraderResponse) on Python 3.11

from .._judge._evidence import FEEDBACK_MESSAGE_NAME, FEEDBACK_SOURCE, message_text
from .._types import CriterionVerdict, Evaluation, EvaluationResult, Usage
from .._validation import check_count

__all__ = [
    "TERMINAL_STATUSES",
    "BestDraft",
    "Budget",
    "CriterionEval",
    "CriterionFail",
    "CriterionPass",
    "CriterionRecord",
    "Decision",
    "RubricEvaluation",
    "RubricResult",
    "RubricState",
    "RunStatus",
    "better_draft",
    "decide",
    "evaluation_record",
    "feedback_message",
    "feedback_text",
    "forced_exit_reason",
    "next_status",
    "run_criteria",
]

RubricResult = Literal[
    "satisfied", "needs_revision", "max_iterations_reached", "failed", "grader_error"
]
"""What an evaluation record says, as deepagents' `RubricResult`: the judge's result, or the
status the loop gave it (`max_iterations_reached` at the cap). Only `needs_revision` loops again.
"""

RunStatus = Literal[
    "satisfied",
    "needs_revision",
    "max_iterations_reached",
    "failed",
    "grader_error",
    "budget_exhausted",
]
"""A grading run's status: a `RubricResult`, or `budget_exhausted`. Only `needs_revision` loops.

`budget_exhausted` is ours: the run's grader-call or grader-token budget was used up before the
rubric was satisfied, so it stopped instead of spending more.
"""

TERMINAL_STATUSES: frozenset[str] = frozenset(
    {"satisfied", "max_iterations_reached", "failed", "grader_error", "budget_exhausted"}
)
"""After one of these, the same rubric invoked again starts a new grading run."""

_FORCED_EXIT = re.compile(r"^(Model call limits exceeded|.*\bcall limit reached:)", re.DOTALL)


class CriterionRecord(TypedDict):
    """One criterion of a `RubricEvaluation`: `{name, passed}` or `{name, passed, gap}` plus ids."""

    name: str
    passed: bool
    gap: NotRequired[str]
    id: NotRequired[str]
    required: NotRequired[bool]
    decided_by: NotRequired[str]
    unverified: NotRequired[bool]
    reason: NotRequired[str]
    """Why a passed criterion is met, when the judge was asked to explain passes."""
    confidence: NotRequired[float]
    """The judge's P(criterion met), when the model gave log-probabilities."""
    unsure: NotRequired[bool]


CriterionEval = CriterionRecord
"""deepagents' name for one criterion's verdict (`{name, passed}` or `{name, passed, gap}`)."""


class CriterionPass(TypedDict):
    """deepagents' shape of a passed criterion; a `CriterionRecord` with `passed=True` has it."""

    name: str
    passed: Literal[True]


class CriterionFail(TypedDict):
    """deepagents' shape of a failed criterion; a `CriterionRecord` with `passed=False` has it."""

    name: str
    passed: Literal[False]
    gap: str


class RubricEvaluation(TypedDict):
    """One grading pass, as the callback, the stream events and `_rubric_evaluations` see it.

    deepagents' keys (`grading_run_id`, `iteration`, `result`, `explanation`, `criteria`,
    `unverified`) plus what we measure (`usage`, `latency_s`). At the cap `result` is the run's
    terminal status (`max_iterations_reached`, or our `budget_exhausted`), not `needs_revision`.
    """

    grading_run_id: str
    iteration: int
    result: RunStatus
    explanation: str
    criteria: list[CriterionRecord]
    unverified: bool
    """The pass did not end `satisfied` only because the judge gave no valid verdict for some
    required criteria (they failed closed): a gap in grading, not confirmed defects."""
    usage: dict[str, int]
    latency_s: float


class BestDraft(TypedDict):
    """The draft that passed the most required criteria in a grading run."""

    text: str
    passed_required: int
    iteration: int


class RubricState(AgentState[Any]):
    """The loop's state: the conversation, the rubric, and the private keys of a grading run.

    The one definition of those keys: `RubricMiddleware` declares it as its state schema and
    `refine` runs its graph on it. Everything but `rubric` is private bookkeeping.
    """

    rubric: NotRequired[Any]
    """What "done" looks like: checklist text, or a list / mapping of criteria."""
    _rubric_status: NotRequired[Annotated[RunStatus | None, PrivateStateAttr]]
    _rubric_iterations: NotRequired[Annotated[int, PrivateStateAttr]]
    _rubric_evaluations: NotRequired[Annotated[list[RubricEvaluation], PrivateStateAttr]]
    _current_grading_run_id: NotRequired[Annotated[str, PrivateStateAttr]]
    _active_rubric: NotRequired[Annotated[Any, PrivateStateAttr]]
    _rubric_criteria: NotRequired[Annotated[list[str], PrivateStateAttr]]
    """The criterion names of the current run, as deepagents keeps them (from the first pass)."""
    _rubric_spent: NotRequired[Annotated[dict[str, int], PrivateStateAttr]]
    """Judge usage of the current grading run, for the budget."""
    _rubric_best: NotRequired[Annotated[BestDraft | None, PrivateStateAttr]]
    """The draft that passed the most required criteria in this run."""
    _rubric_stop_reason: NotRequired[Annotated[str | None, PrivateStateAttr]]
    """Why the run stopped when it did not end `satisfied`."""
    _rubric_forced_exits: NotRequired[Annotated[list[dict[str, Any]], PrivateStateAttr]]
    """Agent runs that ended by a limit rather than an answer: recorded, not graded."""


@dataclass(kw_only=True, frozen=True)
class Budget:
    """Caps on what one grading run may spend on the judge; `None` means no cap."""

    max_grader_calls: int | None = None
    max_grader_tokens: int | None = None

    def __post_init__(self) -> None:
        for name in ("max_grader_calls", "max_grader_tokens"):
            check_count(name, getattr(self, name), optional=True)

    def exhausted(self, spent: Usage) -> str | None:
        """Why `spent` has reached the budget, or `None` while there is room left."""
        if self.max_grader_calls is not None and spent.calls >= self.max_grader_calls:
            return f"the grader-call budget is used up ({spent.calls} of {self.max_grader_calls})"
        if self.max_grader_tokens is not None and spent.total_tokens >= self.max_grader_tokens:
            return (
                f"the grader-token budget is used up "
                f"({spent.total_tokens:,} of {self.max_grader_tokens:,} tokens)"
            )
        return None


def evaluation_record(
    evaluation: Evaluation, *, grading_run_id: str, iteration: int
) -> RubricEvaluation:
    """The reference-shaped record of one evaluation (a plain, JSON-ready dict)."""
    criteria: list[CriterionRecord] = []
    if evaluation.result != "grader_error":
        for verdict in evaluation.criteria:
            record: CriterionRecord = {
                "name": verdict.name,
                "passed": verdict.passed,
                "id": verdict.id,
                "required": verdict.required,
                "decided_by": verdict.decided_by,
            }
            if not verdict.passed:
                record["gap"] = verdict.gap
            elif verdict.reason:
                record["reason"] = verdict.reason
            if verdict.unverified:
                record["unverified"] = True
            if verdict.confidence is not None:
                record["confidence"] = round(verdict.confidence, 4)
            if verdict.unsure:
                record["unsure"] = True
            criteria.append(record)
    blocking = [v for v in evaluation.criteria if v.required and not v.passed]
    return {
        "grading_run_id": grading_run_id,
        "iteration": iteration,
        "result": evaluation.result,
        "explanation": evaluation.explanation,
        "criteria": criteria,
        "unverified": evaluation.result == "needs_revision"
        and bool(blocking)
        and all(v.unverified for v in blocking),
        "usage": evaluation.usage.to_dict(),
        "latency_s": round(evaluation.latency_s, 4),
    }


def next_status(result: EvaluationResult, *, iteration: int, max_iterations: int) -> RunStatus:
    """The run's status after the pass `iteration` (0-based) ended with `result`."""
    if result == "needs_revision" and iteration + 1 >= max_iterations:
        return "max_iterations_reached"
    return result


@dataclass(kw_only=True, frozen=True)
class Decision:
    """What the loop does after one grading pass."""

    status: RunStatus
    """`needs_revision` sends `feedback` back to the agent; every other status ends the run."""
    stop_reason: str | None
    """Why the run stops when it stops short of `satisfied` for want of passes or budget."""
    spent: Usage
    """What the grading run has spent on the judge, this pass included."""
    feedback: str | None
    """The user-role feedback text, on `needs_revision` only."""


def decide(
    evaluation: Evaluation,
    *,
    iteration: int,
    max_iterations: int,
    budget: Budget,
    spent: Usage,
) -> Decision:
    """The loop's decision after pass `iteration` (0-based), given what was spent before it.

    The judge's result stands, except that `needs_revision` becomes `max_iterations_reached` on
    the last pass, and `budget_exhausted` when this pass used up the budget.
    """
    total = spent + evaluation.usage
    status = next_status(evaluation.result, iteration=iteration, max_iterations=max_iterations)
    stop_reason: str | None = None
    if status == "max_iterations_reached":
        stop_reason = f"the rubric was not satisfied after {max_iterations} grading passes"
    elif status == "needs_revision" and (exhausted := budget.exhausted(total)):
        status, stop_reason = "budget_exhausted", exhausted
    feedback = feedback_text(evaluation.criteria) if status == "needs_revision" else None
    return Decision(status=status, stop_reason=stop_reason, spent=total, feedback=feedback)


def feedback_text(criteria: Sequence[CriterionVerdict]) -> str:
    """The feedback on a `needs_revision` verdict, as the agent reads it.

    It names each failed required criterion with its gap, then the criteria already met, so the
    agent fixes what is missing without regressing the rest.
    """
    failing = [c for c in criteria if not c.passed and c.required]
    optional = [c for c in criteria if not c.passed and not c.required]
    passing = [c for c in criteria if c.passed]
    lines = ["A grader checked your work against the rubric. Revise it before finishing."]
    if failing:
        lines += ["", "Criteria not met yet:"]
        lines += [f"- {c.name}: {c.gap or 'no specific feedback'}" for c in failing]
    if optional:
        lines += ["", "Optional criteria not met (improve them if you can):"]
        lines += [f"- {c.name}: {c.gap or 'no specific feedback'}" for c in optional]
    if passing:
        lines += ["", "Criteria already met (do not regress these):"]
        lines += [f"- {c.name}" for c in passing]
    lines += [
        "",
        "Reply with the complete revised answer, addressing every criterion not met yet.",
    ]
    return "\n".join(lines)


def feedback_message(text: str) -> HumanMessage:
    """The user-role message carrying `feedback_text`, tagged so the judge never grades it."""
    return HumanMessage(
        text, name=FEEDBACK_MESSAGE_NAME, additional_kwargs={"lc_source": FEEDBACK_SOURCE}
    )


def run_criteria(kept: Sequence[str] | None, record: RubricEvaluation) -> list[str]:
    """The run's criterion names (deepagents' `_rubric_criteria`), after the pass in `record`.

    deepagents freezes the names its grader enumerated on the first pass that gave any; ours come
    from the parsed rubric, so they are the same on every pass. A `failed` or `grader_error`
    pass names none.
    """
    if kept:
        return list(kept)
    if record["criteria"] and record["result"] not in ("failed", "grader_error"):
        return [c["name"] for c in record["criteria"]]
    return []


def better_draft(
    best: BestDraft | None, evaluation: Evaluation, *, text: str, iteration: int
) -> BestDraft | None:
    """Keep the draft that passed the most required criteria (the earliest on a tie)."""
    if evaluation.result == "grader_error" or not evaluation.criteria:
        return best
    score = sum(v.passed for v in evaluation.criteria if v.required)
    if best is not None and best["passed_required"] >= score:
        return best
    return {"text": text, "passed_required": score, "iteration": iteration}


def forced_exit_reason(messages: Sequence[BaseMessage]) -> str | None:
    """Why the agent stopped without finishing, if it did: the loop records it, never grades it.

    Catches LangChain's call-limit middlewares (their closing message) and an agent that ended
    while its last tool calls were never answered.
    """
    if not messages:
        return None
    last = messages[-1]
    if not isinstance(last, AIMessage):
        return None
    text = message_text(last).strip()
    if _FORCED_EXIT.match(text):
        return text[:300]
    if last.tool_calls:
        answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
        pending = [c["name"] for c in last.tool_calls if c.get("id") not in answered]
        if pending:
            return f"the agent stopped with unanswered tool calls ({', '.join(pending)})"
    return None
