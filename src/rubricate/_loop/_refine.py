"""`refine`: the self-revision loop for any agent that is a Python callable.

The agent answers, the judge grades, failed criteria go back as feedback, until the rubric is
satisfied or a cap is hit: the same statuses, records, callback and events as
`RubricMiddleware`, because both run `GradingLoop`. The loop is a small LangGraph graph, so a
checkpointer makes it durable: with SQLite and a `thread_id`, a killed process picks up where it
stopped, with every evaluation recorded before the kill kept and none repeated.
"""

from __future__ import annotations

import contextlib
import inspect
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Unpack

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    convert_to_messages,
)
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph

from .._judge._evidence import (
    first_user_text,
    is_feedback,
    last_assistant_text,
    message_text,
)
from .._judge._judge import Judge, check_judge_options, judge_for
from .._judge._options import JudgeOptions
from .._models import ModelLike
from .._rubric._rubric import Rubric, RubricLike
from .._sync import run_in_thread, run_sync
from ._completion import CompletionCheck
from ._core import Budget, RubricEvaluation, RubricState, RunStatus
from ._grading_loop import GradingLoop

__all__ = ["RefineResult", "arefine", "refine"]

AgentFn = Callable[..., Any]
"""`agent(messages) -> text | message | messages`, or `agent(task, feedback)`; may be async."""


@dataclass(kw_only=True, frozen=True)
class RefineResult:
    """How a `refine` run ended."""

    output: str
    """The final answer (the best draft when `best_draft` chose an earlier one)."""
    status: RunStatus | None
    """`satisfied`, `max_iterations_reached`, `failed`, `grader_error`, `budget_exhausted`,
    or `None` when there was no rubric to grade against."""
    evaluations: list[RubricEvaluation]
    """Every grading pass on this thread, oldest first (bounded by `max_evaluations_kept`)."""
    messages: list[BaseMessage]
    """The whole conversation, feedback included."""
    iterations: int
    """Grading passes in this run."""
    thread_id: str
    stop_reason: str | None = None
    """Why the run stopped when it did not end `satisfied`."""


async def arefine(
    agent: AgentFn,
    task: str,
    rubric: RubricLike | None = None,
    *,
    judge: ModelLike | Judge = "local",
    max_iterations: int = 3,
    on_evaluation: Callable[[RubricEvaluation], Any] | None = None,
    on_event: Callable[[dict[str, Any]], Any] | None = None,
    checkpointer: BaseCheckpointSaver[Any] | str | Path | None = None,
    thread_id: str | None = None,
    best_draft: bool = False,
    budget: Budget | None = None,
    max_evaluations_kept: int = 50,
    completion: CompletionCheck | None = None,
    **options: Unpack[JudgeOptions],
) -> RefineResult:
    r"""Run `agent` on `task` until its answer satisfies `rubric` or a cap is reached.

    Args:
        agent: A callable taking the conversation (a list of LangChain messages), or, when its
            first parameter is named `task`, the task and the latest feedback
            (`agent(task, feedback)`, feedback `None` at first). It returns text, a message, or
            messages. An async agent is awaited on the caller's event loop; a sync one runs in a
            worker thread, so it may block.
        task: What the agent is asked to do.
        rubric: What "done" looks like (any form `Rubric.parse` takes). `None`: no grading.
        judge: The judge model (`"local"`, `"provider:model-id"`, a chat model) or a `Judge`.
        max_iterations: Grading passes per run (a positive int).
        on_evaluation: Called with each `RubricEvaluation`; its exceptions are logged.
        on_event: Called with each `rubric_evaluation_start` / `_end` event.
        checkpointer: A LangGraph checkpointer with async methods (`InMemorySaver`,
            `AsyncSqliteSaver`, ...), or a path to a SQLite file for durable runs; default
            in-memory.
        thread_id: The run's thread. Calling again with the same thread continues an
            interrupted run; after a finished one it starts a new run on the same conversation.
        best_draft: At the cap, return the draft that passed the most required criteria.
        budget: Caps on judge calls / tokens per run.
        max_evaluations_kept: How many evaluations the thread keeps.
        completion: A check from `is_task_complete` that decides completion instead of the
            judge; the rubric, if any, goes to its rubric scorers.
        **options: The judge's settings (`JudgeOptions`) when `judge` names a model, such as
            `mode`, `read_checks` or `explain_passes`; with a `Judge`, they are a `TypeError`.

    Example:
        ```python
        async def agent(task: str, feedback: str | None) -> str:
            return await my_llm(task if feedback is None else f"{task}\\n\\n{feedback}")

        result = await arefine(agent, "Write a haiku about spring.", "- Three lines\\n- Spring")
        result.status, result.output
        ```

    """
    # The rubric stays out of the checkpoint: a code check is a Python callable, which cannot
    # be serialised; the loop holds it, and the state keeps its JSON form to detect changes.
    check_judge_options(judge, options, "refine()")  # now: the judge is built on first use
    loop = GradingLoop(
        make_judge=lambda: judge_for(judge, options, "refine()"),
        criteria=Rubric.parse(rubric) if rubric is not None else None,
        max_iterations=max_iterations,
        on_evaluation=on_evaluation,
        best_draft=best_draft,
        budget=budget or Budget(),
        max_evaluations_kept=max_evaluations_kept,
        completion=completion,
    )
    async with _checkpointer(checkpointer) as saver:
        graph = _graph(agent, loop).compile(checkpointer=saver)
        thread = thread_id or str(uuid.uuid4())
        config: Any = {"configurable": {"thread_id": thread}}
        try:
            snapshot = await graph.aget_state(config)
        except NotImplementedError as exc:  # e.g. the sync-only SqliteSaver
            raise TypeError(
                f"`checkpointer`: {type(saver).__name__} has no async methods, and the loop runs "
                "asynchronously; pass an async one (InMemorySaver, AsyncSqliteSaver, ...) or the "
                "path of a SQLite file"
            ) from exc
        # An interrupted run (steps still pending) continues exactly where it stopped.
        inputs: Any = None if snapshot.next else {"messages": [HumanMessage(task)]}
        # Durable "sync" checkpoints: each step is on disk before the next starts, so a killed
        # process loses at most the step it was in.
        async for event in graph.astream(inputs, config, stream_mode="custom", durability="sync"):
            if on_event is not None:
                on_event(event)
        state = (await graph.aget_state(config)).values
    messages = list(state.get("messages", []))
    return RefineResult(
        output=last_assistant_text(messages),
        status=state.get("_rubric_status"),
        evaluations=list(state.get("_rubric_evaluations", [])),
        messages=messages,
        iterations=state.get("_rubric_iterations", 0),
        thread_id=thread,
        stop_reason=state.get("_rubric_stop_reason"),
    )


def refine(
    agent: AgentFn,
    task: str,
    rubric: RubricLike | None = None,
    *,
    judge: ModelLike | Judge = "local",
    max_iterations: int = 3,
    on_evaluation: Callable[[RubricEvaluation], Any] | None = None,
    on_event: Callable[[dict[str, Any]], Any] | None = None,
    checkpointer: BaseCheckpointSaver[Any] | str | Path | None = None,
    thread_id: str | None = None,
    best_draft: bool = False,
    budget: Budget | None = None,
    max_evaluations_kept: int = 50,
    completion: CompletionCheck | None = None,
    **options: Unpack[JudgeOptions],
) -> RefineResult:
    r"""Sync wrapper of `arefine` (same arguments): run `agent` until `rubric` is satisfied.

    Example:
        ```python
        def agent(task: str, feedback: str | None) -> str:
            return my_llm(task if feedback is None else f"{task}\\n\\n{feedback}")

        result = refine(agent, "Write a haiku about spring.", "- Three lines\\n- About spring")
        result.status, result.output
        ```

    """
    return run_sync(
        arefine(
            agent,
            task,
            rubric,
            judge=judge,
            max_iterations=max_iterations,
            on_evaluation=on_evaluation,
            on_event=on_event,
            checkpointer=checkpointer,
            thread_id=thread_id,
            best_draft=best_draft,
            budget=budget,
            max_evaluations_kept=max_evaluations_kept,
            completion=completion,
            **options,
        )
    )


def _graph(agent: AgentFn, loop: GradingLoop) -> StateGraph[RubricState]:
    async def start(state: RubricState) -> dict[str, Any]:
        return loop.start(state) or {}

    async def act(state: RubricState) -> dict[str, Any]:
        return {"messages": await _call_agent(agent, list(state.get("messages", [])))}

    async def grade(state: RubricState) -> dict[str, Any]:
        update = await loop.grade(state, get_stream_writer()) or {}
        update.pop("jump_to", None)
        return update

    def route(state: RubricState) -> str:
        return "act" if state.get("_rubric_status") == "needs_revision" else END

    graph = StateGraph(RubricState)
    graph.add_node("start", start)
    graph.add_node("act", act)
    graph.add_node("grade", grade)
    graph.add_edge(START, "start")
    graph.add_edge("start", "act")
    graph.add_edge("act", "grade")
    graph.add_conditional_edges("grade", route, ["act", END])
    return graph


async def _call_agent(agent: AgentFn, messages: list[BaseMessage]) -> list[BaseMessage]:
    """Call the user's agent in whichever style it takes; return the new messages.

    An async agent runs on this event loop; a sync one in a daemon thread, so a blocking agent
    neither stalls the loop nor, once given up on (Ctrl-C), delays the exit.
    """
    if _takes_task(agent):
        last = messages[-1] if messages else None
        feedback = (
            message_text(last) if isinstance(last, HumanMessage) and is_feedback(last) else None
        )
        args: tuple[Any, ...] = (first_user_text(messages), feedback)
    else:
        args = (list(messages),)
    if _is_async(agent):
        result = agent(*args)
    else:
        result = await run_in_thread(agent, *args)
    if inspect.isawaitable(result):
        result = await result
    return _new_messages(result, messages)


def _is_async(agent: AgentFn) -> bool:
    """An `async def` function, or an object whose `__call__` is one."""
    return inspect.iscoroutinefunction(agent) or inspect.iscoroutinefunction(
        getattr(agent, "__call__", None)  # noqa: B004 - the bound method, not callability
    )


def _takes_task(agent: AgentFn) -> bool:
    """`agent(task, feedback)` style when its first parameter is named `task`."""
    try:
        parameters = list(inspect.signature(agent).parameters)
    except (TypeError, ValueError):
        return False
    return bool(parameters) and parameters[0] == "task"


def _new_messages(result: Any, history: Sequence[BaseMessage]) -> list[BaseMessage]:
    if isinstance(result, str):
        return [AIMessage(result)]
    if isinstance(result, BaseMessage):
        return [result]
    if isinstance(result, dict):
        return list(convert_to_messages([result]))
    if isinstance(result, Sequence):
        converted = list(convert_to_messages(list(result)))
        prefix = len(history)
        if len(converted) >= prefix and all(
            message_text(a) == message_text(b)
            for a, b in zip(converted[:prefix], history, strict=False)
        ):
            converted = converted[prefix:]  # the agent returned the whole conversation
        return converted
    raise TypeError(
        f"the agent must return text, a message or a list of messages, got {type(result).__name__}"
    )


@contextlib.asynccontextmanager
async def _checkpointer(
    checkpointer: BaseCheckpointSaver[Any] | str | Path | None,
) -> AsyncIterator[BaseCheckpointSaver[Any]]:
    """The saver to use; a SQLite file is opened (asynchronously) for the run and closed after."""
    if checkpointer is None:
        yield InMemorySaver()
    elif isinstance(checkpointer, (str, Path)):
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        async with AsyncSqliteSaver.from_conn_string(str(checkpointer)) as saver:
            yield saver
    else:
        yield checkpointer
