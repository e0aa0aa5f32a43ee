"""`RubricMiddleware`: the self-revision loop as a LangChain v1 agent middleware.

A drop-in for deepagents' `RubricMiddleware` (same parameters, state keys, statuses, callback
and stream events), graded by rubricate's judge: per-criterion verdicts matched by id, code
checks, retries, fail-closed. Beyond the reference: forced exits (a call-limit middleware ended
the agent) are recorded, not graded; the judge never grades its own feedback; the evaluation
log is bounded; `best_draft` returns the best draft at the cap; `budget` caps grader spend.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Unpack

from langchain.agents.middleware.types import (
    AgentMiddleware,
    TracePolicy,
    hook_config,
    omit_payload,
)
from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime

from .._judge._judge import Judge
from .._judge._options import JudgeOptions, check_options
from .._rubric._rubric import Rubric, RubricLike
from ._completion import CompletionCheck
from ._core import Budget, RubricEvaluation, RubricState
from ._grading_loop import GradingLoop, GradingPass
from ._resumable import evaluate_once

__all__ = ["RubricMiddleware"]

logger = logging.getLogger("rubricate")


class RubricMiddleware(AgentMiddleware[RubricState, Any, Any]):
    r"""Grades the agent's answer against the rubric in its state, and loops until it passes.

    Args:
        model: The judge: `"local"`, `"provider:model-id"` or a LangChain chat model.
        max_iterations: Grading passes per grading run (a positive int).
        on_evaluation: Called with each `RubricEvaluation`; its exceptions are logged, not raised.
        criteria: A fixed rubric, used when the state carries none.
        best_draft: At the cap, end with the draft that passed the most required criteria.
        budget: Caps on judge calls / tokens per grading run.
        max_evaluations_kept: How many evaluations `_rubric_evaluations` keeps (the newest).
        completion: A check from `is_task_complete` that decides completion instead of the
            judge; the state's rubric goes to its rubric scorers.
        **options: The judge's settings (`JudgeOptions`): deepagents' `system_prompt` and
            `tools`, and `mode`, `read_checks`, `compile_checks` (once per rubric),
            `explain_passes`, `retry`... Checked here; the judge is built on first use.

    Example:
        ```python
        agent = create_agent(model, tools, middleware=[RubricMiddleware(model="local")])
        agent.invoke({"messages": [...], "rubric": "- Cites a source\\n- Under 200 words"})
        ```

    """

    state_schema = RubricState
    trace_policy = TracePolicy(process_inputs=omit_payload)
    """As deepagents': hook spans in a trace do not record the state (rubric, conversation)."""

    def __init__(
        self,
        *,
        model: str | BaseChatModel,
        max_iterations: int = 3,
        on_evaluation: Callable[[RubricEvaluation], Any] | None = None,
        criteria: RubricLike | None = None,
        best_draft: bool = False,
        budget: Budget | None = None,
        max_evaluations_kept: int = 50,
        completion: CompletionCheck | None = None,
        **options: Unpack[JudgeOptions],
    ) -> None:
        super().__init__()
        if not model:
            raise ValueError("RubricMiddleware: `model` is required")
        check_options(options, "RubricMiddleware()")
        self.max_iterations = max_iterations
        self.loop = GradingLoop(
            make_judge=lambda: Judge(model, **options),
            max_iterations=max_iterations,
            on_evaluation=on_evaluation,
            criteria=Rubric.parse(criteria) if criteria is not None else None,
            best_draft=best_draft,
            budget=budget or Budget(),
            max_evaluations_kept=max_evaluations_kept,
            completion=completion,
        )

    @property
    def judge(self) -> Judge:
        """The judge, built on first use so creating the middleware needs no key or model."""
        return self.loop.judge

    # -- hooks ---------------------------------------------------------------------------------

    def before_agent(self, state: RubricState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Start a new grading run for a new rubric, or after a terminal status."""
        return self.loop.start(state)

    async def abefore_agent(
        self, state: RubricState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `before_agent`."""
        return self.loop.start(state)

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: RubricState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Grade the answer; on `needs_revision` inject feedback and jump back to the model."""
        # `aafter_agent`'s steps, with the evaluation run by a sync nested graph: a sync graph's
        # checkpointer may have no async methods.
        emit = _writer(runtime)
        step = self.loop.begin(state, emit)
        if not isinstance(step, GradingPass):
            return step
        evaluation = evaluate_once(lambda: self.loop.evaluate(step.rubric, step.messages))
        return self.loop.finish(state, step, evaluation, emit)

    @hook_config(can_jump_to=["model"])
    async def aafter_agent(
        self, state: RubricState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `after_agent`."""
        return await self.loop.grade(state, _writer(runtime))


def _writer(runtime: Runtime[Any]) -> Callable[[dict[str, Any]], None]:
    """Custom stream events (visible with `stream_mode="custom"`) that never fail the run."""
    writer = getattr(runtime, "stream_writer", None)

    def emit(payload: dict[str, Any]) -> None:
        if writer is None:
            return
        try:
            writer(payload)
        except Exception:
            logger.debug("rubricate: the stream writer raised; event dropped", exc_info=True)

    return emit
