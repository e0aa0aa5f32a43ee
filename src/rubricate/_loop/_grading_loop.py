"""One grading run, shared by `RubricMiddleware` and `refine`: start, grade, record.

Both loops keep the same private state keys (`_rubric_status`, `_rubric_iterations`,
`_rubric_evaluations`, ...) and call `GradingLoop.start` before the agent runs and
`GradingLoop.grade` after it answers; the returned dict is the state update, with
`jump_to="model"` when the agent must revise. `grade` is `begin` (the start event), the judge's
evaluation (resumable: `_resumable.py`) and `finish` (end event, callback, update); the sync
middleware hook calls the three itself. This is the I/O around the loop; what to do after each
pass is `_core.decide`'s pure decision.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.errors import GraphBubbleUp

from .._exceptions import RubricError
from .._judge._evidence import first_user_text, last_assistant_text
from .._judge._judge import Judge
from .._judge._retry import grader_error
from .._rubric._rubric import Rubric
from .._types import Evaluation, Usage
from .._validation import check_count
from ._completion import CompletionCheck
from ._core import (
    TERMINAL_STATUSES,
    Budget,
    RubricEvaluation,
    better_draft,
    decide,
    evaluation_record,
    feedback_message,
    forced_exit_reason,
    run_criteria,
)
from ._resumable import aevaluate_once

__all__ = ["BEST_DRAFT_NAME", "GradingLoop", "GradingPass"]

logger = logging.getLogger("rubricate")

BEST_DRAFT_NAME = "rubric_best_draft"
"""`name` of the message that carries the best draft back at the cap (with `best_draft`)."""

_COMPLETION_KEY = "(completion check)"

Emit = Callable[[dict[str, Any]], None]


@dataclass(kw_only=True, frozen=True)
class GradingPass:
    """A grading pass about to run: what it grades, and where the run stands."""

    rubric: Any
    messages: list[Any]
    run_id: str
    iteration: int
    spent: Usage
    """What the grading run spent on the judge before this pass."""


@dataclass(kw_only=True)
class GradingLoop:
    """The settings of a self-revision loop, and its two decisions."""

    make_judge: Callable[[], Judge]
    """Builds the judge on first use, so a loop can be set up without a key or a model."""
    max_iterations: int = 3
    on_evaluation: Callable[[RubricEvaluation], Any] | None = None
    criteria: Rubric | None = None
    best_draft: bool = False
    budget: Budget = field(default_factory=Budget)
    max_evaluations_kept: int = 50
    completion: CompletionCheck | None = None
    """Decides completion instead of the judge; a state rubric reaches its rubric scorers."""
    _judge: Judge | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        # The one check of the loop's caps, for the middleware, `refine` and the CLI alike.
        for name in ("max_iterations", "max_evaluations_kept"):
            check_count(name, getattr(self, name))
        if self.on_evaluation is not None and not callable(self.on_evaluation):
            raise TypeError(f"`on_evaluation` must be callable, got {self.on_evaluation!r}")

    @property
    def judge(self) -> Judge:
        """The judge, built on first use."""
        if self._judge is None:
            self._judge = self.make_judge()
        return self._judge

    def rubric_source(self, state: Mapping[str, Any]) -> Any:
        """The rubric in the state, else the fixed criteria, else the completion check's marker.

        Nothing at all means the loop is off for this run.
        """
        rubric = state.get("rubric")
        if rubric:
            return rubric
        if self.criteria is not None:
            return self.criteria
        return _COMPLETION_KEY if self.completion is not None else None

    def start(self, state: Mapping[str, Any]) -> dict[str, Any] | None:
        """Start a new grading run for a new rubric, or after a terminal status."""
        rubric = self.rubric_source(state)
        if not rubric:
            return None
        key = rubric.to_dict() if isinstance(rubric, Rubric) else rubric
        active = state.get("_active_rubric") == key
        if active and state.get("_rubric_status") not in TERMINAL_STATUSES:
            return None  # the same rubric, still inside its grading run (e.g. after an interrupt)
        return {
            "_active_rubric": key,
            "_current_grading_run_id": str(uuid.uuid4()),
            "_rubric_iterations": 0,
            "_rubric_criteria": [],  # as deepagents: a new run has named no criteria yet
            "_rubric_status": None,
            "_rubric_spent": Usage().to_dict(),
            "_rubric_best": None,
            "_rubric_stop_reason": None,
        }

    async def grade(self, state: Mapping[str, Any], emit: Emit) -> dict[str, Any] | None:
        """Grade the last answer; the update loops back (`jump_to`) on `needs_revision`."""
        step = self.begin(state, emit)
        if not isinstance(step, GradingPass):
            return step
        evaluation = await aevaluate_once(lambda: self.evaluate(step.rubric, step.messages))
        return self.finish(state, step, evaluation, emit)

    def begin(self, state: Mapping[str, Any], emit: Emit) -> GradingPass | dict[str, Any] | None:
        """The pass to grade (its start event emitted), or the update when there is none.

        `None`: no rubric, the loop is off. A dict: a forced exit or a spent budget, recorded
        without grading.
        """
        rubric = self.rubric_source(state)
        if not rubric:
            return None
        messages = list(state.get("messages", []))
        iteration = state.get("_rubric_iterations", 0) or 0
        run_id = state.get("_current_grading_run_id") or str(uuid.uuid4())

        forced = forced_exit_reason(messages)
        if forced is not None:
            logger.info("rubricate: not grading a forced exit (%s)", forced)
            exits = [
                *state.get("_rubric_forced_exits", []),
                {"grading_run_id": run_id, "iteration": iteration, "reason": forced},
            ]
            return {"_rubric_forced_exits": exits[-self.max_evaluations_kept :]}

        spent = Usage(**state.get("_rubric_spent", {}))
        exhausted = self.budget.exhausted(spent)
        if exhausted is not None:
            return {"_rubric_status": "budget_exhausted", "_rubric_stop_reason": exhausted}

        emit(
            {"type": "rubric_evaluation_start", "grading_run_id": run_id, "iteration": iteration},
        )
        return GradingPass(
            rubric=rubric, messages=messages, run_id=run_id, iteration=iteration, spent=spent
        )

    def finish(
        self, state: Mapping[str, Any], step: GradingPass, evaluation: Evaluation, emit: Emit
    ) -> dict[str, Any]:
        """Record the pass's `evaluation`: end event, callback, and the state update."""
        messages, iteration, run_id = step.messages, step.iteration, step.run_id
        record = evaluation_record(evaluation, grading_run_id=run_id, iteration=iteration)
        decision = decide(
            evaluation,
            iteration=iteration,
            max_iterations=self.max_iterations,
            budget=self.budget,
            spent=step.spent,
        )
        if decision.status != evaluation.result:
            record["result"] = decision.status  # as deepagents: no `needs_revision` that won't loop
        emit({"type": "rubric_evaluation_end", **_event_fields(record)})
        self._notify(record)

        best = better_draft(
            state.get("_rubric_best"),
            evaluation,
            text=last_assistant_text(messages),
            iteration=iteration,
        )
        update: dict[str, Any] = {
            "_current_grading_run_id": run_id,
            "_rubric_evaluations": [*state.get("_rubric_evaluations", []), record][
                -self.max_evaluations_kept :
            ],
            "_rubric_iterations": iteration + 1,
            "_rubric_criteria": run_criteria(state.get("_rubric_criteria"), record),
            "_rubric_status": decision.status,
            "_rubric_spent": decision.spent.to_dict(),
            "_rubric_stop_reason": decision.stop_reason,
            "_rubric_best": best,
        }
        if decision.feedback is not None:
            update["messages"] = [feedback_message(decision.feedback)]
            update["jump_to"] = "model"
        elif (
            decision.status in ("max_iterations_reached", "budget_exhausted")
            and self.best_draft
            and best is not None
            and best["iteration"] != iteration
        ):
            update["messages"] = [AIMessage(best["text"], name=BEST_DRAFT_NAME)]
        return update

    async def evaluate(self, rubric: Any, messages: list[Any]) -> Evaluation:
        """One grading pass's evaluation: never raises but for an interrupt (a `grader_error`)."""
        if self.completion is not None:
            context = {"rubric": rubric} if rubric != _COMPLETION_KEY else None
            result = await self.completion.arun(
                first_user_text(messages),
                last_assistant_text(messages),
                messages=messages,
                request_context=context,
            )
            return result.to_evaluation()
        try:
            parsed = Rubric.parse(rubric)
        except RubricError as exc:
            return Evaluation(result="failed", explanation=f"The rubric cannot be used: {exc}")
        try:
            return await self.judge.aevaluate(parsed, messages=messages)
        except GraphBubbleUp:
            raise  # an interrupt from a grader tool is control flow, not a grading failure
        except Exception as exc:
            # Building the judge (missing key, provider package, weights; unknown model id) or a
            # model that cannot do what grading needs: a `grader_error` pass, never a crash
            # out of the agent's run after it already answered.
            logger.exception("rubricate: the grader failed")
            return grader_error(exc)

    def _notify(self, record: RubricEvaluation) -> None:
        if self.on_evaluation is None:
            return
        try:
            self.on_evaluation(record)
        except GraphBubbleUp:
            raise
        except Exception:
            logger.exception("rubricate: the on_evaluation callback raised; continuing")


def _event_fields(record: RubricEvaluation) -> dict[str, Any]:
    return {
        "grading_run_id": record["grading_run_id"],
        "iteration": record["iteration"],
        "result": record["result"],
        "explanation": record["explanation"],
        "criteria": record["criteria"],
        "unverified": record["unverified"],
    }
