"""`RubricMiddleware`: the self-revision loop as a LangChain v1 agent middleware.

A drop-in for deepagents' `RubricMiddleware` (same parameters, state keys, statuses, callback
and stream events), graded by rubricate's judge: per-criterion verdicts matched by id, code
checks, retries, fail-closed. Beyond the reference: forced exits (a call-limit middleware ended
the agent) are recorded, not graded; the judge never grades its own feedback; the evaluation
log is bounded; `best_draft` returns the best draft at the cap; `budget` caps grader spend.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from typing import Annotated, Any, NotRequired

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    PrivateStateAttr,
    hook_config,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool
from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime

from ._exceptions import RubricError
from ._judge import Judge
from ._loop import (
    TERMINAL_STATUSES,
    Budget,
    RubricEvaluation,
    RunStatus,
    evaluation_record,
    feedback_message,
    forced_exit_reason,
    last_ai_text,
    next_status,
)
from ._rubric import Rubric, RubricLike
from ._sync import run_sync
from ._types import Evaluation, Mode, Usage

__all__ = ["RubricMiddleware", "RubricState"]

logger = logging.getLogger("rubricate")

BEST_DRAFT_NAME = "rubric_best_draft"


class RubricState(AgentState[Any]):
    """Agent state with a rubric; everything but `rubric` is private bookkeeping."""

    rubric: NotRequired[Any]
    """What "done" looks like: checklist text, or a list / mapping of criteria."""
    _rubric_status: NotRequired[Annotated[RunStatus | None, PrivateStateAttr]]
    _rubric_iterations: NotRequired[Annotated[int, PrivateStateAttr]]
    _rubric_evaluations: NotRequired[Annotated[list[RubricEvaluation], PrivateStateAttr]]
    _current_grading_run_id: NotRequired[Annotated[str, PrivateStateAttr]]
    _active_rubric: NotRequired[Annotated[Any, PrivateStateAttr]]
    _rubric_spent: NotRequired[Annotated[dict[str, int], PrivateStateAttr]]
    """Judge usage of the current grading run, for the budget."""
    _rubric_best: NotRequired[Annotated[dict[str, Any] | None, PrivateStateAttr]]
    """The draft that passed the most required criteria in this run."""
    _rubric_stop_reason: NotRequired[Annotated[str | None, PrivateStateAttr]]
    """Why the run stopped when it did not end `satisfied`."""
    _rubric_forced_exits: NotRequired[Annotated[list[dict[str, Any]], PrivateStateAttr]]
    """Agent runs that ended by a limit rather than an answer: recorded, not graded."""


class RubricMiddleware(AgentMiddleware[RubricState, Any, Any]):
    r"""Grades the agent's answer against the rubric in its state, and loops until it passes.

    Args:
        model: The judge: `"local"`, `"provider:model-id"` or a LangChain chat model.
        system_prompt: Grading instructions replacing the built-in ones.
        tools: Tools the judge may call before its verdict.
        max_iterations: Grading passes per grading run (a positive int).
        on_evaluation: Called with each `RubricEvaluation`; its exceptions are logged, not raised.
        mode: `"joint"` or `"per_criterion"` judging (default depends on the model).
        criteria: A fixed rubric, used when the state carries none.
        best_draft: At the cap, end with the draft that passed the most required criteria.
        budget: Caps on judge calls / tokens per grading run.
        max_evaluations_kept: How many evaluations `_rubric_evaluations` keeps (the newest).

    Example:
        ```python
        agent = create_agent(model, tools, middleware=[RubricMiddleware(model="local")])
        agent.invoke({"messages": [...], "rubric": "- Cites a source\\n- Under 200 words"})
        ```

    """

    state_schema = RubricState

    def __init__(
        self,
        *,
        model: str | BaseChatModel,
        system_prompt: str | None = None,
        tools: Sequence[BaseTool | Callable[..., Any]] | None = None,
        max_iterations: int = 3,
        on_evaluation: Callable[[RubricEvaluation], Any] | None = None,
        mode: Mode | None = None,
        criteria: RubricLike | None = None,
        best_draft: bool = False,
        budget: Budget | None = None,
        max_evaluations_kept: int = 50,
    ) -> None:
        super().__init__()
        if not model:
            raise ValueError("RubricMiddleware: `model` is required")
        if isinstance(max_iterations, bool) or not isinstance(max_iterations, int):
            raise TypeError(
                f"RubricMiddleware: `max_iterations` must be an int, got {max_iterations!r}"
            )
        if max_iterations < 1:
            raise ValueError(
                f"RubricMiddleware: `max_iterations` must be >= 1, got {max_iterations!r}"
            )
        if on_evaluation is not None and not callable(on_evaluation):
            raise TypeError("RubricMiddleware: `on_evaluation` must be callable")
        if max_evaluations_kept < 1:
            raise ValueError(
                "RubricMiddleware: `max_evaluations_kept` must be >= 1, "
                f"got {max_evaluations_kept!r}"
            )
        self.max_iterations = max_iterations
        self.on_evaluation = on_evaluation
        self.criteria = Rubric.parse(criteria) if criteria is not None else None
        self.best_draft = best_draft
        self.budget = budget or Budget()
        self.max_evaluations_kept = max_evaluations_kept
        self._judge_options: dict[str, Any] = {
            "mode": mode,
            "system_prompt": system_prompt,
            "tools": tools,
        }
        self._model = model
        self._judge: Judge | None = None

    @property
    def judge(self) -> Judge:
        """The judge, built on first use so creating the middleware needs no key or model."""
        if self._judge is None:
            self._judge = Judge(self._model, **self._judge_options)
        return self._judge

    # -- hooks ---------------------------------------------------------------------------------

    def before_agent(self, state: RubricState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Start a new grading run for a new rubric, or after a terminal status."""
        return self._start_run(state)

    async def abefore_agent(
        self, state: RubricState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `before_agent`."""
        return self._start_run(state)

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: RubricState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Grade the answer; on `needs_revision` inject feedback and jump back to the model."""
        return run_sync(self._grade_run(state, runtime))

    @hook_config(can_jump_to=["model"])
    async def aafter_agent(
        self, state: RubricState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `after_agent`."""
        return await self._grade_run(state, runtime)

    # -- the cycle -----------------------------------------------------------------------------

    def _rubric_source(self, state: RubricState) -> Any:
        rubric = state.get("rubric")
        return rubric if rubric else self.criteria

    def _start_run(self, state: RubricState) -> dict[str, Any] | None:
        rubric = self._rubric_source(state)
        if not rubric:
            return None
        key = rubric.to_dict() if isinstance(rubric, Rubric) else rubric
        if (
            state.get("_active_rubric") == key
            and state.get("_rubric_status") not in TERMINAL_STATUSES
        ):
            return None  # the same rubric, still inside its grading run (e.g. after an interrupt)
        return {
            "_active_rubric": key,
            "_current_grading_run_id": str(uuid.uuid4()),
            "_rubric_iterations": 0,
            "_rubric_status": None,
            "_rubric_spent": Usage().to_dict(),
            "_rubric_best": None,
            "_rubric_stop_reason": None,
        }

    async def _grade_run(self, state: RubricState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        rubric = self._rubric_source(state)
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

        _emit(
            runtime,
            {"type": "rubric_evaluation_start", "grading_run_id": run_id, "iteration": iteration},
        )
        evaluation = await self._evaluate(rubric, messages)
        record = evaluation_record(evaluation, grading_run_id=run_id, iteration=iteration)
        status: RunStatus = next_status(
            evaluation.result, iteration=iteration, max_iterations=self.max_iterations
        )
        spent = spent + evaluation.usage
        stop_reason: str | None = None
        if status == "max_iterations_reached":
            stop_reason = f"the rubric was not satisfied after {self.max_iterations} grading passes"
        elif status == "needs_revision" and (exhausted := self.budget.exhausted(spent)):
            status, stop_reason = "budget_exhausted", exhausted
        _emit(runtime, {"type": "rubric_evaluation_end", **_event_fields(record)})
        self._notify(record)

        update: dict[str, Any] = {
            "_current_grading_run_id": run_id,
            "_rubric_evaluations": [*state.get("_rubric_evaluations", []), record][
                -self.max_evaluations_kept :
            ],
            "_rubric_iterations": iteration + 1,
            "_rubric_status": status,
            "_rubric_spent": spent.to_dict(),
            "_rubric_stop_reason": stop_reason,
        }
        best = _better_draft(state.get("_rubric_best"), evaluation, messages, iteration)
        update["_rubric_best"] = best
        if status == "needs_revision":
            update["messages"] = [feedback_message(record)]
            update["jump_to"] = "model"
        elif (
            status in ("max_iterations_reached", "budget_exhausted")
            and self.best_draft
            and best is not None
            and best["iteration"] != iteration
        ):
            update["messages"] = [AIMessage(best["text"], name=BEST_DRAFT_NAME)]
        return update

    async def _evaluate(self, rubric: Any, messages: list[Any]) -> Evaluation:
        try:
            parsed = Rubric.parse(rubric)
        except RubricError as exc:
            return Evaluation(result="failed", explanation=f"The rubric cannot be used: {exc}")
        return await self.judge.aevaluate(parsed, messages=messages)

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
    }


def _emit(runtime: Runtime[Any], payload: dict[str, Any]) -> None:
    """Write a custom stream event (visible with `stream_mode="custom"`); never fails the run."""
    writer = getattr(runtime, "stream_writer", None)
    if writer is None:
        return
    try:
        writer(payload)
    except Exception:
        logger.debug("rubricate: the stream writer raised; event dropped", exc_info=True)


def _better_draft(
    best: dict[str, Any] | None, evaluation: Evaluation, messages: list[Any], iteration: int
) -> dict[str, Any] | None:
    """Keep the draft that passed the most required criteria (the earliest on a tie)."""
    if evaluation.result == "grader_error" or not evaluation.criteria:
        return best
    score = sum(v.passed for v in evaluation.criteria if v.required)
    if best is not None and best["passed_required"] >= score:
        return best
    return {"text": last_ai_text(messages), "passed_required": score, "iteration": iteration}
